import RemixAnalysis
import RemixStatistics

extension GuardrailTest {
    /// The results of every guardrail of `experiment` at level `alpha` with the sequential tuning parameter.
    package static func results(_ experiment: AnalysisReport.Experiment, alpha: Double,
                                tuning: Double = TestSettings.defaultSequentialTuning) -> [GuardrailResult] {
        guard experiment.variations.count == 2 else { return [] }
        let (control, rollout) = (experiment.variations[0], experiment.variations[1])
        return experiment.guardrails.compactMap { name in
            guard let index = control.metrics.firstIndex(where: { $0.metric == name }), rollout.metrics.indices.contains(index) else {
                return nil
            }
            let (a, b) = (control.metrics[index], rollout.metrics[index])
            var result = GuardrailResult(metric: name, inverse: b.inverse, control: a.value, rollout: b.value,
                                         effect: b.value - a.value, bound: 0, pValue: 1, worse: false)
            if let error = a.error ?? b.error {
                result.error = error
                return result
            }
            guard let interval = interval(a.statistic, b.statistic, inverse: b.inverse, alpha: alpha, tuning: tuning) else {
                result.error = control.units == 0 || rollout.units == 0 ? StatisticsMessage.noUnits : StatisticsMessage.zeroVariance
                return result
            }
            let factor = ValueScale.factor(a.scale)
            result.effect = interval.effect * factor
            result.bound = interval.bound * factor
            result.worse = b.inverse ? interval.bound > 0 : interval.bound < 0
            result.pValue = pValue(a.statistic, b.statistic, inverse: b.inverse, rho2: rho2(alpha: alpha, tuning: tuning))
            return result
        }
    }
}
