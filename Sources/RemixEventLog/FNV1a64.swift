/// FNV-1a, 64 bits: the short content hash that names runs and sources in logs (a run record's
/// `sources`, a simulation's and a copied log's run id). Not for security: only to tell inputs apart.
public enum FNV1a64 {
    /// The hash of `bytes`.
    public static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// The hash of `bytes` as 16 lower-case hex digits.
    public static func hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        let text = String(hash(bytes), radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
