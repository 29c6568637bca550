import Foundation

/// The post- or pre-exposure part of a CUPED statistic: a proportion or a mean over the same units.
package enum CupedPart: Sendable, Equatable {
    case proportion(ProportionSample)
    case mean(MeanSample)

    package var sum: Double {
        switch self {
        case .proportion(let sample): Double(sample.conversions)
        case .mean(let sample): sample.sum
        }
    }

    package var mean: Double {
        switch self {
        case .proportion(let sample): sample.mean
        case .mean(let sample): sample.mean
        }
    }

    package var variance: Double {
        switch self {
        case .proportion(let sample): sample.variance
        case .mean(let sample): sample.variance
        }
    }

    /// Both arms' parts as one statistic over `units` (gbstats' `create_joint_statistic`); nil
    /// when the arms' parts are of different types, which gbstats refuses.
    package static func joint(_ a: CupedPart, _ b: CupedPart, units: Int) -> CupedPart? {
        switch (a, b) {
        case let (.proportion(x), .proportion(y)):
            .proportion(ProportionSample(units: units, conversions: x.conversions + y.conversions))
        case let (.mean(x), .mean(y)):
            .mean(MeanSample(units: units, sum: x.sum + y.sum, sumSquares: x.sumSquares + y.sumSquares))
        default: nil
        }
    }
}

/// A metric with CUPED in one variation: gbstats' `RegressionAdjustedStatistic`, the post-exposure
/// statistic less θ times the same metric before exposure, θ shared by both arms (`theta(_:_:)`).
package struct RegressionAdjustedSample: TestStatistic, Equatable {
    package var units: Int
    package var post: CupedPart
    package var pre: CupedPart
    /// Σ over units of post × pre.
    package var sumOfProducts: Double
    package var theta = 0.0

    package init(units: Int, post: CupedPart, pre: CupedPart, sumOfProducts: Double, theta: Double = 0) {
        (self.units, self.post, self.pre, self.sumOfProducts, self.theta) = (units, post, pre, sumOfProducts, theta)
    }

    package var n: Double { Double(units) }
    package var mean: Double { post.mean - theta * pre.mean }
    package var unadjustedMean: Double { post.mean }

    package var covariance: Double { units <= 1 ? 0 : (sumOfProducts - post.sum * pre.sum / n) / (n - 1) }

    package var variance: Double {
        units <= 1 ? 0 : post.variance + pow(theta, 2) * pre.variance - 2 * theta * covariance
    }

    /// The regression coefficient of post on pre over both arms (gbstats' `compute_theta`); 0 when
    /// either part has no variance over them (the tests then fall back to the post statistics).
    package static func theta(_ a: RegressionAdjustedSample, _ b: RegressionAdjustedSample) -> Double {
        let units = a.units + b.units
        guard let post = CupedPart.joint(a.post, b.post, units: units),
              let pre = CupedPart.joint(a.pre, b.pre, units: units),
              pre.variance != 0, post.variance != 0 else { return 0 }
        let joint = RegressionAdjustedSample(units: units, post: post, pre: pre,
                                             sumOfProducts: a.sumOfProducts + b.sumOfProducts)
        return joint.covariance / pre.variance
    }
}
