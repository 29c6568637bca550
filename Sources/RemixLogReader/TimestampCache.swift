import RemixFormats

/// `ts` read as `CivilTime.milliseconds` reads RFC 3339, with a memory of the last minute parsed:
/// a log's consecutive events mostly share their date, hour and minute, so when a timestamp in the
/// writer's form (`2026-11-23T09:00:01.553Z`) starts with the same 16 bytes as the last one parsed,
/// only its seconds and milliseconds are read. Anything else goes through the full parser.
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
        milliseconds(line.extracting(slice.range))
    }

    package mutating func milliseconds(_ text: Span<UInt8>) -> Int64? {
        guard text.count == 24, text[16] == UInt8(ascii: ":"), text[19] == UInt8(ascii: "."), text[23] == UInt8(ascii: "Z"),
              let seconds = Self.secondsAndMillis(text) else {
            return CivilTime.milliseconds(text)
        }
        let words = (Self.word(text, at: 0), Self.word(text, at: 8))
        if known, words == prefix { return minute + seconds }
        guard let full = CivilTime.milliseconds(text) else { return nil }
        (prefix, minute, known) = (words, full - seconds, true)
        return full
    }

    /// The eight bytes of `text` from `offset`, the first the lowest.
    @inline(__always)
    private static func word(_ text: Span<UInt8>, at offset: Int) -> UInt64 {
        var word: UInt64 = 0
        for index in 0..<8 { word |= UInt64(text[offset &+ index]) &<< (8 &* index) }
        return word
    }

    /// `SS.mmm` of the writer's form in milliseconds; nil unless they are digits and SS < 60.
    private static func secondsAndMillis(_ text: Span<UInt8>) -> Int64? {
        let zero = UInt8(ascii: "0")
        let s1 = text[17] &- zero, s2 = text[18] &- zero, m1 = text[20] &- zero, m2 = text[21] &- zero, m3 = text[22] &- zero
        guard s1 < 6, s2 < 10, m1 < 10, m2 < 10, m3 < 10 else { return nil }
        return (Int64(s1) * 10 + Int64(s2)) * 1000 + Int64(m1) * 100 + Int64(m2) * 10 + Int64(m3)
    }
}
