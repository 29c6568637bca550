import RemixStatistics

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
                comparisons.append(comparison(baseline.metrics[index], variation.metrics[index], variation: variation.key,
                                              baseline: baseline.key, metric: metric, guardrail: guardrails.contains(metric),
                                              settings: settings))
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

    /// One treatment's comparison on one metric. A baseline of 0 has no relative lift (gbstats stops
    /// at ZERO_NEGATIVE_BASELINE_VARIATION): the tests then compare the absolute difference, and the
    /// comparison says the lift is undefined. Figures whose values were scaled (``ValueScale``)
    /// have their absolute differences scaled back; a result that is not finite is an error.
    static func comparison(_ control: AnalysisReport.MetricCount, _ treatment: AnalysisReport.MetricCount, variation: String,
                           baseline: String, metric: String, guardrail: Bool, settings: TestSettings) -> AnalysisReport.Comparison {
        // A metric's own prior overrides the command line's, as GrowthBook's metric-level override.
        var metricSettings = settings
        if let prior = treatment.prior { metricSettings.prior = prior }
        var (frequentist, raw) = tests(control.statistic, treatment.statistic, settings: metricSettings)
        var liftUndefined = false
        if frequentist.error == StatisticsMessage.baselineZero, control.error == nil, treatment.error == nil {
            // A prior on the lift says nothing about a difference from 0.
            var absolute = metricSettings
            absolute.difference = .absolute
            absolute.prior = nil
            absolute.zeroBaseline = true
            (frequentist, raw) = tests(control.statistic, treatment.statistic, settings: absolute)
            liftUndefined = settings.difference == .relative
        }
        let bayesian = treatment.inverse ? raw.inverted : raw
        var result = AnalysisReport.Comparison(
            variation: variation, baseline: baseline, metric: metric, guardrail: guardrail,
            expected: frequentist.expected, ci: [frequentist.ci.lower, frequentist.ci.upper],
            pValue: frequentist.pValue, pValueAdjusted: frequentist.pValue, chanceToWin: bayesian.chanceToWin, risk: bayesian.risk,
            error: frequentist.error ?? bayesian.error, inverse: treatment.inverse,
            credibleInterval: [bayesian.ci.lower, bayesian.ci.upper], prior: liftUndefined ? nil : metricSettings.prior,
            directionDeclared: treatment.directionDeclared)
        result.liftUndefined = liftUndefined
        if liftUndefined || settings.difference == .absolute, control.scale != 0 {
            let factor = ValueScale.factor(control.scale)
            result.expected *= factor
            result.ci = result.ci.map { $0 * factor }
            result.risk = result.risk.map { $0 * factor }
            result.credibleInterval = result.credibleInterval.map { $0 * factor }
        }
        if let error = control.error ?? treatment.error {
            result.clear(error)
        } else if !([result.expected, result.pValue, result.chanceToWin] + result.ci + result.risk + result.credibleInterval)
            .allSatisfy(\.isFinite) {
            result.clear(ValueScale.differenceOverflowMessage)
        }
        return result
    }

    /// Both tests on a metric's statistics in the control and the treatment (always of one type),
    /// as gbstats runs them: with CUPED, θ is fitted on both arms first, and when it is 0 the
    /// frequentist test falls back to the post-exposure statistics.
    static func tests(_ control: MetricStatistic, _ treatment: MetricStatistic,
                      settings: TestSettings) -> (FrequentistResult, BayesianResult) {
        let run = BothTests(settings: settings)
        let empty = MeanSample(units: 0, sum: 0, sumSquares: 0)
        if case var (.regressionAdjusted(a), .regressionAdjusted(b)) = (control, treatment) {
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
        }
        return MetricStatistic.pair(control, treatment, run) ?? run(empty, empty)
    }

    /// The frequentist and Bayesian tests of one pair.
    private struct BothTests: StatisticPairOperation {
        let settings: TestSettings

        func callAsFunction<S: TestStatistic>(_ a: S, _ b: S) -> (FrequentistResult, BayesianResult) {
            (FrequentistTest.run(control: a, treatment: b, settings: settings),
             BayesianTest.effect(control: a, treatment: b, settings: settings))
        }
    }

    /// Pearson χ² p-value of the units per variation against the expected weights.
    static func sampleRatio(units: [Int], weights: [Double]) -> Double? {
        guard units.reduce(0, +) > 0, units.count == weights.count else { return nil }
        return SampleRatio.pValue(observed: units, weights: weights)
    }
}
