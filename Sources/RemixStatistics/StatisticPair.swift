/// A computation over a control's and a treatment's statistics of the same kind, whatever the
/// kind (a proportion, a mean, a ratio, a quantile, CUPED's adjusted sample).
package protocol StatisticPairOperation {
    associatedtype Output
    func callAsFunction<S: TestStatistic>(_ control: S, _ treatment: S) -> Output
}

extension MetricStatistic {
    /// `operation` over `control` and `treatment` as their own sample type — CUPED's with the
    /// pair's shared θ — or nil when their kinds differ.
    package static func pair<Operation: StatisticPairOperation>(_ control: MetricStatistic, _ treatment: MetricStatistic,
                                                        _ operation: Operation) -> Operation.Output? {
        switch (control, treatment) {
        case let (.proportion(a), .proportion(b)): return operation(a, b)
        case let (.mean(a), .mean(b)): return operation(a, b)
        case let (.ratio(a), .ratio(b)): return operation(a, b)
        case let (.quantile(a), .quantile(b)): return operation(a, b)
        case let (.clusteredQuantile(a), .clusteredQuantile(b)): return operation(a, b)
        case var (.regressionAdjusted(a), .regressionAdjusted(b)):
            let theta = RegressionAdjustedSample.theta(a, b)
            a.theta = theta
            b.theta = theta
            return operation(a, b)
        default: return nil
        }
    }
}
