import Foundation
import RemixAnalysis
import RemixExperiments
import RemixKit
import RemixSimulation
import RemixStatistics

/// Measured power: an experiment simulated many times at each size, through the real features and
/// the population's effects (docs/simulation.md), with the share of runs whose first comparison is
/// significant beside the analytic power of the lift and variance the runs showed.
package enum PowerSimulation {
    package struct Options: Sendable {
        package var experiment: String
        package var metric: String?
        /// Users per run, one row each.
        package var sizes: [Int]
        package var runs = 50
        package var seed: UInt64 = 1
        package var alpha = 0.05
        package var sequentialTuning: Double?
        package var jobs = ProcessInfo.processInfo.activeProcessorCount

        package init(experiment: String, sizes: [Int]) {
            self.experiment = experiment
            self.sizes = sizes
        }
    }

    /// One size's result.
    package struct Row: Sendable {
        package var users: Int
        package var runs: Int
        /// The mean over runs of the smaller arm's units (control or first treatment).
        package var unitsPerVariation: Double
        package var significant: Int
        package var measuredInterval: ClosedRange<Double>
        /// The mean relative lift of the first treatment over the runs, and the analytic power of
        /// that lift with the control's mean and per-unit variance.
        package var meanLift: Double
        package var analyticPower: Double

        package var measuredPower: Double { runs > 0 ? Double(significant) / Double(runs) : 0 }
    }

    /// Runs `options.runs` simulations per size (seeds `seed` + i, the same for every size).
    package static func run(_ options: Options, population: Population, experiments: ExperimentSet, catalog: MetricCatalog,
                           registry: FeatureRegistry, replica: (() throws -> FeatureRegistry)? = nil, folder: String,
                           progress: (Int, Int) -> Void = { _, _ in }) throws -> [Row] {
        guard let definition = experiments.definition(key: options.experiment) else {
            throw CheckError("no experiment '\(options.experiment)' in the experiment files; known: "
                             + experiments.definitions.map(\.key).joined(separator: ", "))
        }
        var runner = SimulatedRun(definition: definition, experiments: experiments, population: population, catalog: catalog,
                                  registry: registry, metric: try SimulatedRun.metric(options.metric, of: definition, registry: registry),
                                  folder: folder, alpha: options.alpha, sequentialTuning: options.sequentialTuning, jobs: options.jobs)
        runner.workerRegistries = SimulationRunner.workerRegistries(jobs: options.jobs, registry: registry, replica: replica)
        var rows: [Row] = []
        var done = 0
        for users in options.sizes {
            var significant = 0, units = 0.0, lifts = 0.0, means = 0.0, variances = 0.0
            for run in 0..<options.runs {
                try runner.run(users: users, seed: options.seed &+ UInt64(run), analyze: { try Analyzer.run($0) }) { experiment, _ in
                    let comparison = experiment.comparisons[0]
                    if comparison.error == nil, comparison.pValue < options.alpha { significant += 1 }
                    let control = experiment.variations[0], treatment = experiment.variations[1]
                    units += Double(min(control.units, treatment.units))
                    lifts += comparison.error == nil && !comparison.liftUndefined ? comparison.expected : 0
                    means += control.metrics[0].value
                    variances += control.metrics[0].unitVariance
                }
                done += 1
                progress(done, options.sizes.count * options.runs)
            }
            let count = Double(options.runs)
            let settings = PowerSettings(mean: means / count, variance: variances / count, alpha: options.alpha,
                                         sequentialTuning: options.sequentialTuning)
            rows.append(Row(users: users, runs: options.runs, unitsPerVariation: units / count, significant: significant,
                            measuredInterval: Wilson.interval(significant, of: options.runs), meanLift: lifts / count,
                            analyticPower: PowerAnalysis.power(effect: lifts / count, units: units / count, settings)))
        }
        return rows
    }
}
