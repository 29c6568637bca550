import Foundation
import PostgresNIO
import RemixTestSupport
import Testing
@testable import RemixStore

/// `remix log copy`: a file into the store and back gives the same report; copying again stores
/// nothing twice; bad lines are skipped and named; names never become SQL.
@Suite(.enabled(if: StoreServer.shouldRun, StoreServer.skipReason))
struct LogCopyTests {
    /// The repository (for its experiments folder).
    static var root: URL { Repository.root }

    static func reportWithoutLog(_ path: String) throws -> NSDictionary {
        let result = try RemixProcess.run(["analyze", path, "--format", "json"], in: Self.root)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        return NSDictionary(dictionary: object.filter { $0.key != "log" })
    }

    @Test func aFileCopiedIntoTheStoreAndBackGivesTheSameReport() throws {
        let url = try StoreServer.urlText()
        let folder = try TemporaryFolder()
        let log = folder.path("events.jsonl"), back = folder.path("back.jsonl")
        let seed = StoreSimulationTests.uniqueSeed()
        #expect(try RemixProcess.run(["simulate", "--users", "300", "--seed", seed, "--no-report", "--log", log],
                                     in: Self.root).status == 0)
        let into = try RemixProcess.run(["log", "copy", log, url])
        #expect(into.status == 0, "\(into.stderr)")
        let run = try #require(Self.copyRun(into.stdout), "\(into.stdout)")
        let out = try RemixProcess.run(["log", "copy", url, back, "--run", String(run)])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(try Self.reportWithoutLog(back) == Self.reportWithoutLog(log))
        // A run id that is SQL text is only a value: nothing matches, nothing is dropped.
        let injected = try RemixProcess.run(["log", "copy", url, folder.path("none.jsonl"), "--run", "x'); drop table remix_events;--"])
        #expect(injected.status == 0 && injected.stdout.contains("copied 0 events"), "\(injected.stderr)")
        #expect(try RemixProcess.run(["log", "copy", url, folder.path("again.jsonl"), "--run", String(run)]).status == 0)
    }

    @Test func badLinesAreSkippedAndNamedAndNonsenseIsRefused() throws {
        let url = try StoreServer.urlText()
        let folder = try TemporaryFolder()
        let good = #"{"ts":"2026-11-23T09:00:00.000Z","type":"e","session":"s","user":"u\#(UUID().uuidString)"}"#
        let nul = #"{"ts":"2026-11-23T09:00:00.000Z","type":"e","session":"s","user":"u","title":"a\u0000b"}"#
        let log = try folder.write("mixed.jsonl", [good, "not json", #"{"ts":"yesterday","type":"e","user":"u"}"#, nul]
            .joined(separator: "\n"))
        let result = try RemixProcess.run(["log", "copy", log, url])
        #expect(result.status == 1)
        #expect(result.stdout.contains("copied 1 events"), "\(result.stdout)")
        #expect(result.stderr.contains("\(log):2: not a JSON object") && result.stderr.contains("\(log):3: \"ts\" yesterday"),
                "\(result.stderr)")
        #expect(result.stderr.contains("\(log):4: a NUL character (\\u0000)"), "\(result.stderr)")
        #expect(try RemixProcess.run(["log", "copy", log, folder.path("b.jsonl")]).stderr.contains("both are files"))
        #expect(try RemixProcess.run(["log", "copy", log, url, "--run", "x"]).status == 1)
    }

    /// The run a `log copy` into a store printed, when it stored one block.
    static func copyRun(_ stdout: String) -> String? {
        stdout.firstMatch(of: #/ as (copy-[0-9a-f]{16}): 1 blocks stored/#).map { String($0.1) }
    }

    /// Three events of a user of their own in a file, copied into the store at `url`.
    static func copyUniqueLog(into url: String) throws -> (folder: TemporaryFolder, log: String, user: String, run: String) {
        let user = "u" + UUID().uuidString
        let lines = (0..<3).map { #"{"ts":"2026-11-23T09:00:0\#($0).000Z","type":"e","session":"s","user":"\#(user)"}"# }
        let folder = try TemporaryFolder()
        let log = try folder.write("f.jsonl", lines.joined(separator: "\n") + "\n")
        let copied = try RemixProcess.run(["log", "copy", log, url])
        #expect(copied.status == 0, "\(copied.stderr)")
        return (folder, log, user, try #require(copyRun(copied.stdout), "\(copied.stdout)"))
    }

    /// Events of `user` in the store.
    static func storedEvents(of user: String) async throws -> Int {
        let store = try await PostgresStore.connect(try StoreServer.url())
        let count = try await store.rows(#"SELECT count(*)::integer FROM remix_events WHERE "user" = \#(user)"#, as: Int.self)
        await store.close()
        return count.first ?? -1
    }

    /// A file is known by its content: touched, or copied elsewhere, it is refused with the run it
    /// is stored as; `--again` stores it a second time on purpose, as a run of its own.
    @Test func aFileIsStoredOnceWhateverItsTimeOrPath() async throws {
        let url = try StoreServer.urlText()
        let (folder, log, user, run) = try Self.copyUniqueLog(into: url)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 3600)], ofItemAtPath: log)
        let elsewhere = try folder.write("elsewhere.jsonl", String(contentsOfFile: log, encoding: .utf8))
        for path in [log, elsewhere] {
            let again = try RemixProcess.run(["log", "copy", path, url])
            #expect(again.status == 1, "\(again.stdout)")
            #expect(again.stderr.contains("\(path) is already in the event store") && again.stderr.contains("as run \(run)")
                    && again.stderr.contains("add --again"), "\(again.stderr)")
        }
        #expect(try await Self.storedEvents(of: user) == 3)
        let forced = try RemixProcess.run(["log", "copy", log, url, "--again"])
        #expect(forced.status == 0, "\(forced.stderr)")
        let second = try #require(Self.copyRun(forced.stdout), "\(forced.stdout)")
        #expect(second != run)
        #expect(try await Self.storedEvents(of: user) == 6)
        #expect(try RemixProcess.run(["log", "copy", url, folder.path("out.jsonl"), "--again"]).status == 1)
    }

    /// A copy that stopped after its blocks and before its run record (written last) is not a
    /// copy yet: running it again completes it.
    @Test func aCopyThatStoppedHalfWayCompletesWhenRunAgain() async throws {
        let url = try StoreServer.urlText()
        let (folder, log, user, run) = try Self.copyUniqueLog(into: url)
        defer { withExtendedLifetime(folder) {} }
        let store = try await PostgresStore.connect(try StoreServer.url())
        try await store.run("DELETE FROM remix_runs WHERE run_id = \(run)")
        await store.close()
        let completed = try RemixProcess.run(["log", "copy", log, url])
        #expect(completed.status == 0, "\(completed.stderr)")
        #expect(completed.stdout.contains("as \(run): 0 blocks stored, 1 already stored"), "\(completed.stdout)")
        #expect(try await Self.storedEvents(of: user) == 3)
        #expect(try RemixProcess.run(["log", "copy", log, url]).status == 1, "now complete, so refused")
    }
}
