import Foundation
import PostgresNIO
import RemixTestSupport
import Testing
@testable import RemixStore

/// `remix analyze postgresql://…`: the report computed in SQL equals the report of the same
/// events in a file, for every metric type; names are only ever parameters; problems exit 1.
@Suite(.enabled(if: StoreServer.shouldRun, StoreServer.skipReason))
struct StoreAnalysisTests {
    static var root: URL { Repository.root }

    /// A store of its own: the test server's URL with a fresh PostgreSQL schema first on the
    /// search path (`options=-c search_path=…`), dropped afterwards; `body` gets that URL.
    /// `setup`, if given, is run in the fresh schema first (its name in place of `SCHEMA`).
    static func withOwnStore(setup: String? = nil, _ body: (String) async throws -> Void) async throws {
        let schema = StoreServer.scratchName("remix_analysis_")
        let url = try StoreServer.urlText(inSchema: schema)
        let store = try await PostgresStore.connect(try StoreServer.url())
        try await store.run(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"))
        if let setup { try await store.run(PostgresQuery(unsafeSQL: setup.replacingOccurrences(of: "SCHEMA", with: schema))) }
        let outcome: Result<Void, any Error>
        do {
            try await body(url)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        _ = try? await store.run(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(schema) CASCADE"))
        await store.close()
        try outcome.get()
    }

    /// A table of someone else's where the store's would be: `analyze` and `log copy` out of it
    /// end with the schema's message and exit 1 — no assertion of the client library about a
    /// connection left open (seen with output sent to a file) — and the file `log copy` was to
    /// replace keeps what it held.
    @Test func aStoreThatIsNotOursEndsAnalyzeAndCopyWithExitOne() async throws {
        try await Self.withOwnStore(setup: "CREATE TABLE SCHEMA.remix_events (id integer, payload text)") { url in
            let folder = try TemporaryFolder()
            for _ in 0..<3 {
                let analyze = try RemixProcess.run(["analyze", url, "--format", "json"], in: Self.root,
                                                   outputFile: try folder.write("report.json", ""))
                #expect(analyze.status == 1, "\(analyze.stderr)")
                #expect(analyze.stderr.contains("is not part of a Remix event store"), "\(analyze.stderr)")
                #expect(!analyze.stderr.contains("Assertion failed"))
            }
            let kept = folder.path("kept.jsonl")
            try "{\"type\":\"run\"}\n".write(toFile: kept, atomically: true, encoding: .utf8)
            let copy = try RemixProcess.run(["log", "copy", url, kept], in: Self.root)
            #expect(copy.status == 1 && copy.stderr.contains("is not part of a Remix event store"), "\(copy.stderr)")
            #expect(try String(contentsOfFile: kept, encoding: .utf8) == "{\"type\":\"run\"}\n", "the file is as it was")
            let refused = try RemixProcess.run(["log", "copy", "postgresql://remix:pw@127.0.0.1:1/remix", kept], in: Self.root)
            #expect(refused.status == 1, "\(refused.stderr)")
            #expect(try String(contentsOfFile: kept, encoding: .utf8) == "{\"type\":\"run\"}\n", "the file is as it was")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["kept.jsonl", "report.json"],
                    "no temporary file is left")
        }
    }

    /// The JSON report of `log` without its `log` part (which names the source).
    static func report(_ log: String, _ arguments: [String] = []) throws -> NSDictionary {
        let result = try RemixProcess.run(["analyze", log, "--format", "json"] + arguments, in: root)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        return NSDictionary(dictionary: object.filter { $0.key != "log" })
    }

    /// Every metric type the shipped metrics file has (proportions with windows, means, ratios,
    /// unit- and event-level quantiles, a percentile cap, CUPED).
    static let metrics = ["sums-analysed", "user-time-median", "time-in-sessions-p99-capped", "session-time-p90",
                          "steps-per-session", "groups-viewed", "published-first-day", "time-in-sessions", "advert_published"]

    @Test(arguments: ["marketplace", "calculator", "groupbrowser"])
    func theSameSeedIntoAFileAndIntoTheStoreGivesTheSameReport(app: String) async throws {
        try await Self.withOwnStore { url in
            let folder = try TemporaryFolder()
            // The experiment starts after the users' first visits, so CUPED has a pre-exposure window.
            let experiments = try ShippedExperiments.copy(into: folder)
            let log = folder.path("events.jsonl")
            let simulate = ["simulate", "--app", app, "--users", "1500", "--seed", "19", "--no-report", "--experiments", experiments]
            #expect(try RemixProcess.run(simulate + ["--log", log], in: Self.root).status == 0)
            let stored = try RemixProcess.run(simulate + ["--log", url], in: Self.root)
            #expect(stored.status == 0, "\(stored.stderr)")
            let fromFile = try Self.report(log, ["--experiments", experiments])
            #expect((fromFile["experiments"] as? [Any])?.isEmpty == false)
            #expect(try Self.report(url, ["--experiments", experiments]) == fromFile)
            let options = ["--experiments", experiments] + Self.metrics.flatMap { ["--metric", $0] }
            #expect(try Self.report(url, options) == Self.report(log, options))
        }
    }

    @Test func moreScreensThanTheFunnelFollowsFoldAsInAFile() async throws {
        try await Self.withOwnStore { url in
            let folder = try TemporaryFolder()
            var lines: [String] = []
            for index in 0..<30 {
                let user = "s\(index)"
                lines.append(#"{"ts":"2026-11-23T08:00:00.000Z","type":"exposure","session":"a","user":"\#(user)","experiment":"wide","variation":"v\#(index % 2)","variationId":\#(index % 2),"inExperiment":true,"hashUsed":true}"#)
                for screen in 0..<(20 + index) {
                    let ts = String(format: "2026-11-23T09:%02d:%02d.000Z", screen / 60, screen % 60)
                    lines.append(#"{"ts":"\#(ts)","type":"screen","session":"a","user":"\#(user)","screen":"screen\#(screen)(x)"}"#)
                }
            }
            let log = try folder.write("wide.jsonl", lines.joined(separator: "\n") + "\n")
            #expect(try RemixProcess.run(["log", "copy", log, url]).status == 0)
            let fromFile = try Self.report(log, ["--jobs", "1"])
            let funnel = ((fromFile["experiments"] as? [[String: Any]])?.first?["variations"] as? [[String: Any]])?.first?["funnel"]
            #expect((funnel as? [String: Any])?["(other screens)"] != nil, "\(String(describing: funnel))")
            #expect(try Self.report(url) == fromFile)
        }
    }

    @Test func namesAreOnlyParametersAndProblemsExitOne() async throws {
        try await Self.withOwnStore { url in
            let folder = try TemporaryFolder()
            let experiment = "x'); drop table remix_events;--", event = "e\"'; drop table remix_runs;--"
            var lines: [String] = []
            for index in 0..<40 {
                let ts = String(format: "2026-11-23T09:%02d:00.000Z", index)
                let later = String(format: "2026-11-23T10:%02d:00.000Z", index)
                lines.append(#"{"ts":"\#(ts)","type":"exposure","session":"s","user":"u\#(index)","experiment":"x'); drop table remix_events;--","variation":"v\#(index % 2)'","variationId":\#(index % 2),"inExperiment":true,"hashUsed":true}"#)
                if index % 3 != 0 {
                    lines.append(#"{"ts":"\#(later)","type":"e\"'; drop table remix_runs;--","session":"s","user":"u\#(index)","amount":\#(index * 3)}"#)
                }
            }
            let log = try folder.write("hostile.jsonl", lines.joined(separator: "\n") + "\n")
            #expect(try RemixProcess.run(["log", "copy", log, url]).status == 0)
            let fromStore = try RemixProcess.run(["analyze", url, "--format", "json", "--metric", event])
            #expect(fromStore.stdout.contains(#""key":"x'); drop table remix_events;--""#), "\(fromStore.stdout)")
            let twice = try RemixProcess.run(["analyze", url, "--format", "json", "--metric", event, "--experiment", experiment])
            #expect(twice.status == 0 && twice.stdout.contains(#""conversions":13"#), "\(twice.stdout) \(twice.stderr)")
            let file = try RemixProcess.run(["analyze", log, "--format", "json", "--metric", event, "--experiment", experiment])
            #expect(file.stdout.contains(#""conversions":13"#))

            let dimension = try RemixProcess.run(["analyze", url, "--dimension", "platform"])
            #expect(dimension.status == 1 && dimension.stderr.contains("--dimension platform: no session_started event has 'attributes.platform'"),
                    "\(dimension.stderr)")
            let cuts = try RemixProcess.run(["analyze", url, "--by", "day"])
            #expect(cuts.status == 1 && cuts.stderr.contains("--by is not available on an event store"), "\(cuts.stderr)")
            let mixed = try RemixProcess.run(["analyze", url, log])
            #expect(mixed.status == 1 && mixed.stderr.contains("must be the only log"), "\(mixed.stderr)")
        }
        try await Self.withOwnStore { url in
            let empty = try RemixProcess.run(["analyze", url])
            #expect(empty.status == 1 && empty.stderr.contains("there is no Remix event store"), "\(empty.stderr)")
            if let password = try StoreServer.url().password, !password.isEmpty {
                #expect(!empty.stderr.contains(password), "the password was printed")
            }
        }
        let refused = try RemixProcess.run(["analyze", "postgresql://remix@127.0.0.1:1/remix?connect_timeout=2"])
        #expect(refused.status == 1 && refused.stderr.contains("cannot connect"), "\(refused.stderr)")
    }
}
