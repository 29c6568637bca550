import Foundation

/// What a power calculation is about: a metric's baseline per unit and the test's settings.
public struct PowerSettings: Sendable, Equatable {
    /// The control's mean per unit (a rate for a proportion).
    public var mean: Double
    /// The variance of the per-unit values (p(1 − p) for a proportion); equal in both arms.
    public var variance: Double
    public var alpha: Double
    /// With a value, the sequential test with this tuning parameter.
    public var sequentialTuning: Double?

    public init(mean: Double, variance: Double, alpha: Double = 0.05, sequentialTuning: Double? = nil) {
        self.mean = mean
        self.variance = variance
        self.alpha = alpha
        self.sequentialTuning = sequentialTuning
    }

    /// A proportion with baseline rate `rate`.
    public static func proportion(_ rate: Double, alpha: Double = 0.05, sequentialTuning: Double? = nil) -> PowerSettings {
        PowerSettings(mean: rate, variance: rate * (1 - rate), alpha: alpha, sequentialTuning: sequentialTuning)
    }
}

/// Power, minimum detectable effect and sample size for a relative effect, as GrowthBook's
/// frequentist engine computes them: a two-sided test of the lift with the delta-method variance
/// σ²/(N μ_A²) + σ² μ_B²/(N μ_A⁴) for N units in each of two arms of equal variance; the MDE as the
/// root of the quadratic in μ_B; under sequential testing the standard error widened to the
/// always-valid interval's half width over z (one look, so a lower bound for power).
public enum PowerAnalysis {
    /// The standard error of the lift for `units` units per arm and a relative effect `effect`.
    public static func standardError(effect: Double, units: Double, _ settings: PowerSettings) -> Double {
        let (mu, v) = (settings.mean, settings.variance / units)
        let muB = mu * (1 + effect)
        let fixed = (v / (mu * mu) + v * muB * muB / pow(mu, 4)).squareRoot()
        return fixed * sequentialFactor(units: units, settings)
    }

    /// How much the sequential interval is wider than the fixed-horizon z interval (1 without
    /// sequential testing): √N · √(2(Nρ² + 1)/(N²ρ²) · log(√(Nρ² + 1)/α)) / z for N units in both arms.
    static func sequentialFactor(units: Double, _ settings: PowerSettings) -> Double {
        guard let tuning = settings.sequentialTuning else { return 1 }
        let alpha = settings.alpha, total = 2 * units
        let rho2 = (-2 * log(alpha) + log(-2 * log(alpha) + 1)) / tuning
        let width = total.squareRoot()
            * ((2 * (total * rho2 + 1)) * log((total * rho2 + 1).squareRoot() / alpha) / (total * total * rho2)).squareRoot()
        return width / Normal.quantile(1 - alpha / 2)
    }

    /// The chance of a significant result (either direction) for a true relative effect `effect`.
    public static func power(effect: Double, units: Double, _ settings: PowerSettings) -> Double {
        let z = Normal.quantile(1 - settings.alpha / 2)
        let ratio = effect / standardError(effect: effect, units: units, settings)
        return 1 - Normal.cdf(z - ratio) + Normal.cdf(-z - ratio)
    }

    /// The smallest positive relative effect detected with probability `power` by `units` units
    /// per arm; nil when no effect is (the arms are too small for the metric's variance: N must be
    /// above σ²k²/μ² with k = z₁₋α/₂ − Φ⁻¹(1 − power)).
    public static func minimumDetectableEffect(power: Double, units: Double, _ settings: PowerSettings) -> Double? {
        let mu = settings.mean
        guard mu != 0, units > 0 else { return nil }
        let k = Normal.quantile(1 - settings.alpha / 2) - Normal.quantile(1 - power)
        let factor = sequentialFactor(units: units, settings)
        let v = settings.variance * factor * factor / units
        let denominator = 1 - v * k * k / (mu * mu)
        guard denominator > 0 else { return nil }
        let discriminant = k * k * v * (2 - v * k * k / (mu * mu))
        let muB = (mu + discriminant.squareRoot()) / denominator
        return (muB - mu) / mu
    }

    /// The fewest units per arm that detect the relative effect `effect` with probability `power`;
    /// nil above `limit`.
    public static func unitsNeeded(effect: Double, power target: Double, _ settings: PowerSettings,
                                   limit: Double = 1e12) -> Double? {
        guard effect != 0, settings.mean != 0, settings.variance > 0 else { return nil }
        var high = 2.0
        while power(effect: effect, units: high, settings) < target {
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
