import Foundation
@testable import RemixAnalysis
@testable import RemixReports
@testable import RemixStatistics
import Testing

/// Quantile (unit and event level), CUPED and percentile-capped metrics read from a written log,
/// against the statistics built directly from the events, with 1 and 2 threads and reads small
/// enough to cross chunk and part boundaries.
@Suite struct QuantileCupedAnalysisTests {
    typealias Event = MetricsAnalysisTests.Event

    static let catalog = MetricCatalog([
        MetricDefinition(key: "p75", kind: .quantile, event: "session_ended", value: "durationMs", quantile: 0.75),
        MetricDefinition(key: "p75-events", kind: .quantile, event: "session_ended", value: "durationMs",
                         quantile: 0.75, level: .event),
        MetricDefinition(key: "time-cuped", kind: .mean, event: "session_ended", value: "durationMs", cuped: true,
                         preWindowHours: 1),
        MetricDefinition(key: "ended-cuped", kind: .proportion, event: "session_ended", cuped: true, preWindowHours: 1),
        MetricDefinition(key: "time-capped", kind: .mean, event: "session_ended", value: "durationMs", capPercentile: 0.8),
    ])

    /// 60 users in two variations and one exposed to both; sessions before exposure (inside and
    /// outside the one-hour pre-window), after it, and one without a number.
    static func scenario() -> (lines: [String], exposures: [String: (variation: Int, second: Int)], events: [Event]) {
        var exposures: [String: (variation: Int, second: Int)] = [:]
        var events: [Event] = []
        for index in 0..<60 {
            let user = "u\(index)", variation = index % 2, exposed = 9000 + index * 7
            exposures[user] = (variation, exposed)
            func ended(_ second: Int, _ duration: Int) {
                events.append(Event(user: user, type: "session_ended", second: second,
                                    extra: #","durationMs":\#(duration)"#, duration: Double(duration)))
            }
            for session in 0..<(index % 3) { ended(exposed - 3000 + session * 600, 1000 + 311 * ((index + session) % 7)) }
            if index % 4 == 0 { ended(exposed - 7000, 99_999) }
            for session in 0..<(index % 4) {
                ended(exposed + 5 + session * 900, 1200 + 257 * ((index * 5 + session) % 11) + variation * 400 + 150 * (index % 3))
            }
            if index % 9 == 2 {
                events.append(Event(user: user, type: "session_ended", second: exposed + 30, extra: #","durationMs":"slow""#))
            }
        }
        var lines = exposures.sorted { $0.key < $1.key }.map {
            MetricsAnalysisTests.exposureLine($0.key, variation: $0.value.variation, second: $0.value.second)
        }
        lines += events.map {
            #"{"ts":"\#(MetricsAnalysisTests.timestamp($0.second))","type":"\#($0.type)","user":"\#($0.user)"\#($0.extra)}"#
        }
        lines.append(MetricsAnalysisTests.exposureLine("both", variation: 0, second: 10))
        lines.append(MetricsAnalysisTests.exposureLine("both", variation: 1, second: 20))
        return (lines, exposures, events)
    }

    static func expected(_ exposures: [String: (variation: Int, second: Int)], _ events: [Event]) -> [String: [MetricStatistic]] {
        func durations(_ user: String, pre: Bool) -> [Double] {
            guard let first = exposures[user]?.second else { return [] }
            return events.filter { event in
                event.user == user && (pre ? event.second < first && first - event.second <= 3600 : event.second >= first)
            }.compactMap(\.duration)
        }
        let everyone = exposures.keys.map { durations($0, pre: false).reduce(0, +) }.sorted()
        let cap = QuantileSample.percentile(everyone, 0.8)
        var result: [String: [MetricStatistic]] = [:]
        for variation in 0..<2 {
            let users = exposures.filter { $0.value.variation == variation }.keys.sorted()
            let post = users.map { durations($0, pre: false) }, pre = users.map { durations($0, pre: true) }
            let totals = post.map { $0.reduce(0, +) }, preTotals = pre.map { $0.reduce(0, +) }
            // Sums are exact, rounded once (``ExactSum``), whatever the order of the units.
            func mean(_ values: [Double]) -> MeanSample {
                MeanSample(units: users.count, sum: products(values, values.map { _ in 1 }), sumSquares: products(values, values))
            }
            func products(_ a: [Double], _ b: [Double]) -> Double {
                var sum = ExactSum()
                for (x, y) in zip(a, b) { sum.add(x, times: y) }
                return sum.value
            }
            result["p75", default: []].append(.quantile(QuantileSample(values: totals, level: 0.75)))
            result["p75-events", default: []].append(.clusteredQuantile(ClusteredQuantileSample(
                unitEvents: post.filter { !$0.isEmpty }, level: 0.75)))
            result["time-cuped", default: []].append(.regressionAdjusted(RegressionAdjustedSample(
                units: users.count, post: .mean(mean(totals)), pre: .mean(mean(preTotals)),
                sumOfProducts: products(totals, preTotals))))
            let ended = users.map { user in events.contains { $0.user == user && $0.second >= exposures[user]!.second } ? 1.0 : 0 }
            let endedBefore = pre.map { $0.isEmpty ? 0.0 : 1 }
            result["ended-cuped", default: []].append(.regressionAdjusted(RegressionAdjustedSample(
                units: users.count, post: .proportion(ProportionSample(units: users.count, conversions: Int(ended.reduce(0, +)))),
                pre: .proportion(ProportionSample(units: users.count, conversions: Int(endedBefore.reduce(0, +)))),
                sumOfProducts: products(ended, endedBefore))))
            result["time-capped", default: []].append(.mean(mean(totals.map { min($0, cap) })))
        }
        return result
    }

    @Test(arguments: [1, 2], [0, 128 << 20])
    func quantilesCupedAndPercentileCapsEqualADirectComputation(jobs: Int, keptBytes: Int) throws {
        let (lines, exposures, events) = Self.scenario()
        let (report, experiment) = try AnalysisFixture.experiment(
            lines, metrics: Self.catalog.keys, catalog: Self.catalog, jobs: jobs, keptBytes: keptBytes,
            expected: Self.expected(exposures, events))
        for variation in experiment.variations {
            #expect(variation.metrics.map(\.label) == ["p75", "p75 of events", "mean, CUPED", "rate, CUPED", "mean"])
            #expect(variation.metrics[0].nonNumericValues > 0 && variation.metrics[1].nonNumericValues > 0)
        }
        // The covariate carries information (θ ≠ 0), so the comparison is adjusted.
        let cuped = experiment.variations.map { $0.metrics[2].statistic }
        guard case .regressionAdjusted(let a) = cuped[0], case .regressionAdjusted(let b) = cuped[1] else {
            Issue.record("not a CUPED statistic")
            return
        }
        #expect(RegressionAdjustedSample.theta(a, b) != 0)
        let comparison = try #require(experiment.comparisons.first { $0.metric == "time-cuped" })
        let (frequentist, _) = ComparisonBuilder.tests(cuped[0], cuped[1], settings: TestSettings())
        #expect(comparison.expected == frequentist.expected && comparison.error == nil)
        let table = TableReport.render(report, style: .terminal(colour: false))
        #expect(table.contains("p75-events (p75 of events, ms)") && table.contains("time-cuped (mean, CUPED, ms)"))
        let json = JSONReport.render(report)
        #expect(json.contains(#""type":"quantile","label":"p75","cuped":false"#))
        #expect(CSVReport.render(report).contains(",mean\\, CUPED,true") || CSVReport.render(report).contains(#","mean, CUPED",true"#))
    }
}
