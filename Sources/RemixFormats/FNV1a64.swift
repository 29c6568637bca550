/// FNV-1a, 64 bits: the short hash that names runs and sources in logs (a run record's `sources`,
/// a simulation's and a copied log's run id) and tells byte streams apart in benchmarks. Not for
/// security: only to tell inputs apart.
public enum FNV1a64 {
    /// The hash of an empty input.
    public static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325

    /// The hash of `bytes`; from `hash` (the hash of what came before), the hash of both together.
    ///
    /// `public`, not `package`, so that callers in other modules inline and specialise it: Swift
    /// 6.3 compiled an `@inlinable package` function as a call to its unspecialised generic body
    /// (`remix log copy`'s content hash went through the sequence's iterator a byte at a time).
    /// RemixFormats is in no product, so nothing outside the package sees it.
    @inlinable
    public static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes, continuing hash: UInt64 = offsetBasis) -> UInt64 {
        var hash = hash
        for byte in bytes {
            hash = combine(hash, byte)
        }
        return hash
    }

    /// The hash of what `hash` hashed followed by `byte`: one step of FNV-1a.
    @inlinable @inline(__always)
    public static func combine(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
        (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    /// The hash of `bytes` as 16 lower-case hex digits.
    package static func hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        let text = String(hash(bytes), radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
