/// Parses RFC 3339 date-times into milliseconds since the epoch, strictly: the log writer's form
/// `2026-11-23T09:00:01.553Z` on a fast path, and generally `YYYY-MM-DDTHH:MM:SS[.fraction]` then
/// `Z` or `±HH:MM` (`T` and `Z` in either case). Years 0001–9999; the day must exist in its month
/// (leap years by the Gregorian rule); hours 00–23, minutes and seconds 00–59 (no leap second);
/// offsets up to ±23:59. Fractions beyond milliseconds are cut off. Anything else is nil.
enum TimestampParser {
    static func milliseconds(_ bytes: UnsafeBufferPointer<UInt8>, _ slice: ByteSlice) -> Int64? {
        milliseconds(UnsafeBufferPointer(rebasing: bytes[slice.start..<(slice.start + slice.count)]))
    }

    static func milliseconds(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard text.count >= 20, let base = text.baseAddress else { return nil }
        func digits(_ offset: Int, _ count: Int) -> Int64? {
            var value: Int64 = 0
            for index in offset..<offset + count {
                let digit = base[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
            }
            return value
        }
        guard base[4] == UInt8(ascii: "-"), base[7] == UInt8(ascii: "-"), base[10] | 0x20 == UInt8(ascii: "t"),
              base[13] == UInt8(ascii: ":"), base[16] == UInt8(ascii: ":"),
              let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2), let hour = digits(11, 2),
              let minute = digits(14, 2), let second = digits(17, 2),
              year >= 1, (1...12).contains(month), day >= 1, day <= daysInMonth(month, year: year),
              hour < 24, minute < 60, second < 60 else { return nil }
        var index = 19
        var millis: Int64 = 0
        if base[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < text.count, let digit = digits(index, 1) {
                if index - start < 3 { millis = millis * 10 + digit }
                index += 1
            }
            guard index > start else { return nil }
            for _ in min(index - start, 3)..<3 { millis *= 10 }
        }
        guard let offset = offsetMinutes(base, from: index, count: text.count) else { return nil }
        let days = daysFromCivil(year, month, day)
        return ((days * 24 + hour) * 60 + minute - offset) * 60_000 + second * 1000 + millis
    }

    /// `Z` (0) or `±HH:MM` (in minutes east of UTC) ending the text at `index`.
    private static func offsetMinutes(_ base: UnsafePointer<UInt8>, from index: Int, count: Int) -> Int64? {
        guard index < count else { return nil }
        let sign = base[index]
        if sign | 0x20 == UInt8(ascii: "z") { return index + 1 == count ? 0 : nil }
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), index + 6 == count,
              base[index + 3] == UInt8(ascii: ":") else { return nil }
        let h1 = base[index + 1] &- UInt8(ascii: "0"), h2 = base[index + 2] &- UInt8(ascii: "0")
        let m1 = base[index + 4] &- UInt8(ascii: "0"), m2 = base[index + 5] &- UInt8(ascii: "0")
        guard h1 < 10, h2 < 10, m1 < 10, m2 < 10 else { return nil }
        let hours = Int64(h1) * 10 + Int64(h2), minutes = Int64(m1) * 10 + Int64(m2)
        guard hours < 24, minutes < 60 else { return nil }
        return (sign == UInt8(ascii: "-") ? -1 : 1) * (hours * 60 + minutes)
    }

    static func daysInMonth(_ month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date.
    static func daysFromCivil(_ year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// ``TimestampParser`` with a memory of the last minute parsed: a log's consecutive events mostly
/// share their date, hour and minute, so when a timestamp in the writer's form
/// (`2026-11-23T09:00:01.553Z`) starts with the same 16 bytes as the last one parsed, only its
/// seconds and milliseconds are read. Anything else goes through the full parser.
struct TimestampCache {
    /// The first 16 bytes (`YYYY-MM-DDTHH:MM`) of the last timestamp parsed in the writer's form.
    private var prefix: (UInt64, UInt64) = (0, 0)
    /// That minute's start in milliseconds since the epoch.
    private var minute: Int64 = 0
    private var known = false

    mutating func milliseconds(_ bytes: UnsafeBufferPointer<UInt8>, _ slice: ByteSlice) -> Int64? {
        milliseconds(UnsafeBufferPointer(rebasing: bytes[slice.start..<(slice.start + slice.count)]))
    }

    mutating func milliseconds(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard text.count == 24, let base = text.baseAddress, base[16] == UInt8(ascii: ":"), base[19] == UInt8(ascii: "."),
              base[23] == UInt8(ascii: "Z"), let seconds = Self.secondsAndMillis(base) else {
            return TimestampParser.milliseconds(text)
        }
        let raw = UnsafeRawPointer(base)
        let words = (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        if known, words == prefix { return minute + seconds }
        guard let full = TimestampParser.milliseconds(text) else { return nil }
        (prefix, minute, known) = (words, full - seconds, true)
        return full
    }

    /// `SS.mmm` of the writer's form in milliseconds; nil unless they are digits and SS < 60.
    private static func secondsAndMillis(_ base: UnsafePointer<UInt8>) -> Int64? {
        let zero = UInt8(ascii: "0")
        let s1 = base[17] &- zero, s2 = base[18] &- zero, m1 = base[20] &- zero, m2 = base[21] &- zero, m3 = base[22] &- zero
        guard s1 < 6, s2 < 10, m1 < 10, m2 < 10, m3 < 10 else { return nil }
        return (Int64(s1) * 10 + Int64(s2)) * 1000 + Int64(m1) * 100 + Int64(m2) * 10 + Int64(m3)
    }
}
