import Foundation

/// Parses RFC 3339 timestamps into milliseconds since the epoch without Foundation on the fast
/// path (`2026-11-23T09:00:01.553Z`), falling back to ISO 8601 parsing for other shapes
/// (offsets, no fraction).
enum TimestampParser {
    static func milliseconds(_ bytes: UnsafeBufferPointer<UInt8>, _ slice: ByteSlice) -> Int64? {
        if slice.count == 24, let fast = fixed(bytes, slice.start) { return fast }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[slice.start..<(slice.start + slice.count)]),
                          as: UTF8.self)
        return general(text)
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    private static func fixed(_ b: UnsafeBufferPointer<UInt8>, _ s: Int) -> Int64? {
        func digits(_ offset: Int, _ count: Int) -> Int64? {
            var value: Int64 = 0
            for index in s + offset..<s + offset + count {
                let digit = b[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
            }
            return value
        }
        guard b[s + 4] == UInt8(ascii: "-"), b[s + 7] == UInt8(ascii: "-"), b[s + 10] == UInt8(ascii: "T"),
              b[s + 13] == UInt8(ascii: ":"), b[s + 16] == UInt8(ascii: ":"), b[s + 19] == UInt8(ascii: "."),
              b[s + 23] == UInt8(ascii: "Z"),
              let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2), let hour = digits(11, 2),
              let minute = digits(14, 2), let second = digits(17, 2), let millis = digits(20, 3),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        let days = daysFromCivil(year, month, day)
        return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millis
    }

    private static func general(_ text: String) -> Int64? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return Int64((date.timeIntervalSince1970 * 1000).rounded()) }
        return nil
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
