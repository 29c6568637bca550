/// A byte string's length and first 16 bytes in two little-endian words, zero past the end: how
/// the assignment engine keeps attribute names and values, the event-log writer copies and checks
/// short strings, and the log reader compares and hashes them, in a few word operations without a
/// loop. For a string of at most 16 bytes, equal words and count mean equal bytes.
///
/// Reading a `String`'s own two words (``init(smallASCII:)``): a small string (at most 15 bytes,
/// held inside the `String` value) lends its bytes through `withContiguousStorageIfAvailable` by
/// storing its two words to the stack; loaded back as words at unaligned offsets, a load that
/// spans both stores cannot be forwarded from them (a stall of a dozen cycles on every such
/// string in the event-log writer). Read here, the bytes never leave registers. The layout is the
/// standard library's on 64-bit platforms (its `StringObject.swift`): the first word holds bytes
/// 0–7, the second bytes 8–14 and, in its top byte, the discriminator nibble and the count; `0xE`
/// is the nibble of a small ASCII string and of nothing else, and bytes past the count are zero.
/// Platforms with another layout (32-bit, Android on arm64) always get `nil`, and
/// `ShortBytesTests` checks the layout against `utf8` for every length.
///
/// `public`, not `package`: Swift 6.3 does not inline an `@inlinable package` function into other
/// modules (the event-log writer calls this per string, the log reader per field); RemixFormats
/// is in no product, so nothing outside the package sees it.
public struct ShortBytes: Sendable, Equatable {
    /// Bytes 0–7, the first in the lowest byte.
    public let low: UInt64
    /// Bytes 8–15.
    public let high: UInt64
    /// The string's length, which may exceed 16: then only its first 16 bytes are held.
    public let count: Int

    @inlinable @inline(__always)
    public init(low: UInt64, high: UInt64, count: Int) {
        self.low = low
        self.high = high
        self.count = count
    }

    /// The length and first 16 bytes of `bytes`, shifted in one by one.
    @inlinable
    public init<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var count = 0
        for byte in bytes {
            if count < 8 {
                low |= UInt64(byte) << (8 * UInt64(count))
            } else if count < 16 {
                high |= UInt64(byte) << (8 * UInt64(count - 8))
            }
            count += 1
        }
        self.init(low: low, high: high, count: count)
    }

    /// The same for a string's UTF-8: a native string's bytes loaded as words, not shifted in one
    /// by one.
    @inlinable
    public init(_ utf8: String.UTF8View) {
        if let text = unsafe utf8.withContiguousStorageIfAvailable({ unsafe ShortBytes(prefixOf: $0) }) {
            self = text
        } else {
            self.init(utf8.lazy)
        }
    }

    /// The length and first 16 bytes of `bytes`.
    @inlinable @inline(__always)
    public init(prefixOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else {
            self.init(low: 0, high: 0, count: 0)
            return
        }
        let (low, high) = unsafe Self.words(UnsafeRawPointer(base), count: Swift.min(bytes.count, 16))
        self.init(low: low, high: high, count: bytes.count)
    }

    /// The bytes of `string` when it is a small ASCII string; `nil` for any other string.
    @inlinable @inline(__always)
    public init?(smallASCII string: String) {
        self.init(smallStringBits: unsafe unsafeBitCast(string, to: (UInt64, UInt64).self))
    }

    /// As ``init(smallASCII:)`` for the `String` stored at `pointer`, read without copying it (a
    /// copy counts a reference when the string is not small).
    @inlinable @inline(__always)
    public init?(smallASCIIAt pointer: UnsafePointer<String>) {
        self.init(smallStringBits: unsafe UnsafeRawPointer(pointer).load(as: (UInt64, UInt64).self))
    }

    /// The same for a string stored at `pointer`, whatever the memory is bound to (e.g. the
    /// payload of an enum case laid out at the value's start).
    @inlinable @inline(__always)
    public init?(smallASCIIAt pointer: UnsafeRawPointer) {
        self.init(smallStringBits: unsafe pointer.load(as: (UInt64, UInt64).self))
    }

    @usableFromInline @inline(__always)
    init?(smallStringBits bits: (UInt64, UInt64)) {
        #if (arch(x86_64) || arch(arm64)) && !os(Android)
        let (low, object) = bits
        guard object >> 60 == 0xE else { return nil }
        self.init(low: UInt64(littleEndian: low), high: UInt64(littleEndian: object) & 0x00FF_FFFF_FFFF_FFFF,
                  count: Int(truncatingIfNeeded: (object >> 56) & 0xF))
        #else
        return nil
        #endif
    }

    /// The `count` (at most 16) bytes at `raw` as two little-endian words, zero past the end,
    /// read with at most three loads and never past the last byte.
    @inlinable @inline(__always)
    public static func words(_ raw: UnsafeRawPointer, count: Int) -> (low: UInt64, high: UInt64) {
        assert(0 <= count && count <= 16, "\(count) bytes are not short")
        if count >= 8 {
            let first = UInt64(littleEndian: unsafe raw.loadUnaligned(as: UInt64.self))
            let last = UInt64(littleEndian: unsafe raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
            return (first, count > 8 ? last >> (8 &* UInt64(16 &- count)) : 0)
        }
        if count >= 4 {
            let first = UInt64(UInt32(littleEndian: unsafe raw.loadUnaligned(as: UInt32.self)))
            let last = UInt64(UInt32(littleEndian: unsafe raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)))
            return (first | last << (8 &* UInt64(count &- 4)), 0)
        }
        guard count > 0 else { return (0, 0) }
        let middle = count >> 1
        let first = UInt64(unsafe raw.load(as: UInt8.self))
        let between = UInt64(unsafe raw.load(fromByteOffset: middle, as: UInt8.self))
        let last = UInt64(unsafe raw.load(fromByteOffset: count &- 1, as: UInt8.self))
        return (first | between << (8 &* UInt64(middle)) | last << (8 &* UInt64(count &- 1)), 0)
    }

    /// The byte at `index` (below 16 and below `count`).
    @inlinable @inline(__always)
    public subscript(index: Int) -> UInt8 {
        assert(0 <= index && index < Swift.min(count, 16), "byte \(index) of \(count)")
        return UInt8(truncatingIfNeeded: (index < 8 ? low : high) >> (8 &* UInt64(index & 7)))
    }

    /// `body` applied to the held bytes (the first 16 when `count` is larger).
    @inlinable @inline(__always)
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let words = (low.littleEndian, high.littleEndian)
        let held = Swift.min(count, 16)
        return unsafe withUnsafeBytes(of: words) { raw in
            unsafe raw.withMemoryRebound(to: UInt8.self) { bytes in
                unsafe body(UnsafeBufferPointer(rebasing: bytes.prefix(held)))
            }
        }
    }

    /// Same length and same first 16 bytes; equality of the strings when `count <= 16`.
    @inlinable @inline(__always)
    public func prefixMatches(_ other: ShortBytes) -> Bool {
        (low ^ other.low) | (high ^ other.high) | UInt64(bitPattern: Int64(count ^ other.count)) == 0
    }
}
