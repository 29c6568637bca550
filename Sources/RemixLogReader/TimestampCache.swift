import RemixFormats

/// `ts` read as `CivilTime.milliseconds` reads RFC 3339, with a memory of the last minute parsed:
/// a log's consecutive events mostly share their date, hour and minute, so when a timestamp in the
/// writer's form (`2026-11-23T09:00:01.553Z`) starts with the same 16 bytes as the last one parsed,
/// only its seconds and milliseconds are read. Anything else goes through the full parser.
///
/// Memory safety: the writer's form is read through the text's pointer only once its count is
/// checked to be 24, at offsets below 24.
package struct TimestampCache {
    /// The first 16 bytes (`YYYY-MM-DDTHH:MM`) of the last timestamp parsed in the writer's form.
    private var prefix: (UInt64, UInt64) = (0, 0)
    /// That minute's start in milliseconds since the epoch.
    private var minute: Int64 = 0
    private var known = false

    /// No minute parsed yet.
    package init() {}

    /// The time of the `slice` of `line`.
    package mutating func milliseconds(_ line: Span<UInt8>, _ slice: ByteSlice) -> Int64? {
        unsafe line.extracting(slice.range).withUnsafeBufferPointer { unsafe milliseconds($0) }
    }

    package mutating func milliseconds(_ bytes: UnsafeBufferPointer<UInt8>, _ slice: ByteSlice) -> Int64? {
        unsafe milliseconds(UnsafeBufferPointer(rebasing: bytes[slice.start..<(slice.start + slice.count)]))
    }

    package mutating func milliseconds(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard text.count == 24, let base = text.baseAddress, unsafe base[16] == UInt8(ascii: ":"), unsafe base[19] == UInt8(ascii: "."),
              unsafe base[23] == UInt8(ascii: "Z"), let seconds = unsafe Self.secondsAndMillis(base) else {
            return unsafe CivilTime.milliseconds(text)
        }
        let raw = unsafe UnsafeRawPointer(base)
        let words = unsafe (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        if known, words == prefix { return minute + seconds }
        guard let full = unsafe CivilTime.milliseconds(text) else { return nil }
        (prefix, minute, known) = (words, full - seconds, true)
        return full
    }

    /// `SS.mmm` of the writer's form in milliseconds; nil unless they are digits and SS < 60.
    private static func secondsAndMillis(_ base: UnsafePointer<UInt8>) -> Int64? {
        let zero = UInt8(ascii: "0")
        let s1 = unsafe base[17] &- zero, s2 = unsafe base[18] &- zero, m1 = unsafe base[20] &- zero, m2 = unsafe base[21] &- zero, m3 = unsafe base[22] &- zero
        guard s1 < 6, s2 < 10, m1 < 10, m2 < 10, m3 < 10 else { return nil }
        return (Int64(s1) * 10 + Int64(s2)) * 1000 + Int64(m1) * 100 + Int64(m2) * 10 + Int64(m3)
    }
}
