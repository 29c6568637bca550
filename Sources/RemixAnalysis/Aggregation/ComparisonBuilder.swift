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
                let (frequentist, bayesian) = tests(baseline.metrics[index].statistic, variation.metrics[index].statistic,
                                                    alpha: alpha)
                comparisons.append(AnalysisReport.Comparison(
                    variation: variation.key, baseline: baseline.key, metric: metric, guardrail: guardrails.contains(metric),
                    expected: frequentist.expected, ci: [frequentist.ci.lower, frequentist.ci.upper],
                    pValue: frequentist.pValue, pValueAdjusted: frequentist.pValue,
                    chanceToWin: bayesian.chanceToWin, risk: bayesian.risk,
                    error: frequentist.error ?? bayesian.error, inverse: variation.metrics[index].inverse))
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

    /// Both tests on a metric's statistics in the control and the treatment (always of one type).
    static func tests(_ control: MetricStatistic, _ treatment: MetricStatistic,
                      alpha: Double) -> (FrequentistResult, BayesianResult) {
        func run<S: TestStatistic>(_ a: S, _ b: S) -> (FrequentistResult, BayesianResult) {
            (FrequentistTest.twoSided(control: a, treatment: b, alpha: alpha),
             BayesianTest.effect(control: a, treatment: b, alpha: alpha))
        }
        switch (control, treatment) {
        case let (.proportion(a), .proportion(b)): return run(a, b)
        case let (.mean(a), .mean(b)): return run(a, b)
        case let (.ratio(a), .ratio(b)): return run(a, b)
        default:
            let empty = MeanSample(units: 0, sum: 0, sumSquares: 0)
            return run(empty, empty)
        }
    }

    /// Pearson χ² p-value of the units per variation against the expected weights.
    static func sampleRatio(units: [Int], weights: [Double]) -> Double? {
        guard units.reduce(0, +) > 0, units.count == weights.count else { return nil }
        return SampleRatio.pValue(observed: units, weights: weights)
    }
}
