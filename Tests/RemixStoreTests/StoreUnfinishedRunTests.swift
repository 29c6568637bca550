import Foundation
import PostgresNIO
import RemixTestSupport
import Testing
@testable import RemixStore

/// A store holding part of a simulation run — a shard stopped after some of its blocks (killed,
/// or out of retries), or a shard never started — is analysed with a warning, in every format,
/// that names the run, the users stored of those it made, and `--resume`.
@Suite(.enabled(if: StoreServer.shouldRun, StoreServer.skipReason))
struct StoreUnfinishedRunTests {
    static var root: URL { Repository.root }

    /// Runs `sql` on the store at `url` (its scratch schema).
    static func execute(_ url: String, _ sql: String) async throws {
        let store = try await PostgresStore.connect(try StoreURL(parsing: url))
        do {
            try await store.run(PostgresQuery(unsafeSQL: sql))
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    @Test func aStoppedShardIsNamedWithTheResumeHintInEveryFormat() async throws {
        try await StoreAnalysisTests.withOwnStore { url in
            let folder = try TemporaryFolder()
            let simulate = ["simulate", "--users", "1000", "--seed", "8", "--no-report", "--log", url]
            #expect(try RemixProcess.run(simulate, in: Self.root).status == 0)
            let complete = try RemixProcess.run(["analyze", url, "--format", "json"], in: Self.root)
            #expect(complete.status == 0 && !complete.stdout.contains("--resume"), "a complete run: no warning")

            // What a simulate killed after its first two blocks (512 of 1,000 users) leaves.
            try await Self.execute(url, "DELETE FROM remix_events WHERE block >= 2")
            try await Self.execute(url, "DELETE FROM remix_blocks WHERE block >= 2")
            let says = ["the event store holds 512 of the 1,000 users of run run-", "(seed 8): shard 1/1 holds 512 of its 1,000 users",
                        "run the same remix simulate command with --resume"]
            let table = try RemixProcess.run(["analyze", url], in: Self.root)
            #expect(table.status == 0 && says.allSatisfy(ProcessResult.unwrapped(table.stdout).contains), "\(table.stdout)")
            let json = try RemixProcess.run(["analyze", url, "--format", "json"], in: Self.root)
            let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            let warnings = object?["warnings"] as? [String] ?? []
            #expect(warnings.contains { warning in says.allSatisfy(warning.contains) }, "\(warnings)")
            for format in ["markdown", "csv"] {
                let other = try RemixProcess.run(["analyze", url, "--format", format], in: Self.root)
                #expect(other.status == 0 && says.allSatisfy(ProcessResult.unwrapped(other.stdout + other.stderr).contains), "\(format): \(other.stderr)")
            }
            let page = folder.path("report.html")
            #expect(try RemixProcess.run(["analyze", url, "--format", "html", "--output", page], in: Self.root).status == 0)
            #expect(says.dropFirst().allSatisfy(try String(contentsOfFile: page, encoding: .utf8).contains))

            // --resume completes the run, and the warning is gone.
            let resumed = try RemixProcess.run(simulate + ["--resume"], in: Self.root)
            #expect(resumed.status == 0, "\(resumed.stderr)")
            #expect(!(try RemixProcess.run(["analyze", url], in: Self.root)).stdout.contains("--resume"))
        }
    }

    @Test func aShardThatNeverStartedIsNamed() async throws {
        try await StoreAnalysisTests.withOwnStore { url in
            let first = try RemixProcess.run(["simulate", "--users", "600", "--seed", "9", "--shard", "1/2", "--no-report", "--log", url],
                                             in: Self.root)
            #expect(first.status == 0, "\(first.stderr)")
            let report = try RemixProcess.run(["analyze", url], in: Self.root)
            let text = ProcessResult.unwrapped(report.stdout)
            #expect(text.contains("the event store holds 300 of the 600 users of run run-")
                    && text.contains("shard 2/2 has no run record (it has not started)"), "\(report.stdout)")
        }
    }
}
