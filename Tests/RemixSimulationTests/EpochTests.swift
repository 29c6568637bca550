import Foundation
import RemixBuiltIns
import RemixEventLog
import RemixExperiments
import RemixKit
import RemixTestSupport
@testable import RemixSimulation
import Testing

/// A run with a controller goes epoch by epoch; each epoch simulates only the users visiting in it.
@Suite struct EpochTests {
    /// Boundaries every ten minutes from `zero`, `count` of them; decides nothing.
    final class EveryTenMinutes: VirtualTimeController {
        let zero: Int64
        let count: Int
        var passed = 0

        init(zero: Int64, count: Int) {
            self.zero = zero
            self.count = count
        }

        func nextBoundary() -> Int64? { passed < count ? zero + Int64(passed + 1) * 600_000 : nil }
        func observe(lines: [UInt8]) throws {}
        func decide(at boundary: Int64, experiments: ExperimentSet) throws -> ControllerDecision {
            passed += 1
            return ControllerDecision(events: [], experiments: experiments)
        }
        var stoppedAtLimit: [String] { [] }
    }

    /// 2 000 users 2 s apart (66 min of arrivals, returning users days later) in ten-minute epochs.
    private static func run(jobs: Int, to path: String) async throws -> (SimulationRunner, SimulationSummary, ExperimentSet, SimulationPlan) {
        let registry = try BuiltInModules.registry()
        let population = try Fixture.population()
        let experiments = try Fixture.experiments(registry: registry)
        let plan = SimulationPlan(app: population.app, users: 2_000, seed: 3, jobs: jobs, shard: .whole, population: population,
                                  experiments: experiments, sources: [])
        let log = try JSONLinesFile(path: path, truncate: true)
        let runner = SimulationRunner(plan: plan, registry: registry,
                                      controller: EveryTenMinutes(zero: population.startMilliseconds, count: 12))
        let summary = try await runner.run(into: AwaitedSink(log))
        try log.close()
        return (runner, summary, experiments, plan)
    }

    @Test func anEpochSimulatesOnlyTheUsersVisitingInIt() async throws {
        let folder = try TemporaryFolder()
        let (runner, summary, _, _) = try await Self.run(jobs: 2, to: folder.path("log.jsonl"))
        #expect(summary.users == 2_000)
        // Thirteen epochs of every user would be 26 000; each user simulated is one with a session in the epoch.
        #expect(runner.usersSimulated >= 2_000)
        #expect(runner.usersSimulated <= summary.sessions, "\(runner.usersSimulated) users simulated for \(summary.sessions) sessions")
    }

    @Test(arguments: [1, 4]) func theLogIsEveryUsersSessionsOfEachEpochInUserOrder(jobs: Int) async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("log.jsonl")
        let (_, _, _, plan) = try await Self.run(jobs: jobs, to: path)
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        // What walking every user in every epoch writes (the run record aside).
        let simulator = SessionSimulator(plan: plan, registry: try BuiltInModules.registry())
        let zero = plan.population.startMilliseconds
        let bounds = [Int64.min] + (1...12).map { zero + Int64($0) * 600_000 } + [Int64.max]
        var encoder = JSONLinesEncoder()
        for epoch in 0..<(bounds.count - 1) {
            for user in 0..<plan.users {
                var events: [LoggedEvent]?
                var tally = SessionTally()
                try simulator.simulate(user, within: bounds[epoch]..<bounds[epoch + 1], into: &encoder, events: &events, summary: &tally)
            }
        }
        let afterRunRecord = written.firstIndex(of: UInt8(ascii: "\n")).map { written.index(after: $0) } ?? 0
        #expect(Array(written[afterRunRecord...]) == encoder.bytes)
    }
}
