import Foundation

/// What gbstats' tests read of a variation's statistic: its mean, variance and number of units.
protocol TestStatistic: Sendable {
    var mean: Double { get }
    var variance: Double { get }
    var n: Double { get }
}

/// A binomial metric in one variation: `units` exposed, `conversions` of them converted.
struct ProportionSample: TestStatistic, Equatable {
    var units: Int
    var conversions: Int

    init(units: Int, conversions: Int) {
        self.units = units
        self.conversions = conversions
    }

    /// The conversion rate (0 without units), as gbstats' `ProportionStatistic.mean`.
    var mean: Double { units == 0 ? 0 : Double(conversions) / Double(units) }
    /// p(1 − p), as gbstats' `ProportionStatistic.variance`.
    var variance: Double { mean * (1 - mean) }
    var n: Double { Double(units) }
}

/// gbstats' error messages for inputs a test cannot use.
enum StatisticsMessage {
    static let baselineZero = "ZERO_NEGATIVE_BASELINE_VARIATION"
    static let zeroVariance = "ZERO_NEGATIVE_VARIANCE"
    static let noUnits = "NO_UNITS_IN_VARIATION"
}

/// The relative effect and its delta-method variance, as gbstats' `frequentist_diff` and
/// `frequentist_variance` with `relative=True`.
enum RelativeEffect {
    static func mean<S: TestStatistic>(_ control: S, _ treatment: S) -> Double {
        (treatment.mean - control.mean) / control.mean
    }

    static func variance<S: TestStatistic>(_ control: S, _ treatment: S) -> Double {
        let meanA = control.mean, meanB = treatment.mean
        return treatment.variance / (pow(meanA, 2) * treatment.n)
            + control.variance * pow(meanB, 2) / (pow(meanA, 4) * control.n)
    }
}

/// A frequentist comparison: relative lift, its confidence interval and two-sided p-value.
struct FrequentistResult: Sendable {
    var expected: Double
    var ci: (lower: Double, upper: Double)
    var pValue: Double
    /// The standard error of `expected` (gbstats' `uplift.stddev`).
    var standardError: Double
    var error: String?
}

/// gbstats' `TwoSidedTTest` (Welch, relative difference, no CUPED, not sequential).
enum FrequentistTest {
    static func twoSided<S: TestStatistic>(control: S, treatment: S, alpha: Double) -> FrequentistResult {
        if control.mean == 0 { return uninformative(StatisticsMessage.baselineZero) }
        if control.variance <= 0 || treatment.variance <= 0 { return uninformative(StatisticsMessage.zeroVariance) }
        let expected = RelativeEffect.mean(control, treatment)
        let variance = RelativeEffect.variance(control, treatment)
        let standardError = variance.squareRoot()
        let dof = pow(treatment.variance / treatment.n + control.variance / control.n, 2)
            / (pow(treatment.variance, 2) / (pow(treatment.n, 2) * (treatment.n - 1))
               + pow(control.variance, 2) / (pow(control.n, 2) * (control.n - 1)))
        let critical = expected / standardError
        let pValue = 2 * (1 - StudentT.cdf(abs(critical), dof))
        let width = StudentT.quantile(1 - alpha / 2, dof) * standardError
        return FrequentistResult(expected: expected, ci: (expected - width, expected + width), pValue: pValue,
                                 standardError: standardError, error: nil)
    }

    private static func uninformative(_ message: String) -> FrequentistResult {
        FrequentistResult(expected: 0, ci: (0, 0), pValue: 1, standardError: 0, error: message)
    }
}

/// A Bayesian comparison: chance that the treatment beats the control, and the expected loss of
/// choosing each.
struct BayesianResult: Sendable {
    var chanceToWin: Double
    /// [risk of choosing the control, risk of choosing the treatment], relative.
    var risk: [Double]
    var expected: Double
    var error: String?
}

/// gbstats' `EffectBayesianABTest` with its default flat (improper) prior and relative effects.
enum BayesianTest {
    static func effect<S: TestStatistic>(control: S, treatment: S, alpha _: Double) -> BayesianResult {
        if control.mean == 0 { return uninformative(StatisticsMessage.baselineZero) }
        if control.n == 0 || treatment.n == 0 { return uninformative(StatisticsMessage.noUnits) }
        if control.variance <= 0 || treatment.variance <= 0 { return uninformative(StatisticsMessage.zeroVariance) }
        let mean = RelativeEffect.mean(control, treatment)
        // With an improper prior the posterior precision is the data's: sqrt(1 / (1 / variance)).
        let sigma = (1 / (1 / RelativeEffect.variance(control, treatment))).squareRoot()
        let chanceToWin = Normal.cdf(mean / sigma)
        let controlBetter = Normal.cdf(-mean / sigma)
        let below = Normal.truncatedMean(mu: mean, sigma: sigma, lower: -.infinity, upper: 0)
        let above = Normal.truncatedMean(mu: mean, sigma: sigma, lower: 0, upper: .infinity)
        return BayesianResult(chanceToWin: chanceToWin, risk: [(1 - controlBetter) * above, -(controlBetter * below)],
                              expected: mean, error: nil)
    }

    private static func uninformative(_ message: String) -> BayesianResult {
        BayesianResult(chanceToWin: 0.5, risk: [0, 0], expected: 0, error: message)
    }
}

/// The sample-ratio-mismatch check: Pearson's χ² of the units per variation against the
/// expected split, as gbstats' `check_srm`.
enum SampleRatio {
    static func pValue(observed: [Int], weights: [Double]) -> Double {
        let total = Double(observed.reduce(0, +))
        guard total > 0 else { return 1 }
        let totalWeight = weights.reduce(0, +)
        var statistic = 0.0
        for (index, count) in observed.enumerated() where weights[index] > 0 {
            let expected = weights[index] / totalWeight * total
            statistic += pow(Double(count) - expected, 2) / expected
        }
        return IncompleteGamma.upper(Double(observed.count - 1) / 2, statistic / 2)
    }
}

/// Adjusted p-values for many comparisons, in the input order.
enum MultipleTesting {
    /// Holm–Bonferroni step-down: the i-th smallest of m is multiplied by m − i, running maximum.
    static func holm(_ pValues: [Double]) -> [Double] {
        let order = pValues.indices.sorted { pValues[$0] < pValues[$1] }
        var adjusted = pValues
        var running = 0.0
        for (rank, index) in order.enumerated() {
            running = max(running, min(1, Double(pValues.count - rank) * pValues[index]))
            adjusted[index] = running
        }
        return adjusted
    }

    /// Benjamini–Hochberg step-up: the i-th smallest of m is multiplied by m / i, running minimum
    /// from the largest.
    static func benjaminiHochberg(_ pValues: [Double]) -> [Double] {
        let order = pValues.indices.sorted { pValues[$0] < pValues[$1] }
        var adjusted = pValues
        var running = 1.0
        for (rank, index) in order.enumerated().reversed() {
            running = min(running, Double(pValues.count) / Double(rank + 1) * pValues[index])
            adjusted[index] = min(1, running)
        }
        return adjusted
    }
}
