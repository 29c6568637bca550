import Foundation

/// What a power calculation is about: a metric's baseline per unit and the test's settings.
package struct PowerSettings: Sendable, Equatable {
    /// The control's mean per unit (a rate for a proportion).
    package var mean: Double
    /// The standard deviation of the per-unit values (√(p(1 − p)) for a proportion); equal in both arms.
    package var standardDeviation: Double
    /// Whether the mean is a proportion, which no lift can take past 1.
    package var isProportion = false
    package var alpha: Double
    /// With a value, the sequential test with this tuning parameter.
    package var sequentialTuning: Double?

    /// A mean with its per-unit standard deviation.
    package init(mean: Double, standardDeviation: Double, alpha: Double = 0.05, sequentialTuning: Double? = nil) {
        self.mean = mean
        self.standardDeviation = standardDeviation
        self.alpha = alpha
        self.sequentialTuning = sequentialTuning
    }

    /// A mean with the variance of its per-unit values.
    package init(mean: Double, variance: Double, alpha: Double = 0.05, sequentialTuning: Double? = nil) {
        self.init(mean: mean, standardDeviation: variance.squareRoot(), alpha: alpha, sequentialTuning: sequentialTuning)
    }

    /// A proportion with baseline rate `rate`.
    package static func proportion(_ rate: Double, alpha: Double = 0.05, sequentialTuning: Double? = nil) -> PowerSettings {
        var settings = PowerSettings(mean: rate, variance: rate * (1 - rate), alpha: alpha, sequentialTuning: sequentialTuning)
        settings.isProportion = true
        return settings
    }

    /// σ/μ, the only scale the formulas need: the lift's variance σ²/(N μ²) · (1 + (1 + Δ)²) is
    /// formed from it without any power of μ or σ, which overflow (10⁷⁸⁴ is no double) or
    /// underflow for metrics of very large or very small units.
    package var relativeStandardDeviation: Double { standardDeviation / mean }

    /// z₁₋α/₂, read from the lower tail: 1 − α/2 is 1 in a double for α below 10⁻¹⁶, whose z
    /// would be infinite and no sample size enough.
    package var criticalValue: Double { -Normal.quantile(alpha / 2) }

    /// Why no plan can be made for this baseline and the relative lift `effect` (when given);
    /// nil when one can.
    package func problem(effect: Double? = nil) -> String? {
        guard alpha > 0, alpha < 1, criticalValue.isFinite else {
            return "α = \(alpha) is too small for its critical value to be computed in a double; give a larger α"
        }
        guard mean.isFinite, mean > 0 else {
            return "the baseline is \(mean); a relative lift needs a baseline above 0 (GrowthBook's tests refuse one at or below 0)"
        }
        guard standardDeviation.isFinite, standardDeviation > 0 else {
            return "the baseline's per-unit values do not vary (variance \(standardDeviation * standardDeviation)), so there is no "
                + "noise to plan against"
        }
        guard let effect else { return nil }
        guard effect > -1 else { return "a lift of \(LiftText.signedPercent(effect)) leaves nothing of the baseline; a lift is above −100 %" }
        if isProportion, mean * (1 + effect) > 1 {
            return "a rate of \(mean) cannot rise by \(LiftText.signedPercent(effect)) (to \(mean * (1 + effect)), above 1)"
        }
        return nil
    }
}

/// Power, minimum detectable effect and sample size for a relative effect, as GrowthBook's
/// frequentist engine computes them: a two-sided test of the lift with the delta-method variance
/// σ²/(N μ_A²) + σ² μ_B²/(N μ_A⁴) for N units in each of two arms of equal variance; the MDE as the
/// root of the quadratic in μ_B; under sequential testing the standard error widened to the
/// always-valid interval's half width over z (one look, so a lower bound for power). Everything is
/// computed from σ/μ, so a metric's unit does not change the answer.
package enum PowerAnalysis {
    /// The standard error of the lift for `units` units per arm and a relative effect `effect`:
    /// (σ/μ) √((1 + (1 + Δ)²)/N), `hypot` keeping (1 + Δ)² from overflowing.
    package static func standardError(effect: Double, units: Double, _ settings: PowerSettings) -> Double {
        settings.relativeStandardDeviation * hypot(1, 1 + effect) / units.squareRoot() * sequentialFactor(units: units, settings)
    }

    /// How much the sequential interval is wider than the fixed-horizon z interval (1 without
    /// sequential testing): √N · √(2(Nρ² + 1)/(N²ρ²) · log(√(Nρ² + 1)/α)) / z for N units in both
    /// arms, written as √(2(1 + 1/q) · log(√(q + 1)/α)) / z with q = Nρ² so that N² never overflows.
    package static func sequentialFactor(units: Double, _ settings: PowerSettings) -> Double {
        guard let tuning = settings.sequentialTuning else { return 1 }
        let alpha = settings.alpha, total = 2 * units
        let rho2 = (-2 * log(alpha) + log(-2 * log(alpha) + 1)) / tuning
        let q = total * rho2
        let width = (2 * (1 + 1 / q) * (log1p(q) / 2 - log(alpha))).squareRoot()
        return width / settings.criticalValue
    }

    /// The chance of a significant result (either direction) for a true relative effect `effect`.
    package static func power(effect: Double, units: Double, _ settings: PowerSettings) -> Double {
        let z = settings.criticalValue
        let ratio = effect / standardError(effect: effect, units: units, settings)
        return 1 - Normal.cdf(z - ratio) + Normal.cdf(-z - ratio)
    }

    /// The smallest positive relative effect detected with probability `power` by `units` units
    /// per arm; nil when no effect is (the arms are too small for the metric's variance: N must be
    /// above σ²k²/μ² with k = z₁₋α/₂ − Φ⁻¹(1 − power)) or the settings have a ``PowerSettings/problem(effect:)``.
    package static func minimumDetectableEffect(power: Double, units: Double, _ settings: PowerSettings) -> Double? {
        guard settings.problem() == nil, units > 0, units.isFinite else { return nil }
        let k = settings.criticalValue - Normal.quantile(1 - power)
        // a = σ²f²k²/(N μ²); the root μ_B/μ = (1 + √(a(2 − a)))/(1 − a), less 1 without cancelling.
        let scaled = settings.relativeStandardDeviation * sequentialFactor(units: units, settings) * k / units.squareRoot()
        let a = scaled * scaled
        guard a < 1 else { return nil }
        return (a + (a * (2 - a)).squareRoot()) / (1 - a)
    }

    /// The fewest units per arm that detect the relative effect `effect` with probability `power`;
    /// nil above `limit`, or when the settings have a ``PowerSettings/problem(effect:)``.
    package static func unitsNeeded(effect: Double, power target: Double, _ settings: PowerSettings,
                                   limit: Double = 1e12) -> Double? {
        guard effect != 0, effect.isFinite, settings.problem(effect: effect) == nil else { return nil }
        // Written so that a power that is not a number counts as not reached.
        var high = 2.0
        while !(power(effect: effect, units: high, settings) >= target) {
            high *= 2
            if high > limit { return nil }
        }
        var low = high / 2
        while high - low > 1 {
            let middle = ((low + high) / 2).rounded(.down)
            if power(effect: effect, units: middle, settings) >= target { high = middle } else { low = middle }
        }
        return high
    }
}
