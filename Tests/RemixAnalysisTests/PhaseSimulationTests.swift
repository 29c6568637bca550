import Foundation
@testable import RemixAnalysis
import RemixBuiltIns
import RemixEventLog
import RemixExperiments
import RemixSimulation
import Testing

/// Returning simulated users crossing a phase boundary (bench/phases' files, fewer users): the new
/// phase re-randomises them by its weights, as GrowthBook does without sticky bucketing. The
/// numbers themselves are measured by bench/phases and shown in docs/experiments.md; this pins
/// their direction.
@Suite struct PhaseSimulationTests {
    static var data: URL { AnalysisFixture.repository.appendingPathComponent("bench/phases-data") }

    /// A simulated log of `users` users through navigation-reweight.yaml, with its definition.
    static func simulate(users: Int, jobs: Int) throws -> (log: String, definition: ExperimentDefinition) {
        let (population, problems) = PopulationFile.load(path: data.appendingPathComponent("groupbrowser.population.yaml").path)
        #expect(problems.isEmpty)
        let (set, setProblems) = ExperimentSet.load(paths: [data.appendingPathComponent("navigation-reweight.yaml").path])
        #expect(setProblems.isEmpty)
        let plan = SimulationPlan(app: "groupbrowser", users: users, seed: 3, jobs: jobs, shard: .whole,
                                  population: try #require(population), experiments: set, sources: [])
        let path = try AnalysisFixture.folder().appendingPathComponent("phases.jsonl").path
        let file = try JSONLinesFile(path: path, truncate: true)
        _ = try SimulationRunner(plan: plan, registry: try BuiltInModules.registry(), log: file).run()
        try file.close()
        return (path, try #require(set.definitions.first))
    }

    static func report(_ log: String, _ definition: ExperimentDefinition, _ phase: PhaseSelection) throws -> AnalysisReport.Experiment {
        var options = AnalysisOptions(logs: [log], definitions: [definition.key: definition], jobs: 2)
        options.phase = phase
        return try #require(try Analyzer.run(options).experiments.first)
    }

    @Test func returningUsersAreReRandomisedAndEachPhaseSplitsAsItsWeightsSay() throws {
        let (log, definition) = try Self.simulate(users: 1500, jobs: 2)
        let latest = try Self.report(log, definition, .latest)
        #expect(latest.phase == .number(1) && latest.phases.map(\.phase) == [0, 1])
        // Users do switch: the same hash, new ranges (tree [0, 0.2), search [0.2, 1)).
        #expect(latest.unitsInSeveralPhases > 100)
        #expect(latest.unitsSwitchingVariation > 0 && latest.unitsSwitchingVariation < latest.unitsInSeveralPhases)
        // Each phase's split is honest against its own weights.
        for split in latest.phases {
            #expect((split.srmPValue ?? 0) > 0.001, "phase \(split.phase): \(split.units)")
        }
        #expect(latest.phases[0].weights == [0.5, 0.5] && latest.phases[1].weights == [0.2, 0.8])
        // Across phases, those who switched saw both variations and are left out.
        let all = try Self.report(log, definition, .all)
        #expect(all.multipleExposureUnits == latest.unitsSwitchingVariation)
        // The same run with one thread logs the same bytes.
        let (single, _) = try Self.simulate(users: 1500, jobs: 1)
        #expect(FileManager.default.contentsEqual(atPath: log, andPath: single))
    }
}
