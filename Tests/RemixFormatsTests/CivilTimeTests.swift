import Foundation
import RemixFormats
import Testing

/// CivilTime: strict RFC 3339 reading on the proleptic Gregorian calendar, years 0001–9999.
@Suite struct CivilTimeTests {
    @Test(arguments: [
        ("1970-01-01", Int64(0)),
        ("1970-01-01T00:00:00Z", 0),
        ("1970-01-01T00:00:00.001Z", 1),
        ("1970-01-01T00:00:00.1239Z", 123),
        ("1970-01-01T01:00:00+01:00", 0),
        ("1969-12-31T23:00:00-01:00", 0),
        ("2026-11-23t09:00:00z", 1_795_424_400_000),
        ("2024-02-29", 1_709_164_800_000),
        ("0001-01-01", CivilTime.earliestMilliseconds),
        ("9999-12-31T23:59:59.999Z", CivilTime.latestMilliseconds),
    ])
    func readsRealTimes(text: String, milliseconds: Int64) {
        #expect(CivilTime.parseMilliseconds(text) == milliseconds)
    }

    @Test(arguments: [
        "", "garbage", "1795424400", "2026-02-31", "2023-02-29", "1900-02-29", "2026-13-01", "2026-00-10",
        "2026-01-00", "2026-04-31", "0000-12-31", "2026-11-23T24:00:00Z", "2026-11-23T23:60:00Z",
        "2026-11-23T23:59:60Z", "2026-11-23T09:00:00", "2026-11-23T09:00Z", "2026-11-23T09:00:00.Z",
        "2026-11-23T09:00:00+1:00", "2026-11-23 09:00:00Z", "+2026-11-23", "2026-11-23T09:00:00Zjunk",
        "9999-12-31T23:59:59-00:01", "0001-01-01T00:00:00+00:01",
    ])
    func refusesWhatIsNotARealTime(text: String) {
        #expect(CivilTime.parseMilliseconds(text) == nil, "\(text)")
    }

    @Test func daysAndCivilDatesAreInverse() {
        // Every 997th day from year 1 to 9999, and the days around each turn of a century.
        var day = CivilTime.days(year: 1, month: 1, day: 1)
        let last = CivilTime.days(year: 9999, month: 12, day: 31)
        while day <= last {
            let (year, month, dayOfMonth) = CivilTime.civil(fromDays: day)
            #expect((1...CivilTime.daysInMonth(year: year, month: month)).contains(dayOfMonth))
            #expect(CivilTime.days(year: year, month: month, day: dayOfMonth) == day)
            day += 997
        }
        for year: Int64 in stride(from: 100, through: 9900, by: 100) {
            let march = CivilTime.days(year: year, month: 3, day: 1)
            let leap = year % 400 == 0
            #expect(CivilTime.civil(fromDays: march - 1) == (year, 2, leap ? 29 : 28))
        }
    }

    @Test func agreesWithFoundationsGregorianCalendarSince1583() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        for (year, month, day) in [(1583, 1, 1), (1600, 2, 29), (1970, 1, 1), (2000, 2, 29), (2026, 11, 23), (9999, 12, 31)] {
            let date = try #require(calendar.date(from: DateComponents(year: year, month: month, day: day)))
            #expect(CivilTime.days(year: Int64(year), month: Int64(month), day: Int64(day)) * 86_400_000
                    == Int64(date.timeIntervalSince1970 * 1000))
        }
    }
}
