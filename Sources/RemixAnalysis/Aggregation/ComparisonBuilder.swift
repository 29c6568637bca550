/// Compares each variation with the baseline on each metric — gbstats' two-sided t-test for the
/// relative lift, its CI and p-value; gbstats' effect Bayesian test for chance to win and risk —
/// then adjusts the p-values for the number of comparisons.
enum ComparisonBuilder {
    static func compare(variations: [AnalysisReport.Variation], metrics: [String], guardrails: Set<String>,
                        alpha: Double, correction: Correction) -> [AnalysisReport.Comparison] {
        guard let baseline = variations.first else { return [] }
        var comparisons: [AnalysisReport.Comparison] = []
        for variation in variations.dropFirst() {
            for (index, metric) in metrics.enumerated() {
                let control = ProportionSample(units: baseline.units, conversions: baseline.metrics[index].conversions)
                let treatment = ProportionSample(units: variation.units, conversions: variation.metrics[index].conversions)
                let frequentist = FrequentistTest.twoSided(control: control, treatment: treatment, alpha: alpha)
                let bayesian = BayesianTest.effect(control: control, treatment: treatment, alpha: alpha)
                comparisons.append(AnalysisReport.Comparison(
                    variation: variation.key, baseline: baseline.key, metric: metric, guardrail: guardrails.contains(metric),
                    expected: frequentist.expected, ci: [frequentist.ci.lower, frequentist.ci.upper],
                    pValue: frequentist.pValue, pValueAdjusted: frequentist.pValue,
                    chanceToWin: bayesian.chanceToWin, risk: bayesian.risk,
                    error: frequentist.error ?? bayesian.error))
            }
        }
        let adjusted: [Double]
        switch correction {
        case .none: adjusted = comparisons.map(\.pValue)
        case .holm: adjusted = MultipleTesting.holm(comparisons.map(\.pValue))
        case .bh: adjusted = MultipleTesting.benjaminiHochberg(comparisons.map(\.pValue))
        }
        for index in comparisons.indices { comparisons[index].pValueAdjusted = adjusted[index] }
        return comparisons
    }

    /// Pearson χ² p-value of the units per variation against the expected weights.
    static func sampleRatio(units: [Int], weights: [Double]) -> Double? {
        guard units.reduce(0, +) > 0, units.count == weights.count else { return nil }
        return SampleRatio.pValue(observed: units, weights: weights)
    }
}
