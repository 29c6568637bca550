import Foundation
import PostgresNIO
import RemixTestSupport
import Testing
@testable import RemixStore

/// `remix simulate --log postgresql://…`: the run lands in the store exactly as in a file — once,
/// from several processes at once, and through a server restart.
@Suite(.enabled(if: StoreServer.shouldRun, StoreServer.skipReason))
struct StoreSimulationTests {
    /// A seed no other test uses, so its run is this test's alone in the shared database.
    static func uniqueSeed() -> String { String(UInt32.random(in: 1_000_000...4_000_000_000)) }

    /// The run id `simulate` printed (its line may be wrapped at the width).
    static func runID(_ stdout: String) -> String? {
        stdout.firstMatch(of: #/\sas\s+(run-[0-9a-f]{16})\s/#).map { String($0.1) }
    }

    /// Events per type of `run` in the store.
    static func storedTypes(_ run: String) async throws -> [String: Int] {
        let store = try await PostgresStore.connect(try StoreServer.url())
        defer { Task { await store.close() } }
        let rows = try await store.rows("""
            SELECT type || '=' || count(*)::text FROM remix_events WHERE run_id = \(run) GROUP BY type
            """, as: String.self)
        return Dictionary(uniqueKeysWithValues: rows.map { row in
            let parts = row.split(separator: "=")
            return (String(parts[0]), Int(parts[1]) ?? -1)
        })
    }

    /// Events per type of a JSON Lines log, run records left out.
    static func fileTypes(_ path: String) throws -> [String: Int] {
        var types: [String: Int] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            guard let type = line.firstMatch(of: #/"type":"([^"]+)"/#)?.1, type != "run" else { continue }
            types[String(type), default: 0] += 1
        }
        return types
    }

    @Test func aRunInTheStoreHoldsWhatTheFileHoldsAndIsNeverWrittenTwice() async throws {
        let url = try StoreServer.urlText()
        let folder = try TemporaryFolder()
        let seed = Self.uniqueSeed()
        let common = ["simulate", "--users", "600", "--seed", seed, "--no-report"]
        let stored = try RemixProcess.run(common + ["--log", url])
        #expect(stored.status == 0, "\(stored.stderr)")
        #expect(stored.stdout.contains("3 blocks stored"), "\(stored.stdout)")
        #expect(!stored.stdout.contains(":\(URLComponents(string: url)?.password ?? "nothing")@"), "no password printed")
        let run = try #require(Self.runID(stored.stdout))
        let file = folder.path("events.jsonl")
        #expect(try RemixProcess.run(common + ["--log", file]).status == 0)
        let expected = try Self.fileTypes(file)
        #expect(expected.values.reduce(0, +) > 6000)
        #expect(try await Self.storedTypes(run) == expected)
        // The same command again is refused; with --resume it finds every block stored.
        let again = try RemixProcess.run(common + ["--log", url])
        #expect(again.status == 1)
        #expect(again.stderr.contains("already holds 600 users of this run (\(run), shard 1/1); add --resume"), "\(again.stderr)")
        let resumed = try RemixProcess.run(common + ["--log", url, "--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("0 blocks stored, 3 already stored"), "\(resumed.stdout)")
        #expect(try await Self.storedTypes(run) == expected)
    }

    @Test func shardsFromSeveralProcessesAtOnceHoldExactlyTheFullRun() async throws {
        let url = try StoreServer.urlText()
        let folder = try TemporaryFolder()
        let seed = Self.uniqueSeed()
        let common = ["simulate", "--users", "900", "--seed", seed, "--no-report", "--jobs", "1"]
        let results = ResultList()
        let threads = (1...3).map { shard in
            Thread { results.append(try? RemixProcess.run(common + ["--shard", "\(shard)/3", "--log", url])) }
        }
        for thread in threads { thread.start() }
        let outcomes = results.wait(for: 3)
        #expect(outcomes.allSatisfy { $0?.status == 0 }, "\(outcomes.map { $0?.stderr ?? "no result" })")
        let runs = Set(outcomes.compactMap { $0.flatMap { Self.runID($0.stdout) } })
        #expect(runs.count == 1, "the shards are one run: \(runs)")
        let run = try #require(runs.first)
        let file = folder.path("full.jsonl")
        #expect(try RemixProcess.run(common + ["--log", file]).status == 0)
        #expect(try await Self.storedTypes(run) == Self.fileTypes(file))
        let store = try await PostgresStore.connect(try StoreServer.url())
        let shards = try await store.rows("SELECT shard FROM remix_runs WHERE run_id = \(run) ORDER BY shard", as: Int.self)
        await store.close()
        #expect(shards == [1, 2, 3])
    }

    /// Without --no-report, the run ends by saying how to report on the store (analysis in SQL is built).
    @Test func aRunIntoTheStoreSaysHowToAnalyseIt() throws {
        let url = try StoreServer.urlText()
        let result = try RemixProcess.run(["simulate", "--users", "5", "--seed", Self.uniqueSeed(), "--log", url, "--wide"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("`remix analyze` with the same URL reports on all it holds"), "\(result.stderr)")
        #expect(!result.stderr.contains("not built yet"), "\(result.stderr)")
    }

    @Test func storeOptionsThatMakeNoSenseAreRefused() throws {
        let url = try StoreServer.urlText()
        let append = try RemixProcess.run(["simulate", "--users", "5", "--log", url, "--append"])
        #expect(append.status == 1)
        #expect(append.stderr.contains("--append is for files"))
        let resume = try RemixProcess.run(["simulate", "--users", "5", "--log", "/tmp/x.jsonl", "--resume"])
        #expect(resume.status == 1)
        #expect(resume.stderr.contains("--resume completes a run in an event store"))
        let retry = try RemixProcess.run(["simulate", "--users", "5", "--log", url, "--retry-seconds", "-1"])
        #expect(retry.status == 1)
        #expect(retry.stderr.contains("--retry-seconds must be 0 or more"))
    }
}

/// Results handed back by threads, in the order they finish.
/// Unchecked `Sendable`: `results` is read and written only while holding `condition`.
final class ResultList: @unchecked Sendable {
    private let condition = NSCondition()
    private var results: [ProcessResult?] = []

    func append(_ result: ProcessResult?) {
        condition.lock()
        results.append(result)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `count` results are in.
    func wait(for count: Int) -> [ProcessResult?] {
        condition.lock()
        defer { condition.unlock() }
        while results.count < count { condition.wait() }
        return results
    }
}
