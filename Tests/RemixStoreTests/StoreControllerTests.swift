import Foundation
import PostgresNIO
import RemixEventLog
import RemixTestSupport
import Testing
@testable import RemixStore

/// A rollout followed into an event store: whole, and in shards that meet at each boundary there.
@Suite(.enabled(if: StoreServer.shouldRun, StoreServer.skipReason))
struct StoreControllerTests {
    /// A folder with a ramp of AutoGroupInsertion (half-hour steps), the shipped metrics and population.
    static func rolloutFolder(_ folder: TemporaryFolder) throws -> String {
        let experiments = folder.path("experiments")
        try FileManager.default.createDirectory(atPath: experiments, withIntermediateDirectories: true)
        let shipped = Repository.root.appendingPathComponent("experiments")
        for name in ["metrics.yaml", "population.yaml"] {
            try FileManager.default.copyItem(atPath: shipped.appendingPathComponent(name).path, toPath: experiments + "/" + name)
        }
        try """
            key: auto-rollout
            app: marketplace
            slot: insertion
            hashVersion: 2
            rollout:
              feature: AutoGroupInsertion
              steps: [0.1, 0.25, 0.5, 1.0]
              stepHours: 0.25
              guardrails: [cancelled, session-duration]
              signals: [published]
            """.write(toFile: experiments + "/auto-rollout.yaml", atomically: true, encoding: .utf8)
        return experiments
    }

    /// Each event (run records left out) as canonical text (``CanonicalEvent``), sorted: what a log
    /// holds, whatever its order, its key order and the form of its numbers.
    static func events(_ lines: [UInt8]) throws -> [String] {
        try lines.split(separator: UInt8(ascii: "\n")).compactMap { line -> String? in
            let event = try CanonicalEvent.value(line)
            guard case .object(let members) = event else { throw CanonicalEvent.NotAnObject() }
            return members["type"] == .string("run") ? nil : event.text
        }.sorted()
    }

    /// The events of `run` in the store, every shard's.
    static func stored(_ run: String, shards: Int) async throws -> [UInt8] {
        let store = try await PostgresStore.connect(try StoreServer.url())
        var lines: [UInt8] = []
        for shard in 1...shards { lines += try await store.lines(run: run, shard: shard, blocks: 0..<Int64.max) }
        await store.close()
        return lines
    }

    @Test func aRolloutIntoTheStoreHoldsTheFileRunsEvents() async throws {
        let url = try StoreServer.urlText()
        let folder = try TemporaryFolder()
        let common = ["simulate", "--experiments", try Self.rolloutFolder(folder), "--users", "1500",
                      "--seed", StoreSimulationTests.uniqueSeed(), "--no-report", "--jobs", "2"]
        let stored = try RemixProcess.run(common + ["--log", url])
        #expect(stored.status == 0, "\(stored.stderr)")
        let run = try #require(StoreSimulationTests.runID(stored.stdout))
        let file = folder.path("whole.jsonl")
        #expect(try RemixProcess.run(common + ["--log", file]).status == 0)
        let expected = try Self.events(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
        #expect(expected.filter { $0.contains("\"type\":\"rollout_decision\"") }.count >= 3)
        #expect(try Self.events(try await Self.stored(run, shards: 1)) == expected)
    }

    @Test func shardsMeetAtEachBoundaryAndTogetherHoldTheWholeRunsEvents() async throws {
        let url = try StoreServer.urlText()
        let folder = try TemporaryFolder()
        let common = ["simulate", "--experiments", try Self.rolloutFolder(folder), "--users", "1500",
                      "--seed", StoreSimulationTests.uniqueSeed(), "--no-report", "--jobs", "1"]
        let results = ResultList()
        let threads = (1...3).map { shard in
            Thread { results.append(try? RemixProcess.run(common + ["--shard", "\(shard)/3", "--log", url])) }
        }
        for thread in threads { thread.start() }
        let outcomes = results.wait(for: 3)
        #expect(outcomes.allSatisfy { $0?.status == 0 }, "\(outcomes.map { $0?.stderr ?? "no result" })")
        let runs = Set(outcomes.compactMap { $0.flatMap { StoreSimulationTests.runID($0.stdout) } })
        let run = try #require(runs.first)
        #expect(runs.count == 1)
        let file = folder.path("whole.jsonl")
        #expect(try RemixProcess.run(common + ["--log", file]).status == 0)
        let expected = try Self.events(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
        let decisions = expected.filter { $0.contains("\"type\":\"rollout_decision\"") }
        #expect(decisions.count >= 3)
        let merged = try Self.events(try await Self.stored(run, shards: 3))
        // Every event once, the decisions (stored by shard 1 alone) with the whole run's figures.
        #expect(merged.count == expected.count)
        #expect(merged == expected)
        #expect(merged.filter { $0.contains("\"type\":\"rollout_decision\"") } == decisions)
    }
}
