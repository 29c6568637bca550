import Foundation
import RemixEventLog
import RemixFormats
import RemixKit
import Testing

/// Timestamp.rfc3339 against Foundation's ISO 8601 formatter with fractional seconds.
@Suite struct TimestampTests {
    static func foundation(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Int64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute,
                                                      second: second))!
        return Int64(date.timeIntervalSince1970.rounded()) * 1000
    }

    @Test func knownValues() {
        #expect(Timestamp.rfc3339(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(Timestamp.rfc3339(milliseconds: 1) == "1970-01-01T00:00:00.001Z")
        #expect(Timestamp.rfc3339(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
        #expect(Timestamp.rfc3339(milliseconds: 1_795_424_401_553) == "2026-11-23T09:00:01.553Z")
        #expect(Timestamp.rfc3339(milliseconds: Self.utc(2024, 2, 29, 23, 59, 59) + 999) == "2024-02-29T23:59:59.999Z")
        #expect(Timestamp.rfc3339(milliseconds: Self.utc(2100, 3, 1)) == "2100-03-01T00:00:00.000Z")
        #expect(Timestamp.rfc3339(milliseconds: Self.utc(2000, 2, 29, 12)) == "2000-02-29T12:00:00.000Z")
        #expect(Timestamp.rfc3339(milliseconds: -86_400_000) == "1969-12-31T00:00:00.000Z")
    }

    static let interesting: [Int64] = {
        var values: [Int64] = [0, 1, 999, 1000, -1, -999, -1000, -1001, 86_399_999, 86_400_000, -86_400_000, -86_400_001,
                               1_795_424_400_000, 1_795_424_401_553, 253_402_300_799_999]
        for (year, month, day) in [(2024, 2, 28), (2024, 2, 29), (2024, 3, 1), (2023, 2, 28), (2023, 3, 1),
                                   (2000, 2, 29), (2000, 3, 1), (1900, 2, 28), (1900, 3, 1), (2100, 2, 28),
                                   (2100, 3, 1), (2400, 2, 29), (1969, 12, 31), (1970, 1, 1), (1600, 3, 1),
                                   (1999, 12, 31), (2000, 1, 1), (2026, 12, 31), (2027, 1, 1), (1904, 2, 29)] {
            let midnight = utc(year, month, day)
            values += [midnight, midnight - 1, midnight + 1, midnight + 86_399_999, midnight + 43_200_123]
        }
        return values
    }()

    @Test(arguments: interesting)
    func matchesFoundationForInterestingInstants(_ milliseconds: Int64) {
        #expect(Timestamp.rfc3339(milliseconds: milliseconds) == Self.foundation(milliseconds))
    }

    @Test func matchesFoundationAcrossCenturies() {
        // A deterministic walk from 1601 to 2399 in irregular steps (prime days plus odd milliseconds).
        var milliseconds = Self.utc(1601, 1, 1)
        let end = Self.utc(2399, 12, 31)
        var checked = 0
        while milliseconds < end {
            let ours = Timestamp.rfc3339(milliseconds: milliseconds)
            let theirs = Self.foundation(milliseconds)
            if ours != theirs {
                Issue.record("\(milliseconds): \(ours) != \(theirs)")
                break
            }
            checked += 1
            milliseconds += 37 * 86_400_000 + 3_599_997
        }
        #expect(checked > 7000)
    }

    @Test func appendWritesTheSameBytes() {
        var bytes: [UInt8] = Array("x".utf8)
        Timestamp.appendRFC3339(milliseconds: 1_709_251_199_999, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "x2024-02-29T23:59:59.999Z")
    }
}

/// Times outside four-digit years are written as the nearest end of the range, never wrapped.
@Suite struct TimestampRangeTests {
    @Test func yearsNeverWrap() {
        #expect(Timestamp.rfc3339(milliseconds: CivilTime.latestMilliseconds) == "9999-12-31T23:59:59.999Z")
        #expect(Timestamp.rfc3339(milliseconds: CivilTime.latestMilliseconds + 1) == "9999-12-31T23:59:59.999Z")
        #expect(Timestamp.rfc3339(milliseconds: .max) == "9999-12-31T23:59:59.999Z")
        #expect(Timestamp.rfc3339(milliseconds: CivilTime.earliestMilliseconds) == "0001-01-01T00:00:00.000Z")
        #expect(Timestamp.rfc3339(milliseconds: .min) == "0001-01-01T00:00:00.000Z")
    }

    @Test func whatIsWrittenReadsBack() {
        for milliseconds: Int64 in [CivilTime.earliestMilliseconds, -1, 0, 1_795_424_401_553, CivilTime.latestMilliseconds] {
            #expect(CivilTime.parseMilliseconds(Timestamp.rfc3339(milliseconds: milliseconds)) == milliseconds)
        }
    }

    /// An encoder keeps the last timestamp and its day between lines: lines with the time of the
    /// line before, the same day, another day, an earlier time again, and times past either end
    /// of the calendar (clamped) read as `rfc3339` writes them.
    @Test func anEncodersLinesCarryTheirOwnTimestamps() {
        let day = 1_795_424_401_553 as Int64
        let times: [Int64] = [day, day, day + 1, day + 1, day + 86_400_000, day, day, -1, -1, 0,
                              CivilTime.latestMilliseconds + 5, CivilTime.latestMilliseconds + 5, CivilTime.latestMilliseconds,
                              CivilTime.earliestMilliseconds - 7, CivilTime.earliestMilliseconds, day - 86_400_000]
        var encoder = JSONLinesEncoder()
        for time in times {
            encoder.encode(LoggedEvent(timestamp: time, type: "t", session: "s", user: "u", fields: []))
        }
        let stamps = String(decoding: encoder.bytes, as: UTF8.self).split(separator: "\n").map { String($0.dropFirst(7).prefix(24)) }
        #expect(stamps == times.map { Timestamp.rfc3339(milliseconds: $0) })
    }
}
