import Foundation

/// One guardrail of a safe rollout tested as GrowthBook's safe rollouts test it: gbstats'
/// `SequentialOneSidedTreatmentGreaterTTest` for a metric where higher is worse (`inverse`), else
/// `SequentialOneSidedTreatmentLesserTTest` — absolute differences, an always-valid one-sided
/// interval on the side that would be worse (eq. 134 of Waudby-Smith et al. 2023) — and worse when
/// that interval excludes 0.
package struct GuardrailResult: Sendable, Equatable {
    /// The metric's key (or event).
    package var metric: String
    /// Higher is worse.
    package var inverse: Bool
    /// Each arm's figure (rate, mean, ratio, quantile) and units.
    package var control: Double
    package var rollout: Double
    /// rollout − control.
    package var effect: Double
    /// The finite end of the one-sided interval: its lower end for an inverse metric, else its upper end.
    package var bound: Double
    /// The smallest α at which the interval would exclude 0, as gbstats searches it (0.00001–0.4999).
    package var pValue: Double
    /// The interval excludes 0 on the worse side.
    package var worse: Bool
    /// Why it could not be tested (no units, no variance), if it could not.
    package var error: String?

    package init(metric: String, inverse: Bool, control: Double, rollout: Double, effect: Double, bound: Double, pValue: Double,
                 worse: Bool, error: String? = nil) {
        (self.metric, self.inverse, self.control, self.rollout) = (metric, inverse, control, rollout)
        (self.effect, self.bound, self.pValue, self.worse, self.error) = (effect, bound, pValue, worse, error)
    }
}

/// Tests a rollout's guardrails (control first, then the rollout); ``results(_:alpha:tuning:)``
/// (RemixAnalysis) tests those of an experiment's report.
package enum GuardrailTest {
    /// The effect and the one-sided interval's finite end, or nil when the arms cannot be tested.
    package static func interval(_ control: MetricStatistic, _ treatment: MetricStatistic, inverse: Bool, alpha: Double,
                         tuning: Double) -> (effect: Double, bound: Double)? {
        interval(control, treatment, inverse: inverse, alpha: alpha, rho2: rho2(alpha: alpha, tuning: tuning))
    }

    /// The same with the mixture's ρ² given, as gbstats' p-value search holds it at the test's own.
    package static func interval(_ control: MetricStatistic, _ treatment: MetricStatistic, inverse: Bool, alpha: Double,
                         rho2: Double) -> (effect: Double, bound: Double)? {
        MetricStatistic.pair(control, treatment, OneSidedInterval(inverse: inverse, alpha: alpha, rho2: rho2)) ?? nil
    }

    /// The absolute effect and the one-sided sequential interval's finite end of one pair.
    private struct OneSidedInterval: StatisticPairOperation {
        let inverse: Bool, alpha: Double, rho2: Double

        func callAsFunction<S: TestStatistic>(_ a: S, _ b: S) -> (effect: Double, bound: Double)? {
            guard a.n > 0, b.n > 0 else { return nil }
            let variance = Effect.variance(a, b, .absolute)
            guard variance > 0, variance.isFinite else { return nil }
            let effect = Effect.difference(a, b, .absolute)
            let width = GuardrailTest.halfWidth(variance: variance, units: a.n + b.n, alpha: alpha, rho2: rho2)
            return (effect, inverse ? effect - width : effect + width)
        }
    }

    /// gbstats' `sequential_rho(alpha, tuning, two_sided=False)`, squared: the one-sided test's ρ at 2α.
    package static func rho2(alpha: Double, tuning: Double) -> Double {
        (-2 * log(2 * alpha) + log(-2 * log(2 * alpha) + 1)) / tuning
    }

    /// gbstats' `sequential_interval_halfwidth_one_sided` with the mixture's ρ².
    package static func halfWidth(variance: Double, units: Double, alpha: Double, rho2: Double) -> Double {
        let spread = units * rho2 + 1
        let scaled = variance * units
        return (scaled * 2 * spread / (units * units * rho2) * log(1 + spread.squareRoot() / (2 * alpha))).squareRoot()
    }

    /// The α at which the interval's finite end reaches 0, by bisection as gbstats' `compute_p_value`
    /// (ρ held at the test's own, from the configured α).
    package static func pValue(_ control: MetricStatistic, _ treatment: MetricStatistic, inverse: Bool, rho2: Double) -> Double {
        let (smallest, largest) = (0.00001, 0.4999)
        func excludes(_ alpha: Double) -> Bool {
            guard let bound = interval(control, treatment, inverse: inverse, alpha: alpha, rho2: rho2)?.bound else { return false }
            return inverse ? bound > 0 : bound < 0
        }
        if excludes(smallest) { return smallest }
        if !excludes(largest) { return largest }
        var (low, high) = (smallest, largest)
        for _ in 0..<100 where high - low > 1e-6 {
            let middle = (low + high) / 2
            if excludes(middle) { high = middle } else { low = middle }
        }
        return high
    }
}
