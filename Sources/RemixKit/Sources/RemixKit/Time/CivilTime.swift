/// Times on the proleptic Gregorian calendar in UTC, as the event log's RFC 3339 timestamps write
/// them: years 0001 to 9999, milliseconds since 1970-01-01T00:00:00Z. Parsing is strict — a
/// date that does not exist (February 31, hour 24, second 60) is not read as another one.
public enum CivilTime {
    /// 0001-01-01T00:00:00.000Z.
    public static let earliestMilliseconds: Int64 = -62_135_596_800_000
    /// 9999-12-31T23:59:59.999Z: the last time a four-digit year can write.
    public static let latestMilliseconds: Int64 = 253_402_300_799_999

    /// Whether `milliseconds` can be written as an RFC 3339 timestamp.
    public static func isWritable(_ milliseconds: Int64) -> Bool {
        (earliestMilliseconds...latestMilliseconds).contains(milliseconds)
    }

    /// Days since 1970-01-01 of a calendar date (no range check).
    public static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Year, month, day of `days` since 1970-01-01.
    public static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
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
    public static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Milliseconds since the epoch of `YYYY-MM-DD` (midnight UTC) or an RFC 3339 date-time
    /// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; nil for anything else, including dates and
    /// times that do not exist and years outside 0001–9999. Fractions beyond milliseconds are cut.
    public static func parseMilliseconds(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        var at = 0
        func number(_ width: Int) -> Int64? {
            guard at + width <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[at..<at + width] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            at += width
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard at < bytes.count, characters.utf8.contains(bytes[at]) else { return false }
            at += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
              (1...9999).contains(year), (1...12).contains(month),
              (1...daysInMonth(year: year, month: month)).contains(day) else { return nil }
        let date = days(year: year, month: month, day: day) * 86_400_000
        if at == bytes.count { return date }
        guard expect("Tt"), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
              let second = number(2), hour < 24, minute < 60, second < 60 else { return nil }
        var millis: Int64 = 0
        if expect(".") {
            let digits = bytes[at...].prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
            guard digits > 0 else { return nil }
            for index in 0..<3 {
                millis = millis * 10 + (index < digits ? Int64(bytes[at + index] - UInt8(ascii: "0")) : 0)
            }
            at += digits
        }
        var offset: Int64 = 0
        if !expect("Zz") {
            guard at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") else { return nil }
            let sign: Int64 = bytes[at] == UInt8(ascii: "-") ? -1 : 1
            at += 1
            guard let hours = number(2), expect(":"), let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 60 + minutes) * 60_000
        }
        guard at == bytes.count else { return nil }
        let result = date + ((hour * 60 + minute) * 60 + second) * 1000 + millis - offset
        return isWritable(result) ? result : nil
    }
}
