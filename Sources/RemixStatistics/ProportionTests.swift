import Foundation

/// What gbstats' tests read of a variation's statistic: its mean, variance and number of units.
package protocol TestStatistic: Sendable {
    var mean: Double { get }
    var variance: Double { get }
    var n: Double { get }
    /// The mean before any regression adjustment: the scale of relative effects.
    var unadjustedMean: Double { get }
    /// The tests cannot use this statistic (gbstats' `_has_zero_variance`).
    var hasZeroVariance: Bool { get }
}

extension TestStatistic {
    package var unadjustedMean: Double { mean }
    package var hasZeroVariance: Bool { variance <= 0 }
}

/// A binomial metric in one variation: `units` exposed, `conversions` of them converted.
package struct ProportionSample: TestStatistic, Equatable {
    package var units: Int
    package var conversions: Int

    package init(units: Int, conversions: Int) {
        self.units = units
        self.conversions = conversions
    }

    /// The conversion rate (0 without units), as gbstats' `ProportionStatistic.mean`.
    package var mean: Double { units == 0 ? 0 : Double(conversions) / Double(units) }
    /// p(1 − p), as gbstats' `ProportionStatistic.variance`.
    package var variance: Double { mean * (1 - mean) }
    package var n: Double { Double(units) }
}

/// gbstats' error messages for inputs a test cannot use.
package enum StatisticsMessage {
    package static let baselineZero = "ZERO_NEGATIVE_BASELINE_VARIATION"
    package static let zeroVariance = "ZERO_NEGATIVE_VARIANCE"
    package static let noUnits = "NO_UNITS_IN_VARIATION"

    /// A comparison's error in the words the reports use: gbstats' codes said, others as they are.
    package static func words(_ error: String) -> String {
        switch error {
        case zeroVariance: "no variance to test: the values do not vary"
        case noUnits: "no units in a variation to test"
        case baselineZero: "no lift to test: the baseline's figure is 0 or below"
        default: error
        }
    }
}

/// The sample-ratio-mismatch check: Pearson's χ² of the units per variation against the
/// expected split, as gbstats' `check_srm`.
package enum SampleRatio {
    package static func pValue(observed: [Int], weights: [Double]) -> Double {
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
package enum MultipleTesting {
    /// Holm–Bonferroni step-down: the i-th smallest of m is multiplied by m − i, running maximum.
    package static func holm(_ pValues: [Double]) -> [Double] {
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
    package static func benjaminiHochberg(_ pValues: [Double]) -> [Double] {
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
