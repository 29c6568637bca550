import Foundation

/// The effect of the treatment and its delta-method variance, as gbstats' `frequentist_diff` and
/// `frequentist_variance`: relative to the control's unadjusted mean, or absolute.
package enum Effect {
    package static func difference<S: TestStatistic>(_ control: S, _ treatment: S, _ type: DifferenceType) -> Double {
        switch type {
        case .relative:
            // gbstats falls back to the adjusted mean when the unadjusted one is 0.
            let scale = control.unadjustedMean == 0 ? control.mean : control.unadjustedMean
            return (treatment.mean - control.mean) / scale
        case .absolute: return treatment.mean - control.mean
        }
    }

    package static func variance<S: TestStatistic>(_ control: S, _ treatment: S, _ type: DifferenceType) -> Double {
        switch type {
        case .relative:
            let meanA = control.unadjustedMean, meanB = treatment.unadjustedMean
            return treatment.variance / (pow(meanA, 2) * treatment.n)
                + control.variance * pow(meanB, 2) / (pow(meanA, 4) * control.n)
        case .absolute: return treatment.variance / treatment.n + control.variance / control.n
        }
    }
}

/// A frequentist comparison: the effect (relative lift or absolute difference), its confidence
/// interval and two-sided p-value.
package struct FrequentistResult: Sendable {
    package var expected: Double
    package var ci: (lower: Double, upper: Double)
    package var pValue: Double
    /// The standard error of `expected` (gbstats' `uplift.stddev`).
    package var standardError: Double
    package var error: String?
}

/// gbstats' `TwoSidedTTest` (Welch) and `SequentialTwoSidedTTest` (always-valid intervals).
package enum FrequentistTest {
    /// The fixed-horizon test with relative effects, as gbstats' defaults.
    package static func twoSided<S: TestStatistic>(control: S, treatment: S, alpha: Double) -> FrequentistResult {
        run(control: control, treatment: treatment, settings: TestSettings(alpha: alpha))
    }

    /// The test `settings` ask for: sequential when it has a tuning parameter.
    package static func run<S: TestStatistic>(control: S, treatment: S, settings: TestSettings) -> FrequentistResult {
        if settings.zeroBaseline {
            if control.n == 0 || treatment.n == 0 { return uninformative(StatisticsMessage.noUnits) }
            if Effect.variance(control, treatment, .absolute) <= 0 { return uninformative(StatisticsMessage.zeroVariance) }
        } else {
            if control.mean == 0 || control.unadjustedMean == 0 { return uninformative(StatisticsMessage.baselineZero) }
            if control.hasZeroVariance || treatment.hasZeroVariance { return uninformative(StatisticsMessage.zeroVariance) }
        }
        let expected = Effect.difference(control, treatment, settings.difference)
        let variance = Effect.variance(control, treatment, settings.difference)
        let standardError = variance.squareRoot()
        let (width, pValue): (Double, Double)
        if let tuning = settings.sequentialTuning {
            (width, pValue) = sequential(expected: expected, variance: variance, units: control.n + treatment.n,
                                         alpha: settings.alpha, tuning: tuning)
        } else {
            // An arm without variance (only with `zeroBaseline`) adds nothing to the denominator.
            func term(_ arm: S) -> Double { arm.variance == 0 ? 0 : pow(arm.variance, 2) / (pow(arm.n, 2) * (arm.n - 1)) }
            let dof = pow(treatment.variance / treatment.n + control.variance / control.n, 2) / (term(treatment) + term(control))
            pValue = 2 * (1 - StudentT.cdf(abs(expected / standardError), dof))
            width = StudentT.quantile(1 - settings.alpha / 2, dof) * standardError
        }
        return FrequentistResult(expected: expected, ci: (expected - width, expected + width), pValue: pValue,
                                 standardError: standardError, error: nil)
    }

    /// Half the width of the always-valid interval (eq. 9 of Waudby-Smith et al. 2023) and the
    /// p-value from its e-value (eq. 155), with the mixture's ρ from the tuning parameter (eq. 161).
    private static func sequential(expected: Double, variance: Double, units: Double, alpha: Double,
                                   tuning: Double) -> (Double, Double) {
        let rho = ((-2 * log(alpha) + log(-2 * log(alpha) + 1)) / tuning).squareRoot()
        let rho2 = pow(rho, 2)
        let scaledVariance = variance * units
        let width = scaledVariance.squareRoot()
            * ((2 * (units * rho2 + 1)) * log((units * rho2 + 1).squareRoot() / alpha) / pow(units * rho, 2)).squareRoot()
        let statistic = pow(expected, 2) * units / variance
        let spread = units * rho2 + 1
        let eValue = exp(rho2 * statistic / (2 * spread)) / spread.squareRoot()
        return (width, min(1 / eValue, 1))
    }

    private static func uninformative(_ message: String) -> FrequentistResult {
        FrequentistResult(expected: 0, ci: (0, 0), pValue: 1, standardError: 0, error: message)
    }
}
