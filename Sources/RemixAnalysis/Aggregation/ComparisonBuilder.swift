/// Compares each variation with the baseline on each metric — gbstats' two-sided (or sequential)
/// t-test for the relative or absolute effect, its CI and p-value; gbstats' effect Bayesian test for
/// chance to win, risk and the credible interval, both in the metric's direction (for an inverse
/// metric, lower is better: chance to win is that of a fall, and the risks trade places, as gbstats
/// does) — then adjusts the p-values for the number of comparisons.
enum ComparisonBuilder {
    static func compare(variations: [AnalysisReport.Variation], metrics: [String], guardrails: Set<String>,
                        settings: TestSettings, correction: Correction) -> [AnalysisReport.Comparison] {
        guard let baseline = variations.first else { return [] }
        var comparisons: [AnalysisReport.Comparison] = []
        for variation in variations.dropFirst() {
            for (index, metric) in metrics.enumerated() {
                // A metric's own prior overrides the command line's, as GrowthBook's metric-level override.
                var metricSettings = settings
                if let prior = variation.metrics[index].prior { metricSettings.prior = prior }
                let (frequentist, raw) = tests(baseline.metrics[index].statistic, variation.metrics[index].statistic,
                                               settings: metricSettings)
                let bayesian = variation.metrics[index].inverse ? raw.inverted : raw
                comparisons.append(AnalysisReport.Comparison(
                    variation: variation.key, baseline: baseline.key, metric: metric, guardrail: guardrails.contains(metric),
                    expected: frequentist.expected, ci: [frequentist.ci.lower, frequentist.ci.upper],
                    pValue: frequentist.pValue, pValueAdjusted: frequentist.pValue,
                    chanceToWin: bayesian.chanceToWin, risk: bayesian.risk,
                    error: frequentist.error ?? bayesian.error, inverse: variation.metrics[index].inverse,
                    credibleInterval: [bayesian.ci.lower, bayesian.ci.upper], prior: metricSettings.prior,
                    directionDeclared: variation.metrics[index].directionDeclared))
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

    /// Both tests on a metric's statistics in the control and the treatment (always of one type),
    /// as gbstats runs them: with CUPED, θ is fitted on both arms first, and when it is 0 the
    /// frequentist test falls back to the post-exposure statistics.
    static func tests(_ control: MetricStatistic, _ treatment: MetricStatistic,
                      settings: TestSettings) -> (FrequentistResult, BayesianResult) {
        func run<S: TestStatistic>(_ a: S, _ b: S) -> (FrequentistResult, BayesianResult) {
            (FrequentistTest.run(control: a, treatment: b, settings: settings),
             BayesianTest.effect(control: a, treatment: b, settings: settings))
        }
        let empty = MeanSample(units: 0, sum: 0, sumSquares: 0)
        switch (control, treatment) {
        case let (.proportion(a), .proportion(b)): return run(a, b)
        case let (.mean(a), .mean(b)): return run(a, b)
        case let (.ratio(a), .ratio(b)): return run(a, b)
        case let (.quantile(a), .quantile(b)): return run(a, b)
        case let (.clusteredQuantile(a), .clusteredQuantile(b)): return run(a, b)
        case var (.regressionAdjusted(a), .regressionAdjusted(b)):
            let theta = RegressionAdjustedSample.theta(a, b)
            a.theta = theta
            b.theta = theta
            let bayesian = BayesianTest.effect(control: a, treatment: b, settings: settings)
            guard theta == 0 else { return (FrequentistTest.run(control: a, treatment: b, settings: settings), bayesian) }
            switch (a.post, b.post) {
            case let (.proportion(x), .proportion(y)): return (run(x, y).0, bayesian)
            case let (.mean(x), .mean(y)): return (run(x, y).0, bayesian)
            default: return (run(empty, empty).0, bayesian)
            }
        default:
            return run(empty, empty)
        }
    }

    /// Pearson χ² p-value of the units per variation against the expected weights.
    static func sampleRatio(units: [Int], weights: [Double]) -> Double? {
        guard units.reduce(0, +) > 0, units.count == weights.count else { return nil }
        return SampleRatio.pValue(observed: units, weights: weights)
    }
}
