/// Times on the proleptic Gregorian calendar in UTC, as the event log's RFC 3339 timestamps write
/// them: years 0001 to 9999, milliseconds since 1970-01-01T00:00:00Z. Parsing is strict — a
/// date that does not exist (February 31, hour 24, second 60) is not read as another one.
package enum CivilTime {
    /// 0001-01-01T00:00:00.000Z.
    package static let earliestMilliseconds: Int64 = -62_135_596_800_000
    /// 9999-12-31T23:59:59.999Z: the last time a four-digit year can write.
    package static let latestMilliseconds: Int64 = 253_402_300_799_999

    /// Whether `milliseconds` can be written as an RFC 3339 timestamp.
    package static func isWritable(_ milliseconds: Int64) -> Bool {
        (earliestMilliseconds...latestMilliseconds).contains(milliseconds)
    }

    /// Days since 1970-01-01 of a calendar date (no range check).
    package static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Year, month, day of `days` since 1970-01-01.
    package static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The number of days in `month` of `year`.
    package static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Milliseconds since the epoch of `YYYY-MM-DD` (midnight UTC) or an RFC 3339 date-time
    /// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; nil for anything else, including dates and
    /// times that do not exist and times outside 0001–9999 in UTC. Fractions beyond milliseconds
    /// are cut. What experiment and population files hold.
    package static func parseMilliseconds(_ text: String) -> Int64? {
        let result = utf8(text) { bytes -> Int64? in
            guard bytes.count == 10 else { return milliseconds(bytes) }
            return date(bytes).map { $0 * 86_400_000 }
        }
        return result.flatMap { isWritable($0) ? $0 : nil }
    }

    /// ``milliseconds(_:)`` of a string's UTF-8 bytes.
    package static func milliseconds(_ text: String) -> Int64? {
        utf8(text) { milliseconds($0) }
    }

    /// `body` applied to the UTF-8 bytes of `text`, in place where the platform lends them.
    private static func utf8<Result>(_ text: String, _ body: (Span<UInt8>) -> Result) -> Result {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return body(text.utf8.span)
        }
        return body(Array(text.utf8).span)
    }

    /// Milliseconds since the epoch of an RFC 3339 date-time, strictly: the log writer's form
    /// `2026-11-23T09:00:01.553Z`, and generally `YYYY-MM-DDTHH:MM:SS[.fraction]` then `Z` or
    /// `±HH:MM` (`T` and `Z` in either case). Years 0001–9999; the day must exist in its month;
    /// hours 00–23, minutes and seconds 00–59 (no leap second); offsets up to ±23:59. Fractions
    /// beyond milliseconds are cut off. Anything else is nil. What a log line's `ts` holds.
    package static func milliseconds(_ text: Span<UInt8>) -> Int64? {
        guard text.count >= 20, text[10] | 0x20 == UInt8(ascii: "t"), text[13] == UInt8(ascii: ":"),
              text[16] == UInt8(ascii: ":"), let days = date(text),
              let hour = digits(text, 11, 2), let minute = digits(text, 14, 2), let second = digits(text, 17, 2),
              hour < 24, minute < 60, second < 60 else { return nil }
        var index = 19
        var millis: Int64 = 0
        if text[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < text.count, let digit = digits(text, index, 1) {
                if index - start < 3 { millis = millis * 10 + digit }
                index += 1
            }
            guard index > start else { return nil }
            for _ in min(index - start, 3)..<3 { millis *= 10 }
        }
        guard let offset = offsetMinutes(text, from: index) else { return nil }
        return ((days * 24 + hour) * 60 + minute - offset) * 60_000 + second * 1000 + millis
    }

    /// The days since 1970-01-01 of the `YYYY-MM-DD` that `text` starts with, if that day exists.
    private static func date(_ text: Span<UInt8>) -> Int64? {
        guard text.count >= 10, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"),
              let year = digits(text, 0, 4), let month = digits(text, 5, 2), let day = digits(text, 8, 2),
              year >= 1, (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month) else { return nil }
        return days(year: year, month: month, day: day)
    }

    /// The decimal number of the `count` digits at `offset`, or nil if one is not a digit.
    private static func digits(_ text: Span<UInt8>, _ offset: Int, _ count: Int) -> Int64? {
        var value: Int64 = 0
        for index in offset..<offset + count {
            let digit = text[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int64(digit)
        }
        return value
    }

    /// `Z` (0) or `±HH:MM` (in minutes east of UTC) ending the text at `index`.
    private static func offsetMinutes(_ text: Span<UInt8>, from index: Int) -> Int64? {
        guard index < text.count else { return nil }
        let sign = text[index]
        if sign | 0x20 == UInt8(ascii: "z") { return index + 1 == text.count ? 0 : nil }
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), index + 6 == text.count, text[index + 3] == UInt8(ascii: ":"),
              let hours = digits(text, index + 1, 2), let minutes = digits(text, index + 4, 2), hours < 24, minutes < 60 else {
            return nil
        }
        return (sign == UInt8(ascii: "-") ? -1 : 1) * (hours * 60 + minutes)
    }
}
