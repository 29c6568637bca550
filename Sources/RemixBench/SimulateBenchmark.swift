import ArgumentParser
import Foundation
import RemixBuiltIns
import RemixEventLog
import RemixExperiments
import RemixSimulation

/// `remix-bench simulate`: what `remix simulate --users N --jobs 1 --no-report` runs for each user —
/// the same population, experiments and runner writing the same log — without the command's
/// layers, so that CI's instruction gate (bench/instruction-gate) counts a session's instructions
/// with a release build of this tool alone, not of the CLI and the event store's PostgreSQL client.
struct SimulateBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Simulate users as `remix simulate --jobs 1` does, into a log (for instruction counts).")

    @Option(help: "Users to simulate.")
    var users: Int = 1_000

    @Option(help: "The experiments folder (its population.yaml is the population).")
    var experiments = "experiments"

    @Option(help: "The log to write (replaced).")
    var log = "events.jsonl"

    func validate() throws {
        guard users > 0 else { throw ValidationError("--users must be positive") }
    }

    func run() throws {
        let registry = try BuiltInModules.registry()
        let populationPath = (experiments as NSString).appendingPathComponent("population.yaml")
        let (loaded, problems) = PopulationFile.load(path: populationPath)
        guard let population = loaded else { throw ValidationError(problems.map(\.description).joined(separator: "\n")) }
        let validation = ExperimentValidation.run(paths: [experiments], registry: registry)
        guard validation.errorCount == 0 else { throw ValidationError(validation.diagnostics.map(\.description).joined(separator: "\n")) }
        let plan = SimulationPlan(app: population.app, users: users, seed: 1, jobs: 1, shard: .whole, population: population,
                                  experiments: validation.experiments, sources: [])
        let file = try JSONLinesFile(path: log, truncate: true)
        let summary = try SimulationRunner(plan: plan, registry: registry, log: file).run()
        try file.close()
        print("remix-bench simulate: \(summary.sessions) sessions of \(users) users into \(log)")
    }
}
