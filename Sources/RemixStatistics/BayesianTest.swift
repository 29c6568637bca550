import Foundation

/// A Bayesian comparison: chance that the treatment beats the control, the expected loss of
/// choosing each, and the posterior of the effect.
package struct BayesianResult: Sendable {
    /// The chance that the treatment's effect is above 0.
    package var chanceToWin: Double
    /// [risk of choosing the control, risk of choosing the treatment], on the effect's scale.
    package var risk: [Double]
    /// The posterior mean of the effect.
    package var expected: Double
    /// The central 1 − α credible interval.
    package var ci: (lower: Double, upper: Double) = (0, 0)
    /// The posterior standard deviation.
    package var standardDeviation = 0.0
    package var error: String?
}

extension BayesianResult {
    /// The result for a metric where lower is better (gbstats' `inverse`): the chance of a fall,
    /// and the two risks exchanged. An uninformative result (an error) stays as it is.
    package var inverted: BayesianResult {
        guard error == nil else { return self }
        var result = self
        result.chanceToWin = 1 - chanceToWin
        if risk.count == 2 { result.risk = [risk[1], risk[0]] }
        return result
    }
}

/// gbstats' `EffectBayesianABTest`: a normal posterior of the effect from its delta-method
/// estimate and a flat prior, or the proper prior `settings` give.
package enum BayesianTest {
    /// The flat prior and relative effects, as gbstats' defaults.
    package static func effect<S: TestStatistic>(control: S, treatment: S, alpha: Double) -> BayesianResult {
        effect(control: control, treatment: treatment, settings: TestSettings(alpha: alpha))
    }

    package static func effect<S: TestStatistic>(control: S, treatment: S, settings: TestSettings) -> BayesianResult {
        let type = settings.difference
        if type == .relative, control.mean == 0 || control.unadjustedMean == 0 {
            return uninformative(StatisticsMessage.baselineZero)
        }
        if control.n == 0 || treatment.n == 0 { return uninformative(StatisticsMessage.noUnits) }
        if settings.zeroBaseline ? Effect.variance(control, treatment, type) <= 0 : control.hasZeroVariance || treatment.hasZeroVariance {
            return uninformative(StatisticsMessage.zeroVariance)
        }
        let dataVariance = Effect.variance(control, treatment, type)
        let dataMean = Effect.difference(control, treatment, type)
        var precision = 1 / dataVariance
        var mean = dataMean
        if let prior = settings.prior {
            // The prior is on the relative effect; an absolute effect is on the baseline's scale.
            let scale = type == .relative ? 1 : control.unadjustedMean
            let priorMean = type == .relative ? prior.mean : prior.mean * abs(scale)
            let priorVariance = pow(prior.standardDeviation, 2) * (type == .relative ? 1 : pow(scale, 2))
            // gbstats divides by zero here (a relative prior says nothing about a zero baseline).
            if priorVariance == 0 { return uninformative(StatisticsMessage.baselineZero) }
            precision = 1 / dataVariance + 1 / priorVariance
            mean = (dataMean / dataVariance + priorMean / priorVariance) / precision
        }
        let sigma = (1 / precision).squareRoot()
        let controlBetter = Normal.cdf(-mean / sigma)
        let below = Normal.truncatedMean(mu: mean, sigma: sigma, lower: -.infinity, upper: 0)
        let above = Normal.truncatedMean(mu: mean, sigma: sigma, lower: 0, upper: .infinity)
        let ci = (Normal.quantile(settings.alpha / 2) * sigma + mean, Normal.quantile(1 - settings.alpha / 2) * sigma + mean)
        return BayesianResult(chanceToWin: Normal.cdf(mean / sigma), risk: [(1 - controlBetter) * above, -(controlBetter * below)],
                              expected: mean, ci: ci, standardDeviation: sigma, error: nil)
    }

    private static func uninformative(_ message: String) -> BayesianResult {
        BayesianResult(chanceToWin: 0.5, risk: [0, 0], expected: 0, error: message)
    }
}
