import Foundation
import RemixBuiltIns
import RemixHost
import RemixSimulation
import RemixTestSupport
import Synchronization
import Testing

/// The same seed and inputs give a byte-identical log, whatever the number of jobs, in-process and
/// through the binary.
@Suite struct DeterminismTests {
    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func sameSeedGivesByteIdenticalLogsForOneTwoAndThreeJobs() throws {
        let folder = try TemporaryFolder()
        let registry = try BuiltInModules.registry()
        let population = try Fixture.population()
        let experiments = try Fixture.experiments(registry: registry)
        // 600 sessions are three blocks of 256, so three workers really run side by side.
        var summaries: [SimulationSummary] = []
        for jobs in [1, 2, 3] {
            summaries.append(try Fixture.run(sessions: 600, seed: 7, jobs: jobs, population: population,
                                             experiments: experiments, registry: registry, to: folder.path("jobs\(jobs).jsonl")))
        }
        let one = try Self.bytes(folder.path("jobs1.jsonl"))
        #expect(one.count > 100_000)
        #expect(try Self.bytes(folder.path("jobs2.jsonl")) == one)
        #expect(try Self.bytes(folder.path("jobs3.jsonl")) == one)
        #expect(summaries.map(\.events) == Array(repeating: summaries[0].events, count: 3))
        #expect(summaries.map(\.intents) == Array(repeating: summaries[0].intents, count: 3))
        #expect(summaries.map(\.endScreens) == Array(repeating: summaries[0].endScreens, count: 3))
        #expect(try readLog(folder.path("jobs1.jsonl")).count == summaries[0].events)
    }

    /// Workers after the first simulate on their own registries (the modules loaded again), so
    /// that they share no feature descriptors or module data: each is made once, and the log is
    /// the one of a single worker on the shared registry. One that cannot be made leaves its
    /// worker on the shared registry, with the same log.
    @Test func workersOnTheirOwnRegistriesWriteTheSameLog() throws {
        let folder = try TemporaryFolder()
        let registry = try BuiltInModules.registry()
        let population = try Fixture.population()
        let experiments = try Fixture.experiments(registry: registry)
        try Fixture.run(sessions: 600, seed: 3, jobs: 1, population: population, experiments: experiments,
                        registry: registry, to: folder.path("one.jsonl"))
        let made = Mutex(0)
        try Fixture.run(sessions: 600, seed: 3, jobs: 3, population: population, experiments: experiments, registry: registry,
                        replica: { made.withLock { $0 += 1 }; return try BuiltInModules.registry() }, to: folder.path("replicas.jsonl"))
        #expect(made.withLock { $0 } == 2)
        try Fixture.run(sessions: 600, seed: 3, jobs: 3, population: population, experiments: experiments, registry: registry,
                        replica: { throw SimulationError.internalFailure("no replica") }, to: folder.path("failed.jsonl"))
        let one = try Self.bytes(folder.path("one.jsonl"))
        #expect(try Self.bytes(folder.path("replicas.jsonl")) == one)
        #expect(try Self.bytes(folder.path("failed.jsonl")) == one)
    }

    @Test func anotherSeedGivesAnotherLog() throws {
        let folder = try TemporaryFolder()
        try Fixture.run(sessions: 200, seed: 1, to: folder.path("a.jsonl"))
        try Fixture.run(sessions: 200, seed: 2, to: folder.path("b.jsonl"))
        let a = try readLog(folder.path("a.jsonl")), b = try readLog(folder.path("b.jsonl"))
        #expect(a.dropFirst().map(\.text) != b.dropFirst().map(\.text))
        #expect(b.dropFirst().allSatisfy { $0.session.hasPrefix("s2-") })
    }

    @Test func theBinaryIsDeterministicAcrossJobsAndMatchesTheRunner() async throws {
        let folder = try TemporaryFolder()
        for jobs in [1, 3] {
            let result = await Remix.run(["simulate", "--sessions", "600", "--seed", "5", "--jobs", "\(jobs)",
                                          "--log", folder.path("cli\(jobs).jsonl")])
            #expect(result.status == 0, "stderr: \(result.stderr)")
        }
        let cli = try Self.bytes(folder.path("cli1.jsonl"))
        #expect(try Self.bytes(folder.path("cli3.jsonl")) == cli)
        // The same plan run in-process, with the sources named as the CLI names them.
        let registry = try BuiltInModules.registry()
        let experiments = try Fixture.experiments(registry: registry)
        try Fixture.run(sessions: 600, seed: 5, jobs: 2, experiments: experiments,
                        sources: try Fixture.cliSources(experiments), registry: registry, to: folder.path("runner.jsonl"))
        #expect(try Self.bytes(folder.path("runner.jsonl")) == cli)
    }
}
