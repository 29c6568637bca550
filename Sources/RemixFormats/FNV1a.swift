/// FNV-1a (Fowler–Noll–Vo), 32 or 64 bits: the only implementation in the host. The 64-bit hash
/// over UTF-8 names runs and sources in logs (a run record's `sources`, a simulation's and a
/// copied log's run id), keys the assignment engine's attribute index and seeds bandit updates;
/// the 32-bit one over UTF-16 code units is GrowthBook's bucketing hash (GrowthBookAssignment
/// feeds it). Not for security: only to tell inputs apart.
///
/// `public`, not `package`, so that callers in other modules inline and specialise it: Swift 6.3
/// compiled an `@inlinable package` function as a call to its unspecialised generic body (`remix
/// log copy`'s content hash went through the sequence's iterator a byte at a time). RemixFormats
/// is in no product, so nothing outside the package sees it.
public struct FNV1a<Hash: FNV1aWidth>: Sendable {
    /// The hash of what was added so far.
    public var value: Hash

    /// A hash continuing from `value` (the hash of what came before); the empty input's by default.
    @inlinable @inline(__always)
    public init(continuing value: Hash = Hash.fnv1aOffsetBasis) {
        self.value = value
    }

    /// Adds one unit (a byte, or a UTF-16 code unit for GrowthBook's hash): one step of FNV-1a.
    @inlinable @inline(__always)
    public mutating func add<Unit: FixedWidthInteger & UnsignedInteger>(_ unit: Unit) {
        value = (value ^ Hash(truncatingIfNeeded: unit)) &* Hash.fnv1aPrime
    }

    /// Adds every unit of `units` in order.
    @inlinable
    public mutating func add<Units: Sequence>(contentsOf units: Units) where Units.Element: FixedWidthInteger & UnsignedInteger {
        var hash = self
        for unit in units { hash.add(unit) }
        self = hash
    }

    /// The hash of `bytes`; from `value` (the hash of what came before), the hash of both together.
    @inlinable
    public static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes, continuing value: Hash = Hash.fnv1aOffsetBasis) -> Hash {
        var hash = FNV1a(continuing: value)
        hash.add(contentsOf: bytes)
        return hash.value
    }
}

extension FNV1a where Hash == UInt64 {
    /// The 64-bit hash of `bytes` as 16 lower-case hex digits.
    package static func hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        let text = String(hash(bytes), radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}

/// The widths FNV-1a is defined for here, with their parameters.
public protocol FNV1aWidth: FixedWidthInteger, UnsignedInteger, Sendable {
    /// The hash of an empty input.
    static var fnv1aOffsetBasis: Self { get }
    /// The FNV prime of this width.
    static var fnv1aPrime: Self { get }
}

extension UInt32: FNV1aWidth {
    @inlinable public static var fnv1aOffsetBasis: UInt32 { 0x811C_9DC5 }
    @inlinable public static var fnv1aPrime: UInt32 { 0x0100_0193 }
}

extension UInt64: FNV1aWidth {
    @inlinable public static var fnv1aOffsetBasis: UInt64 { 0xCBF2_9CE4_8422_2325 }
    @inlinable public static var fnv1aPrime: UInt64 { 0x0000_0100_0000_01B3 }
}
