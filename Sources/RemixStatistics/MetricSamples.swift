import Foundation

/// Per-unit values of a mean metric in one variation: gbstats' `SampleMeanStatistic` from the
/// number of units, the sum of their values and the sum of their squares.
package struct MeanSample: TestStatistic, Equatable {
    package var units: Int
    package var sum: Double
    package var sumSquares: Double

    package init(units: Int, sum: Double, sumSquares: Double) {
        (self.units, self.sum, self.sumSquares) = (units, sum, sumSquares)
    }

    package var n: Double { Double(units) }
    /// The sum over units (0 without units).
    package var mean: Double { units == 0 ? 0 : sum / n }
    /// The sample variance (n − 1); 0 for one unit or none.
    package var variance: Double { units <= 1 ? 0 : (sumSquares - pow(sum, 2) / n) / (n - 1) }
}

/// One part of a ratio: its sum over units, mean and variance, as gbstats computes them for the
/// part's own statistic (`SampleMeanStatistic` or `ProportionStatistic`).
package struct RatioPart: Sendable, Equatable {
    package var sum: Double
    package var mean: Double
    package var variance: Double

    package init(_ sample: MeanSample) {
        sum = sample.sum
        mean = sample.mean
        variance = sample.variance
    }

    package init(_ sample: ProportionSample) {
        sum = Double(sample.conversions)
        mean = sample.mean
        variance = sample.variance
    }
}

/// A ratio metric in one variation: gbstats' `RatioStatistic`, the numerator's sum over the
/// denominator's, its variance by the delta method from both parts' variances and their
/// covariance (from the sum over units of numerator × denominator).
package struct RatioSample: TestStatistic, Equatable {
    package var units: Int
    package var numerator: RatioPart
    package var denominator: RatioPart
    package var sumOfProducts: Double

    package init(units: Int, numerator: RatioPart, denominator: RatioPart, sumOfProducts: Double) {
        (self.units, self.numerator, self.denominator, self.sumOfProducts) = (units, numerator, denominator, sumOfProducts)
    }

    package var n: Double { Double(units) }
    package var mean: Double { denominator.sum == 0 ? 0 : numerator.sum / denominator.sum }

    package var covariance: Double {
        units <= 1 ? 0 : (sumOfProducts - numerator.sum * denominator.sum / n) / (n - 1)
    }

    package var variance: Double {
        guard denominator.mean != 0, units > 1 else { return 0 }
        return numerator.variance / pow(denominator.mean, 2)
            - 2 * covariance * numerator.mean / pow(denominator.mean, 3)
            + pow(numerator.mean, 2) * denominator.variance / pow(denominator.mean, 4)
    }
}

/// A variation's statistic for one metric, by the metric's type.
package enum MetricStatistic: Sendable, Equatable {
    case proportion(ProportionSample)
    case mean(MeanSample)
    case ratio(RatioSample)
    /// A unit-level quantile.
    case quantile(QuantileSample)
    /// An event-level quantile.
    case clusteredQuantile(ClusteredQuantileSample)
    /// A proportion or mean with CUPED.
    case regressionAdjusted(RegressionAdjustedSample)

    /// The per-unit variance the tests use (for a ratio, by the delta method; with CUPED, adjusted).
    package var unitVariance: Double {
        switch self {
        case .proportion(let sample): sample.variance
        case .mean(let sample): sample.variance
        case .ratio(let sample): sample.variance
        case .quantile(let sample): sample.variance
        case .clusteredQuantile(let sample): sample.variance
        case .regressionAdjusted(let sample): sample.variance
        }
    }

    /// The variation's figure: the rate, mean, ratio or quantile (with CUPED, unadjusted).
    package var figure: Double {
        switch self {
        case .proportion(let sample): sample.mean
        case .mean(let sample): sample.mean
        case .ratio(let sample): sample.mean
        case .quantile(let sample): sample.mean
        case .clusteredQuantile(let sample): sample.mean
        case .regressionAdjusted(let sample): sample.unadjustedMean
        }
    }
}
