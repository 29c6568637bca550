import Foundation

/// A Marketplace event log written line by line, for what no simulation writes: a session of a
/// hundred thousand steps, times past the population file's limits, screens no app shows.
struct HandLog {
    private(set) var lines: [String] = []
    /// The log's text, a line an event.
    var text: String { lines.joined(separator: "\n") + "\n" }

    /// 2026-11-23T09:00:00Z, in milliseconds since the epoch.
    static let start: Int64 = 1_795_424_400_000

    mutating func started(_ session: String, _ user: String, at time: Int64, app: String = "marketplace", visit: Int = 1) {
        line(time, "session_started", session, user,
             #","app":"\#(app)","persona":"hand","visit":\#(visit),"attributes":{"id":"\#(user)","platform":"phone"}"#)
    }

    /// A screen change: `screen` shown by `transition`, leaving `stack` in front.
    mutating func screen(_ session: String, _ user: String, at time: Int64, _ transition: String, _ screen: String, stack: String) {
        line(time, "screen", session, user, #","transition":"\#(transition)","screen":"\#(screen)","stack":"\#(stack)""#)
    }

    mutating func ended(_ session: String, _ user: String, at time: Int64) {
        line(time, "session_ended", session, user, #","outcome":"none","intent":null,"screen":"adverts","durationMs":0,"steps":0"#)
    }

    mutating func line(_ time: Int64, _ type: String, _ session: String, _ user: String, _ rest: String = "") {
        lines.append(#"{"ts":"\#(Self.timestamp(time))","type":"\#(type)","session":"\#(session)","user":"\#(user)"\#(rest)}"#)
    }

    /// RFC 3339 with milliseconds, as the event log writes it (without a formatter: a long log has
    /// hundreds of thousands of lines).
    static func timestamp(_ milliseconds: Int64) -> String {
        let days = milliseconds / 86_400_000, rest = milliseconds % 86_400_000
        // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = rest % 1000
        return "\(year)-\(two(month))-\(two(day))T\(two(rest / 3_600_000)):\(two(rest / 60_000 % 60)):\(two(rest / 1000 % 60))."
            + (millis < 10 ? "00" : millis < 100 ? "0" : "") + "\(millis)Z"
    }
}
