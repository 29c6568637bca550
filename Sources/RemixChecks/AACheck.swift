import Foundation
import RemixAnalysis
import RemixExperiments
import RemixKit
import RemixSimulation

/// The A/A self-check: an experiment whose every variation gets the control's feature is
/// simulated and analysed many times end to end — assignment, features, log, analysis — and the
/// share of significant results must be consistent with α, the p-values uniform and sample-ratio
/// alarms rare. A pipeline that fails its own check exits 1.
package enum AACheck {
    /// What to check and how much.
    package struct Options: Sendable {
        package var experiment: String
        /// The metric tested (default: the experiment's primary metric).
        package var metric: String?
        package var runs = 200
        package var usersPerRun = 2000
        package var seed: UInt64 = 1
        package var alpha = 0.05
        package var sequentialTuning: Double?
        /// Look at each run this many times, at evenly spaced times from its first to its last
        /// exposure; a run is a false positive when any look is significant (1: only at the end).
        package var looks = 1
        package var jobs = ProcessInfo.processInfo.activeProcessorCount

        package init(experiment: String) { self.experiment = experiment }
    }

    /// One rule the check passes or fails on: the figure it reads and what that figure must satisfy.
    package struct Gate: Sendable, Equatable {
        /// The figure, e.g. `false positives  17 of 200 = 0.085, 99.9% interval 0.045–0.157`.
        package var figure: String
        /// What the figure must satisfy, e.g. `α = 0.05 lies in the interval` (for a figure that is
        /// not checked, why not).
        package var rule: String
        /// False for a figure that is shown but not checked (the sequential test's p-values).
        package var applies = true
        /// Whether the figure satisfies the rule.
        package var passed: Bool
    }

    /// What the runs showed.
    package struct Result: Sendable {
        package var runs: Int
        /// Runs whose first treatment-vs-control comparison was significant (unadjusted p < α).
        package var falsePositives: Int
        /// The false-positive rate's 99.9 % interval, which the check tests α against, so that a
        /// sound pipeline fails it about once in a thousand checks rather than once in twenty.
        package var gateInterval: ClosedRange<Double>
        package var srmAlarms: Int
        /// The sample-ratio alarm rate's 99.9 % interval.
        package var srmInterval: ClosedRange<Double>
        /// Kolmogorov–Smirnov distance of the p-values from uniform, and its p-value.
        package var ksDistance: Double
        package var ksPValue: Double
        package var pValues: [Double]
        /// The gates in the order reported: false positives, sample-ratio alarms, uniformity.
        package var gates: [Gate]

        package var falsePositiveRate: Double { runs > 0 ? Double(falsePositives) / Double(runs) : 0 }
        /// Why the check fails, one sentence per failed gate; empty when it passes.
        package var failures: [String] {
            gates.filter { $0.applies && !$0.passed }.map { "\($0.figure); gate: \($0.rule) — it does not" }
        }
        package var passed: Bool { failures.isEmpty }
    }

    /// The sample-ratio p-value below which the report flags a mismatch.
    static let srmThreshold = 0.001

    /// Runs the check: `population` and `experiments` as `remix simulate` reads them; `analyze`
    /// is the analysis (tests pass a broken one to see the check fail); `progress` gets runs done.
    package static func run(_ options: Options, population: Population, experiments: ExperimentSet, catalog: MetricCatalog,
                           registry: FeatureRegistry, replica: (() throws -> FeatureRegistry)? = nil, folder: String,
                           analyze: (AnalysisOptions) throws -> AnalysisReport = { try Analyzer.run($0) },
                           progress: (Int, Int) -> Void = { _, _ in }) throws -> Result {
        guard var definition = experiments.definition(key: options.experiment) else {
            throw CheckError("no experiment '\(options.experiment)' in the experiment files; known: "
                             + experiments.definitions.map(\.key).joined(separator: ", "))
        }
        guard let control = definition.variations.first, definition.variations.count >= 2 else {
            throw CheckError("\(options.experiment) needs at least two variations for an A/A check")
        }
        for index in definition.variations.indices {
            definition.variations[index].feature = control.feature
            definition.variations[index].parameters = control.parameters
        }
        let metric = try SimulatedRun.metric(options.metric, of: definition, registry: registry)
        let set = ExperimentSet(definitions: [definition], savedGroups: experiments.savedGroups)
        var runner = SimulatedRun(definition: definition, experiments: set, population: population, catalog: catalog,
                                  registry: registry, metric: metric, folder: folder, alpha: options.alpha,
                                  sequentialTuning: options.sequentialTuning, jobs: options.jobs)
        runner.workerRegistries = SimulationRunner.workerRegistries(jobs: options.jobs, registry: registry, replica: replica)
        var pValues: [Double] = [], falsePositives = 0, alarms = 0
        for run in 0..<options.runs {
            try runner.run(users: options.usersPerRun, seed: options.seed &+ UInt64(run), analyze: analyze) { experiment, analysis in
                let comparison = experiment.comparisons[0]
                pValues.append(comparison.error == nil ? comparison.pValue : 1)
                var significant = comparison.error == nil && comparison.pValue < options.alpha
                if options.looks > 1, let span = experiment.exposureSpan {
                    var early = analysis
                    for look in 1..<options.looks where !significant {
                        early.until = span.lowerBound + (span.upperBound - span.lowerBound) * Int64(look) / Int64(options.looks)
                        let comparison = try analyze(early).experiments.first?.comparisons.first
                        significant = comparison.map { $0.error == nil && $0.pValue < options.alpha } ?? false
                    }
                }
                if significant { falsePositives += 1 }
                if let srm = experiment.srmPValue, srm < srmThreshold { alarms += 1 }
            }
            progress(run + 1, options.runs)
        }
        return summarize(pValues: pValues, falsePositives: falsePositives, alarms: alarms, alpha: options.alpha,
                         peeking: options.looks > 1, sequential: options.sequentialTuning != nil)
    }

    /// The gates over the runs' results: α in the false-positive rate's 99.9 % interval, sample-ratio
    /// alarms not demonstrably above their threshold, uniform p-values (Kolmogorov–Smirnov p ≥ 0.001).
    /// With `peeking` (several looks per run) or a `sequential` test the false-positive rate must
    /// only stay at or below α, and the sequential test's p-values, conservative by design, are not
    /// tested for uniformity.
    static func summarize(pValues: [Double], falsePositives: Int, alarms: Int, alpha: Double, peeking: Bool = false,
                          sequential: Bool = false) -> Result {
        let atMost = peeking || sequential
        let runs = pValues.count
        let (distance, ksP) = KolmogorovSmirnov.uniform(pValues)
        let interval = Wilson.interval(falsePositives, of: runs, z: Wilson.gateZ)
        let srmInterval = Wilson.interval(alarms, of: runs, z: Wilson.gateZ)
        let rate = runs > 0 ? Double(falsePositives) / Double(runs) : 0
        let gates = [
            Gate(figure: String(format: "false positives  %d of %d = %.3f, 99.9%% interval %.3f–%.3f",
                                falsePositives, runs, rate, interval.lowerBound, interval.upperBound),
                 rule: atMost ? String(format: "the interval's lower end is at most α = %g", alpha)
                     : String(format: "α = %g lies in the interval", alpha),
                 passed: atMost ? interval.lowerBound <= alpha : interval.contains(alpha)),
            Gate(figure: String(format: "SRM alarms       %d of %d (p < %g), 99.9%% interval %.3f–%.3f",
                                alarms, runs, srmThreshold, srmInterval.lowerBound, srmInterval.upperBound),
                 rule: String(format: "the interval's lower end is at most %g", srmThreshold),
                 passed: srmInterval.lowerBound <= srmThreshold),
            Gate(figure: String(format: "p-values uniform Kolmogorov–Smirnov D = %.3f, p = %.3g", distance, ksP),
                 rule: sequential ? "sequential p-values are conservative by design" : "p ≥ 0.001",
                 applies: !sequential, passed: ksP >= 0.001),
        ]
        return Result(runs: runs, falsePositives: falsePositives, gateInterval: interval, srmAlarms: alarms,
                      srmInterval: srmInterval, ksDistance: distance, ksPValue: ksP, pValues: pValues, gates: gates)
    }
}

