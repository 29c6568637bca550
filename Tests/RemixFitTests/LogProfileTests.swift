import Foundation
@testable import RemixFit
import RemixTestSupport
import Testing

/// What the fidelity report reads of a log (`LogProfile`): sessions as the fit assembles them —
/// interleaved, restarted, never ended, or never started — and users counted toward a variation
/// from their first exposure on.
@Suite struct LogProfileTests {
    static func line(_ ms: Int, _ type: String, _ session: String, _ user: String, _ rest: String = "") -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let time = formatter.string(from: Date(timeIntervalSince1970: 1_795_424_400 + Double(ms) / 1000))
        return #"{"ts":"\#(time)","type":"\#(type)","session":"\#(session)","user":"\#(user)"\#(rest)}"#
    }

    static func screen(_ ms: Int, _ session: String, _ user: String, _ stack: String) -> String {
        line(ms, "screen", session, user, #","transition":"push","screen":"x","stack":"\#(stack)""#)
    }

    @Test func sessionsAreAssembledAsTheFitAssemblesThem() throws {
        let lines = [
            Self.line(0, "run", "", ""),
            Self.line(0, "session_started", "a1", "ann"),
            Self.line(500, "session_started", "b1", "bob"),
            Self.screen(1000, "a1", "ann", "adverts | "),
            Self.line(1500, "exposure", "a1", "ann", #","experiment":"flow","variation":"auto","inExperiment":true"#),
            Self.screen(2000, "b1", "bob", "adverts > groups(Cars) | "),
            Self.screen(4000, "a1", "ann", "adverts > groups(Bikes) | "),
            Self.line(5000, "advert_published", "a1", "ann", #","group":"Bikes""#),
            Self.line(6000, "session_ended", "a1", "ann"),
            // A line of a session never started, and one without a session, are left out.
            Self.screen(6500, "zz", "ann", "adverts | "),
            Self.line(6600, "advert_viewed", "", "ann"),
            // bob's session is started again: the open one ends at its last event (2 000 ms).
            Self.line(7000, "session_started", "b1", "bob"),
            Self.line(8000, "exposure", "b1", "bob", #","experiment":"flow","variation":"manual","inExperiment":false"#),
            // ann comes back a day later and never ends the session: it ends at its last event.
            Self.line(86_406_000, "session_started", "a2", "ann"),
            Self.screen(86_407_000, "a2", "ann", "adverts | "),
            Self.line(86_409_000, "exposure", "a2", "ann", #","experiment":"flow","variation":"auto","inExperiment":true"#),
        ]
        let folder = try TemporaryFolder()
        try (lines.joined(separator: "\n") + "\n").write(toFile: folder.path("log.jsonl"), atomically: true, encoding: .utf8)
        let profile = try LogProfile.read(paths: [folder.path("log.jsonl")])

        #expect(profile.all.users == 2)
        #expect(profile.all.sessions == 4)
        // a1 6 s, b1 1.5 s (start 500, last event 2 000), b1 again 0 s (no events), a2 1 s.
        #expect(abs(profile.all.duration.mean - 8.5 / 4) < 1e-9)
        #expect(profile.all.steps.mean == 4.0 / 4)
        #expect(profile.all.daysBetweenVisits.total == 2)
        // ann's 3 s on the adverts list before the groups; the front screen without its context.
        #expect(profile.all.dwell.keys.sorted() == ["adverts"])
        #expect(profile.all.dwell["adverts"]?.mean == 3)

        let auto = try #require(profile.variations["flow"]?["auto"])
        #expect(auto.users == 1 && auto.sessions == 2, "ann from her first session on (exposed in it)")
        #expect(profile.variations["flow"]?["manual"] == nil, "bob's exposure was not in the experiment")
    }
}
