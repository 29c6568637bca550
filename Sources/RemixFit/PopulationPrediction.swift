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
        /// The 95 % interval (``interval(value:replicates:isShare:units:)``).
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
                    let (low, high) = interval(value: value, replicates: samples, isShare: metric.type == "rate", units: variation.units)
                    figures.append(Figure(experiment: experiment.key, variation: variation.key, metric: metric.metric,
                                          kind: metric.type, value: value, low: low, high: high, units: variation.units))
                }
            }
        }
        let named = Set(population.personas.flatMap(\.abandon.keys))
        return PopulationPrediction(figures: figures, unseenScreens: screens.subtracting(named).sorted(),
                                    replicates: replicates.count, users: users)
    }

    /// The 95 % interval of `value` from the replicates' values of the same figure: the value ±
    /// 1.96 standard deviations of theirs — for a share of `units` units on the logit scale, so
    /// that it stays within 0–1 (a share of 0 or 1 is moved half a unit in first, as the empirical
    /// logit does, and the interval always holds the value).
    static func interval(value: Double, replicates: [Double], isShare: Bool, units: Int) -> (low: Double, high: Double) {
        guard isShare else {
            let spread = standardDeviation(replicates)
            return (value - 1.96 * spread, value + 1.96 * spread)
        }
        let n = Double(max(units, 1))
        func logit(_ share: Double) -> Double {
            let kept = share > 0 && share < 1 ? share : (min(max(share, 0), 1) * n + 0.5) / (n + 1)
            return log(kept / (1 - kept))
        }
        func share(_ logit: Double) -> Double { 1 / (1 + exp(-logit)) }
        let spread = standardDeviation(replicates.map(logit))
        let center = logit(value)
        let low = value <= 0 ? 0 : share(center - 1.96 * spread)
        let high = value >= 1 ? 1 : share(center + 1.96 * spread)
        return (min(low, value), max(high, value))
    }

    private static func standardDeviation(_ values: [Double]) -> Double {
        guard values.count > 1 else { return 0 }
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)).squareRoot()
    }
}
