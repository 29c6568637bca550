import Foundation

/// Per-unit values of a mean metric in one variation: gbstats' `SampleMeanStatistic` from the
/// number of units, the sum of their values and the sum of their squares.
struct MeanSample: TestStatistic, Equatable {
    var units: Int
    var sum: Double
    var sumSquares: Double

    var n: Double { Double(units) }
    /// The sum over units (0 without units).
    var mean: Double { units == 0 ? 0 : sum / n }
    /// The sample variance (n − 1); 0 for one unit or none.
    var variance: Double { units <= 1 ? 0 : (sumSquares - pow(sum, 2) / n) / (n - 1) }
}

/// One part of a ratio: its sum over units, mean and variance, as gbstats computes them for the
/// part's own statistic (`SampleMeanStatistic` or `ProportionStatistic`).
struct RatioPart: Sendable, Equatable {
    var sum: Double
    var mean: Double
    var variance: Double

    init(_ sample: MeanSample) {
        sum = sample.sum
        mean = sample.mean
        variance = sample.variance
    }

    init(_ sample: ProportionSample) {
        sum = Double(sample.conversions)
        mean = sample.mean
        variance = sample.variance
    }
}

/// A ratio metric in one variation: gbstats' `RatioStatistic`, the numerator's sum over the
/// denominator's, its variance by the delta method from both parts' variances and their
/// covariance (from the sum over units of numerator × denominator).
struct RatioSample: TestStatistic, Equatable {
    var units: Int
    var numerator: RatioPart
    var denominator: RatioPart
    var sumOfProducts: Double

    var n: Double { Double(units) }
    var mean: Double { denominator.sum == 0 ? 0 : numerator.sum / denominator.sum }

    var covariance: Double {
        units <= 1 ? 0 : (sumOfProducts - numerator.sum * denominator.sum / n) / (n - 1)
    }

    var variance: Double {
        guard denominator.mean != 0, units > 1 else { return 0 }
        return numerator.variance / pow(denominator.mean, 2)
            - 2 * covariance * numerator.mean / pow(denominator.mean, 3)
            + pow(numerator.mean, 2) * denominator.variance / pow(denominator.mean, 4)
    }
}

/// A variation's statistic for one metric, by the metric's type.
enum MetricStatistic: Sendable, Equatable {
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
    var unitVariance: Double {
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
    var figure: Double {
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
