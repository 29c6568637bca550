import Foundation
import RemixAnalysis
import RemixEventLog
import RemixExperiments
import RemixFiles
import RemixKit
import RemixSimulation

/// One simulated run of an experiment, analysed: `users` users with `seed` through the real
/// features into a temporary log (deleted after), then the analysis of its first comparison.
struct SimulatedRun {
    let definition: ExperimentDefinition
    let experiments: ExperimentSet
    let population: Population
    let catalog: MetricCatalog
    let registry: FeatureRegistry
    let metric: String
    let folder: String
    let alpha: Double
    let sequentialTuning: Double?
    let jobs: Int
    /// The registries of the simulating workers after the first, made once for all the runs
    /// (``SimulationRunner/workerRegistries(jobs:registry:replica:)``); empty: they share `registry`.
    var workerRegistries: [FeatureRegistry] = []

    /// The metric a check tests: `given`, else the experiment's primary metric, else its app's
    /// default metric (`AppDefinition.defaultMetric`).
    static func metric(_ given: String?, of definition: ExperimentDefinition, registry: FeatureRegistry) throws -> String {
        if let metric = given ?? definition.metrics.primary ?? (try? registry.app(named: definition.app))?.defaultMetric {
            return metric
        }
        throw CheckError("\(definition.key) names no primary metric and its app '\(definition.app)' no default metric; give --metric")
    }

    /// The analysis options of the log at `path` (for looks at earlier cuts too).
    func analysis(of path: String) -> AnalysisOptions {
        var options = AnalysisOptions(logs: [path], definitions: [definition.key: definition], experiment: definition.key,
                                      metrics: [metric], alpha: alpha, correction: .none, jobs: jobs)
        options.catalog = catalog
        options.sequentialTuning = sequentialTuning
        return options
    }

    /// Simulates and analyses one run; `body` gets the experiment's report and the log's
    /// analysis options while the log still exists.
    func run<T>(users: Int, seed: UInt64, analyze: (AnalysisOptions) throws -> AnalysisReport,
                _ body: (AnalysisReport.Experiment, AnalysisOptions) throws -> T) throws -> T {
        // Named apart from every other run's, also one with the same seed and users in this process
        // (two checks at once in one process removed each other's logs).
        let path = (folder as NSString).appendingPathComponent("run-\(seed)-\(users)-\(UUID().uuidString).jsonl")
        // A stop signal removes it too, so an interrupted check leaves no log of its own behind.
        let removal = StopSignals.shared.onStop("its temporary log was removed") { try? FileManager.default.removeItem(atPath: path) }
        defer {
            try? FileManager.default.removeItem(atPath: path)
            StopSignals.shared.remove(removal)
        }
        let plan = SimulationPlan(app: definition.app, users: users, seed: seed, jobs: jobs, shard: .whole,
                                  population: population, experiments: experiments, sources: [])
        let file = try JSONLinesFile(path: path, truncate: true)
        _ = try SimulationRunner(plan: plan, registry: registry, log: file, workerRegistries: workerRegistries).run()
        try file.close()
        let options = analysis(of: path)
        guard let experiment = try analyze(options).experiments.first, !experiment.comparisons.isEmpty else {
            throw CheckError("the run of \(users) users (seed \(seed)) exposed no units to \(definition.key); give more users")
        }
        return try body(experiment, options)
    }
}
