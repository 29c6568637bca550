import Foundation
import RemixEventLog

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
        let ts = Timestamp.rfc3339(milliseconds: time)
        lines.append(#"{"ts":"\#(ts)","type":"\#(type)","session":"\#(session)","user":"\#(user)"\#(rest)}"#)
    }
}
