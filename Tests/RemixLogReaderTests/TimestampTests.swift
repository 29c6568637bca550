import Foundation
@testable import RemixLogReader
import RemixFormats
import Testing

/// `ts` is RFC 3339 as docs/events.md gives it, checked against the calendar.
@Suite struct TimestampTests {
    static func parse(_ text: String) -> Int64? {
        CivilTime.milliseconds(text)
    }

    /// Milliseconds since the epoch by Foundation's Gregorian calendar, for comparison.
    static func expected(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int,
                         _ millis: Int = 0) throws -> Int64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let date = try #require(calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour,
                                                                  minute: minute, second: second)))
        return Int64((date.timeIntervalSince1970 * 1000).rounded()) + Int64(millis)
    }

    @Test func theWritersFormAndOtherRFC3339FormsParse() throws {
        #expect(Self.parse("2026-11-23T09:00:01.553Z") == (try Self.expected(2026, 11, 23, 9, 0, 1, 553)))
        #expect(Self.parse("2026-11-23T09:00:01Z") == (try Self.expected(2026, 11, 23, 9, 0, 1)))
        #expect(Self.parse("2026-11-23t09:00:01.5z") == (try Self.expected(2026, 11, 23, 9, 0, 1, 500)))
        #expect(Self.parse("2026-11-23T09:00:01.5539999Z") == (try Self.expected(2026, 11, 23, 9, 0, 1, 553)), "cut to ms")
        #expect(Self.parse("2026-11-23T10:30:01.553+01:30") == (try Self.expected(2026, 11, 23, 9, 0, 1, 553)))
        #expect(Self.parse("2026-11-22T23:00:00-10:00") == (try Self.expected(2026, 11, 23, 9, 0, 0)))
        #expect(Self.parse("2028-02-29T00:00:00.000Z") == (try Self.expected(2028, 2, 29, 0, 0, 0)))
        #expect(Self.parse("2000-02-29T00:00:00.000Z") == (try Self.expected(2000, 2, 29, 0, 0, 0)))
        #expect(Self.parse("0001-01-01T00:00:00.000Z") == -62_135_596_800_000, "proleptic Gregorian")
        #expect(Self.parse("9999-12-31T23:59:59.999Z") == (try Self.expected(9999, 12, 31, 23, 59, 59, 999)))
        #expect(Self.parse("1969-12-31T23:59:59.999Z") == -1)
    }

    @Test(arguments: [
        "", "garbage", "1700000000", "1700000000000", "2026-11-23", "2026-11-23T09:00:01", "2026-11-23T09:00:01.553",
        "2026-13-01T00:00:00.000Z", "2026-00-10T00:00:00.000Z", "2026-11-00T00:00:00.000Z", "2026-11-31T00:00:00.000Z",
        "2026-02-31T00:00:00.000Z", "2027-02-29T00:00:00.000Z", "1900-02-29T00:00:00.000Z", "2026-11-23T24:00:00.000Z",
        "2026-11-23T09:60:00.000Z", "2026-11-23T09:00:60.000Z", "0000-01-01T00:00:00.000Z", "2026-11-23 09:00:01.553Z",
        "2026-11-23T09:00:01.Z", "2026-11-23T09:00:01.553+24:00", "2026-11-23T09:00:01.553+01:60",
        "2026-11-23T09:00:01.553+0100", "2026-11-23T09:00:01.553Zjunk", "+2026-11-23T09:00:01.553Z",
        "2026-1-23T09:00:01.553Z", "2026-11-23T9:00:01.553Z", "２026-11-23T09:00:01.553Z",
    ])
    func impossibleOrMalformedTimesAreRejected(text: String) {
        #expect(Self.parse(text) == nil)
    }

    @Test func everyDayOfEveryMonthOfAFourHundredYearCycleAgreesWithFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        for year in [1600, 1700, 1900, 1999, 2000, 2023, 2024, 2100, 2400] {
            for month in 1...12 {
                let start = try #require(calendar.date(from: DateComponents(year: year, month: month)))
                let days = try #require(calendar.range(of: .day, in: .month, for: start))
                for day in 1...31 {
                    let text = String(format: "%04d-%02d-%02dT12:00:00.000Z", year, month, day)
                    let parsed = Self.parse(text)
                    if days.contains(day) {
                        #expect(parsed == (try Self.expected(year, month, day, 12, 0, 0)), "\(text)")
                    } else {
                        #expect(parsed == nil, "\(text)")
                    }
                }
            }
        }
    }

    /// The cache of the last minute gives what the parser gives, in any order of timestamps.
    @Test func theMinuteCacheAgreesWithTheParser() {
        var texts: [String] = []
        for minute in ["2026-11-23T09:00", "2026-11-23T09:01", "2026-11-23t09:01", "2024-02-29T23:59", "2023-02-29T10:00"] {
            for rest in [":00.000Z", ":59.999Z", ":07.125Z", ":60.000Z", ":5x.000Z", ":07.12xZ", ":07.125z", ":07.125+01:00",
                         ":07Z", ":07.1250Z"] {
                texts.append(minute + rest)
            }
        }
        var cache = TimestampCache()
        // In order, backwards, and in strides that jump between minutes.
        let orders = [Array(texts.indices), texts.indices.reversed(), texts.indices.map { $0 * 7 % texts.count },
                      texts.indices.map { $0 * 13 % texts.count }]
        for order in orders {
            for text in order.map({ texts[$0] }) {
                let bytes = Array(text.utf8)
                let cached = cache.milliseconds(bytes.span)
                #expect(cached == Self.parse(text), "\(text)")
            }
        }
    }
}
