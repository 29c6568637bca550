/// The bytes of a small ASCII `String` read from the string's own two words, without asking the
/// string for a buffer.
///
/// Why: a small string (at most 15 bytes, held inside the `String` value) lends its bytes through
/// `withContiguousStorageIfAvailable` by storing its two words to the stack; the event-log writer
/// then loads them back as words at unaligned offsets, and a load that spans both stores cannot be
/// forwarded from them (a stall of a dozen cycles on every such string: `perf annotate` put 23 % of
/// `JSONByteWriter.quoted`'s samples on that load). Read here, the bytes never leave registers.
///
/// The layout is the standard library's on 64-bit platforms (its `StringObject.swift`): the first
/// word holds bytes 0–7, the second bytes 8–14 and, in its top byte, the discriminator nibble and
/// the count; `0xE` is the nibble of a small ASCII string and of nothing else, and bytes past the
/// count are zero. Platforms with another layout (32-bit, Android on arm64) always get `nil`, and
/// `SmallASCIITests` checks the layout against `utf8` for every length.
public enum SmallASCII {
    /// The bytes of `string` as two little-endian words (zero past the end) and their count, when
    /// `string` is a small ASCII string; `nil` for any other string.
    @inlinable @inline(__always)
    public static func words(_ string: String) -> (low: UInt64, high: UInt64, count: Int)? {
        words(bits: unsafeBitCast(string, to: (UInt64, UInt64).self))
    }

    /// As ``words(_:)`` for the `String` stored at `pointer`, read without copying it (a copy
    /// counts a reference when the string is not small).
    @inlinable @inline(__always)
    public static func words(at pointer: UnsafePointer<String>) -> (low: UInt64, high: UInt64, count: Int)? {
        words(bits: UnsafeRawPointer(pointer).load(as: (UInt64, UInt64).self))
    }

    /// The same for a string stored at `pointer`, whatever the memory is bound to (e.g. the payload
    /// of an enum case laid out at the value's start).
    @inlinable @inline(__always)
    public static func words(raw pointer: UnsafeRawPointer) -> (low: UInt64, high: UInt64, count: Int)? {
        words(bits: pointer.load(as: (UInt64, UInt64).self))
    }

    @usableFromInline @inline(__always)
    static func words(bits: (UInt64, UInt64)) -> (low: UInt64, high: UInt64, count: Int)? {
        #if (arch(x86_64) || arch(arm64)) && !os(Android)
        let (low, object) = bits
        guard object >> 60 == 0xE else { return nil }
        return (UInt64(littleEndian: low), UInt64(littleEndian: object) & 0x00FF_FFFF_FFFF_FFFF,
                Int(truncatingIfNeeded: (object >> 56) & 0xF))
        #else
        return nil
        #endif
    }
}
