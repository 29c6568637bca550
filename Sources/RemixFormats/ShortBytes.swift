/// Byte strings of at most 16 bytes read as two words: how the event-log writer copies and checks
/// short strings, and how the analysis compares and hashes short byte strings, without a loop.
public enum ShortBytes {
    /// The `count` (at most 16) bytes at `raw` as two little-endian words, zero past the end,
    /// read with at most three loads and never past the last byte.
    ///
    /// `public`, not `package`: Swift 6.3 does not inline an `@inlinable package` function into
    /// other modules (the event-log writer called this per string, and the analysis' string
    /// table per field); RemixFormats is in no product, so nothing outside the package sees it.
    @inlinable @inline(__always)
    public static func words(_ raw: UnsafeRawPointer, count: Int) -> (low: UInt64, high: UInt64) {
        if count >= 8 {
            let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            let last = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
            return (first, count > 8 ? last >> (8 &* UInt64(16 &- count)) : 0)
        }
        if count >= 4 {
            let first = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
            let last = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)))
            return (first | last << (8 &* UInt64(count &- 4)), 0)
        }
        guard count > 0 else { return (0, 0) }
        let middle = count >> 1
        let first = UInt64(raw.load(as: UInt8.self))
        let between = UInt64(raw.load(fromByteOffset: middle, as: UInt8.self))
        let last = UInt64(raw.load(fromByteOffset: count &- 1, as: UInt8.self))
        return (first | between << (8 &* UInt64(middle)) | last << (8 &* UInt64(count &- 1)), 0)
    }
}