/// A check that could not run.
package struct CheckError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}

/// The Wilson score interval of a binomial proportion (95 % unless `z` says otherwise).
enum Wilson {
    /// z for a two-sided 99.9 % interval.
    static let gateZ = 3.290526731491926

    static func interval(_ successes: Int, of trials: Int, z: Double = 1.959963984540054) -> ClosedRange<Double> {
        guard trials > 0 else { return 0...1 }
        let n = Double(trials), p = Double(successes) / n
        let centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        let half = z / (1 + z * z / n) * (p * (1 - p) / n + z * z / (4 * n * n)).squareRoot()
        return max(0, centre - half)...min(1, centre + half)
    }
}

/// The one-sample Kolmogorov–Smirnov test against the uniform distribution on [0, 1].
enum KolmogorovSmirnov {
    /// The distance D and its asymptotic p-value (Kolmogorov's series at √n·D, with Stephens'
    /// small-sample correction √n + 0.12 + 0.11/√n).
    static func uniform(_ values: [Double]) -> (distance: Double, pValue: Double) {
        let sorted = values.sorted(), n = Double(values.count)
        guard !sorted.isEmpty else { return (0, 1) }
        var distance = 0.0
        for (index, value) in sorted.enumerated() {
            distance = max(distance, Double(index + 1) / n - value, value - Double(index) / n)
        }
        let lambda = (n.squareRoot() + 0.12 + 0.11 / n.squareRoot()) * distance
        var sum = 0.0
        for k in 1...100 {
            let term = 2 * (k % 2 == 1 ? 1.0 : -1.0) * exp(-2 * Double(k * k) * lambda * lambda)
            sum += term
            if abs(term) < 1e-12 { break }
        }
        return (distance, min(max(sum, 0), 1))
    }
}
