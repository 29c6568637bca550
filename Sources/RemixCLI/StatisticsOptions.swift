import ArgumentParser
import RemixAnalysis
import RemixStatistics

/// How `remix analyze` tests each comparison: the effect's scale, sequential testing, the prior.
struct StatisticsOptions: ParsableArguments {
    @Option(help: "The effect reported: relative (lift, (treatment − control) / control) or absolute (treatment − control, in the metric's unit).")
    var difference: DifferenceType = .relative

    @Flag(help: "Sequential testing (GrowthBook's SequentialTwoSidedTTest): wider intervals and larger p-values that stay valid however often the results are looked at.")
    var sequential = false

    @Option(name: .customLong("sequential-tuning"), parsing: .unconditional,
            help: "With --sequential: the sample size (both arms together) the intervals are tightest for; at least 1 (default \(Int(TestSettings.defaultSequentialTuning)), as GrowthBook).")
    var sequentialTuning: Double?

    @Option(name: .customLong("prior-mean"), parsing: .unconditional,
            help: "A proper prior for chance to win, risk and the credible interval: its mean relative effect, e.g. 0 or 0.02 (default 0 when --prior-stddev is given; without either, a flat prior).")
    var priorMean: Double?

    @Option(name: .customLong("prior-stddev"), parsing: .unconditional,
            help: "The proper prior's standard deviation of the relative effect, above 0 (default 0.1, as GrowthBook, when --prior-mean is given).")
    var priorStddev: Double?

    /// GrowthBook's default proper prior: N(0, 0.1²) on the relative effect.
    static let defaultPrior = BayesianPrior(mean: 0, standardDeviation: 0.1)

    func validate() throws {
        if let sequentialTuning {
            guard sequential else { throw ValidationError("--sequential-tuning needs --sequential") }
            guard sequentialTuning.isFinite, sequentialTuning >= 1 else {
                throw ValidationError("--sequential-tuning must be a number of units, at least 1 (got \(sequentialTuning))")
            }
        }
        if let priorMean, !priorMean.isFinite { throw ValidationError("--prior-mean must be a finite number (got \(priorMean))") }
        if let priorStddev, !(priorStddev.isFinite && priorStddev > 0) {
            throw ValidationError("--prior-stddev must be a number above 0 (got \(priorStddev))")
        }
    }

    /// The tests' settings at significance level `alpha`.
    func settings(alpha: Double) -> TestSettings {
        let prior = priorMean == nil && priorStddev == nil ? nil
            : BayesianPrior(mean: priorMean ?? Self.defaultPrior.mean,
                            standardDeviation: priorStddev ?? Self.defaultPrior.standardDeviation)
        return TestSettings(alpha: alpha, difference: difference,
                            sequentialTuning: sequential ? sequentialTuning ?? TestSettings.defaultSequentialTuning : nil,
                            prior: prior)
    }
}

extension DifferenceType: ExpressibleByArgument {}
