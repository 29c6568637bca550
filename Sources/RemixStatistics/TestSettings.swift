/// How a comparison's effect is measured, as gbstats' `difference_type`.
package enum DifferenceType: String, Sendable, CaseIterable {
    /// (treatment − control) / control: the lift.
    case relative
    /// treatment − control, in the metric's own unit.
    case absolute
}

/// A proper Gaussian prior on the relative effect, as gbstats' `GaussianPrior(proper=True)` with
/// `prior_type="relative"`: with absolute differences it is rescaled by the baseline's mean.
package struct BayesianPrior: Sendable, Equatable {
    package var mean: Double
    package var standardDeviation: Double

    package init(mean: Double, standardDeviation: Double) {
        self.mean = mean
        self.standardDeviation = standardDeviation
    }
}

/// What the tests of a comparison are asked for: gbstats' `FrequentistConfig`, `SequentialConfig`
/// and `EffectBayesianConfig` in one.
package struct TestSettings: Sendable, Equatable {
    /// Significance level of the confidence and credible intervals.
    package var alpha: Double
    package var difference: DifferenceType
    /// With a value, gbstats' `SequentialTwoSidedTTest` with this tuning parameter replaces the
    /// fixed-horizon `TwoSidedTTest`.
    package var sequentialTuning: Double?
    /// Without one, gbstats' default flat (improper) prior.
    package var prior: BayesianPrior?
    /// The report's comparison of a zero baseline, on absolute differences: where gbstats stops at
    /// ZERO_NEGATIVE_BASELINE_VARIATION (or at ZERO_NEGATIVE_VARIANCE, as a baseline of all zeros
    /// has no variance), the tests run on, needing only that the difference has a variance.
    package var zeroBaseline = false

    package init(alpha: Double = 0.05, difference: DifferenceType = .relative, sequentialTuning: Double? = nil,
                prior: BayesianPrior? = nil) {
        self.alpha = alpha
        self.difference = difference
        self.sequentialTuning = sequentialTuning
        self.prior = prior
    }

    /// gbstats' default tuning parameter of the sequential test.
    package static let defaultSequentialTuning = 5000.0
}
