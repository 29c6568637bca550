import Foundation
import RemixAnalysis
import RemixEventLog
import RemixExperiments
import RemixKit
import RemixSimulation

/// What a fitted population predicts for experiments it was not fitted on (`remix predict`): the
/// fit is simulated with the experiments, and so is each of its bootstrap replicates, each with a
/// seed of its own, so that each variation's metric comes with an interval that holds both the
/// fit's uncertainty and the simulation's noise.
package struct PopulationPrediction: Sendable {
    /// One metric of one variation.
    package struct Figure: Sendable {
        package var experiment: String
        package var variation: String
        package var metric: String
        /// `rate` for a share of units, else the metric's kind (mean, ratio, …).
        package var kind: String
        /// The fitted population's simulated value.
        package var value: Double
        /// The 95 % interval: the value ± 1.96 standard deviations of the replicates' values.
        package var low: Double
        package var high: Double
        package var units: Int
    }

    package var figures: [Figure]
    /// Screens the simulations showed that the fitted log never did (no persona names them), which
    /// got each persona's `default` chance to give up.
    package var unseenScreens: [String]
    package var replicates: Int
    package var users: Int

    /// Simulates `population` and each of `replicates` (`users` users each; seeds `seed`,
    /// `seed + 1`, …) through `experiments` into logs under `folder`, analyses each with
    /// `catalog`'s metrics and removes the logs.
    package static func run(population: Population, replicates: [Population], experiments: ExperimentSet,
                           catalog: MetricCatalog, registry: FeatureRegistry, users: Int, seed: UInt64, jobs: Int,
                           folder: String) throws -> PopulationPrediction {
        let definitions = Dictionary(experiments.definitions.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        func simulate(_ population: Population, seed: UInt64, name: String) throws -> AnalysisReport {
            let path = (folder as NSString).appendingPathComponent(name)
            let plan = SimulationPlan(app: population.app, users: users, seed: seed, jobs: jobs, shard: .whole,
                                      population: population, experiments: experiments, sources: [])
            let file = try JSONLinesFile(path: path, truncate: true)
            defer { try? FileManager.default.removeItem(atPath: path) }
            do {
                _ = try SimulationRunner(plan: plan, registry: registry, log: file).run()
                try file.close()
            } catch {
                try? file.close()
                throw error
            }
            var options = AnalysisOptions(logs: [path], definitions: definitions, jobs: jobs)
            options.catalog = catalog
            options.readExperimentFiles = true
            return try Analyzer.run(options)
        }
        let main = try simulate(population, seed: seed, name: "prediction.jsonl")
        let others = try replicates.enumerated().map { index, replicate in
            try simulate(replicate, seed: seed &+ UInt64(index) &+ 1, name: "replicate-\(index + 1).jsonl")
        }
        var figures: [Figure] = []
        var screens = Set<String>()
        for experiment in main.experiments {
            for variation in experiment.variations {
                screens.formUnion(variation.funnel.map(\.screen))
                for metric in variation.metrics {
                    let value = metric.type == "rate" ? metric.rate : metric.value
                    let samples = others.compactMap { report -> Double? in
                        guard let twin = report.experiments.first(where: { $0.key == experiment.key })?
                            .variations.first(where: { $0.key == variation.key })?.metrics.first(where: { $0.metric == metric.metric })
                        else { return nil }
                        return twin.type == "rate" ? twin.rate : twin.value
                    }
                    let spread = standardDeviation(samples)
                    figures.append(Figure(experiment: experiment.key, variation: variation.key, metric: metric.metric,
                                          kind: metric.type, value: value, low: value - 1.96 * spread, high: value + 1.96 * spread,
                                          units: variation.units))
                }
            }
        }
        let named = Set(population.personas.flatMap(\.abandon.keys))
        return PopulationPrediction(figures: figures, unseenScreens: screens.subtracting(named).sorted(),
                                    replicates: replicates.count, users: users)
    }

    private static func standardDeviation(_ values: [Double]) -> Double {
        guard values.count > 1 else { return 0 }
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)).squareRoot()
    }
}
