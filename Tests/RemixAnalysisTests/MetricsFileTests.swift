import Foundation
@testable import RemixAnalysis
@testable import RemixReports
@testable import RemixStatistics
import RemixYAML
import Testing

/// metrics.yaml: the shipped file, and every problem reported at its line and column.
@Suite struct MetricsFileTests {
    static func problems(_ text: String) -> [String] {
        MetricsFileParser.parse(text, file: "m.yaml").1.map(\.description)
    }

    @Test func theShippedFileParsesAndCoversEachType() throws {
        let path = AnalysisFixture.repository.appendingPathComponent("experiments/metrics.yaml").path
        let (catalog, problems) = MetricsFileParser.load(path)
        #expect(problems.isEmpty, "\(problems)")
        #expect(Set(catalog.definitions.map(\.kind)) == Set(MetricDefinition.Kind.allCases))
        #expect(catalog["session-time-p90"]?.level == .event && catalog["user-time-median"]?.level == .unit)
        #expect(catalog["sums-analysed"]?.cuped == true && catalog["time-in-sessions-p99-capped"]?.capPercentile == 0.99)
        let ratio = try #require(catalog["misfiled-per-published"])
        #expect(ratio.numerator == "misfiled" && ratio.denominator == "adverts-published" && ratio.inverse)
        #expect(catalog["time-in-sessions"]?.value == "durationMs" && catalog["time-in-sessions"]?.capAbsolute == 7_200_000)
        #expect(catalog["published-first-day"]?.windowHours == 24)
        // Every metric an experiment file names is a key or an event name.
        for definition in AnalysisFixture.shippedDefinitions().values {
            for name in definition.metrics.all where name.contains("-") { #expect(catalog[name] != nil, "\(name)") }
        }
        #expect(catalog.resolve("advert_published") == .proportion(of: "advert_published"))
    }

    @Test func fieldsAreRead() {
        let (catalog, problems) = MetricsFileParser.parse("""
            metrics:
              - {key: a, type: mean, event: e, value: v, window: 2.5, inverse: true, cap: {absolute: 10}}
              - {key: b, type: proportion, event: f}
              - {key: r, type: ratio, numerator: a, denominator: b, description: a per b}
            """, file: "m.yaml")
        #expect(problems.isEmpty)
        #expect(catalog["a"] == MetricDefinition(key: "a", kind: .mean, event: "e", value: "v", inverse: true, windowHours: 2.5,
                                                 capAbsolute: 10, location: SourceLocation(file: "m.yaml", line: 2, column: 11)))
        #expect(catalog["r"]?.summary == "a per b")
    }

    @Test func problemsArePositionedWithSuggestions() {
        let text = """
            metrics:
              - key: a
                type: meen
                event: e
              - key: b
                type: mean
                evnet: e
              - key: r
                type: ratio
                numerator: b2
                denominator: c
              - key: c
                type: proportion
                event: e
                value: v
              - key: q
                type: mean
                event: e
                quantile: 0.9
              - key: p
                type: mean
                event: e
                cap: {percentile: 1.5}
              - key: w
                type: mean
                event: e
                window: -1
              - key: d
                type: proportion
                event: e
              - key: d
                type: proportion
                event: e
            """
        let problems = Self.problems(text)
        let expected = [
            "m.yaml:3:11: error: unknown metric type 'meen'; did you mean 'mean'?",
            "m.yaml:7:5: error: unknown key 'evnet' in a metric; did you mean 'event'?",
            "m.yaml:15:5: error: a proportion metric has no 'value'",
            "m.yaml:19:5: error: a mean metric has no 'quantile': those are for quantile metrics",
            "m.yaml:23:23: error: cap's percentile is a level between 0 and 1 such as 0.99",
            "m.yaml:27:13: error: window is hours after the first exposure, above 0",
            "m.yaml:31:10: error: metric 'd' is defined twice (first at line 28)",
            "m.yaml:10:16: error: the numerator 'b2' is not a metric of this file",
            "m.yaml:11:18: error: the denominator 'c' is not a metric of this file",
        ]
        #expect(problems.count == expected.count, "\(problems)")
        for (problem, start) in zip(problems, expected) { #expect(problem.hasPrefix(start), "\(problem)") }
    }

    @Test func aRatioOfARatioAndMissingFieldsAreErrors() {
        let problems = Self.problems("""
            metrics:
              - {key: m, type: mean, event: e}
              - {key: r, type: ratio, numerator: m, denominator: m}
              - {key: s, type: ratio, numerator: r, denominator: m}
              - {key: t, type: mean}
            """)
        #expect(problems.contains { $0.hasPrefix("m.yaml:4:") && $0.contains("'r' is a ratio") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("m.yaml:5:") && $0.contains("needs 'event'") }, "\(problems)")
        #expect(Self.problems("metrics:\n  - {key: v, type: mean, event: e, value: ts}").first?
            .hasPrefix("m.yaml:2:43: error: value 'ts' is a field the analysis reads itself") == true)
        #expect(Self.problems("metric: []").first?.contains("did you mean 'metrics'") == true)
        #expect(Self.problems("metrics: 3").first?.hasPrefix("m.yaml:1:10: error: metrics must be a list") == true)
    }

    @Test func quantileCupedAndPercentileCapAreRead() {
        let (catalog, problems) = MetricsFileParser.parse("""
            metrics:
              - {key: q, type: quantile, event: e, value: v, quantile: 0.9}
              - {key: qe, type: quantile, event: e, value: v, quantile: 0.5, level: event, window: 48}
              - {key: c, type: mean, event: e, value: v, cuped: true, preWindow: 72, cap: {percentile: 0.99}}
              - {key: p, type: proportion, event: e, cuped: true}
            """, file: "m.yaml")
        #expect(problems.isEmpty, "\(problems)")
        #expect(catalog["q"]?.kind == .quantile && catalog["q"]?.quantile == 0.9 && catalog["q"]?.level == .unit)
        #expect(catalog["q"]?.label == "p90")
        #expect(catalog["qe"]?.level == .event && catalog["qe"]?.label == "p50 of events" && catalog["qe"]?.windowHours == 48)
        #expect(catalog["c"]?.cuped == true && catalog["c"]?.preWindowHours == 72 && catalog["c"]?.capPercentile == 0.99)
        #expect(catalog["c"]?.label == "mean, CUPED")
        #expect(catalog["p"]?.preWindowHours == 336 && catalog["p"]?.isSimpleProportion == false)
        #expect(MetricDefinition(key: "x", kind: .quantile, quantile: 0.995).label == "p99.5")
    }

    @Test func quantileAndCupedProblemsArePositioned() {
        let cases: [(String, String)] = [
            ("{key: q, type: quantile, event: e, quantile: 0.9}", "m.yaml:2:5: error: quantile 'q' needs 'value'"),
            ("{key: q, type: quantile, event: e, value: v}", "m.yaml:2:5: error: quantile 'q' needs 'quantile'"),
            ("{key: q, type: quantile, event: e, value: v, quantile: 1}", "m.yaml:2:60: error: quantile is a level between 0 and 1"),
            ("{key: q, type: quantile, event: e, value: v, quantile: 0.9, level: events}",
             "m.yaml:2:72: error: level is 'unit' (each unit's sum) or 'event' (each event's value), not 'events'; did you mean 'event'?"),
            ("{key: q, type: quantile, event: e, value: v, quantile: 0.9, cap: {absolute: 3}}",
             "m.yaml:2:65: error: a quantile metric has no 'cap'"),
            ("{key: q, type: quantile, event: e, value: v, quantile: 0.9, cuped: true}",
             "m.yaml:2:65: error: a quantile metric has no 'cuped'"),
            ("{key: m, type: mean, event: e, preWindow: 10}", "m.yaml:2:47: error: preWindow is the hours before exposure that CUPED reads"),
            ("{key: m, type: mean, event: e, cuped: true, preWindow: 0}", "m.yaml:2:60: error: preWindow is hours before the first exposure"),
            ("{key: m, type: mean, event: e, cap: {absolute: 3, percentile: 0.9}}", "m.yaml:2:41: error: cap is {absolute: X} or {percentile: P}"),
            ("{key: m, type: mean, event: e, level: unit}", "m.yaml:2:36: error: a mean metric has no 'level'"),
        ]
        for (metric, expected) in cases {
            let problems = Self.problems("metrics:\n  - \(metric)")
            #expect(problems.first?.hasPrefix(expected) == true, "\(metric): \(problems)")
        }
        let ratio = Self.problems("""
            metrics:
              - {key: q, type: quantile, event: e, value: v, quantile: 0.9}
              - {key: m, type: mean, event: e}
              - {key: r, type: ratio, numerator: q, denominator: m, cuped: true}
              - {key: s, type: ratio, numerator: q, denominator: m}
            """)
        #expect(ratio.first?.hasPrefix("m.yaml:4:57: error: a ratio metric has no 'cuped'") == true, "\(ratio)")
        #expect(ratio.contains { $0.hasPrefix("m.yaml:5:38:") && $0.contains("'q' is a quantile") }, "\(ratio)")
    }
}

extension MetricsFileTests {
    @Test func aMetricsOwnPriorIsReadAndOverridesTheCommandLine() throws {
        let (catalog, problems) = MetricsFileParser.parse("""
            metrics:
              - {key: a, type: proportion, event: published, prior: {mean: 0.05, stddev: 0.3}}
              - {key: b, type: proportion, event: published, prior: {stddev: 0.2}}
            """, file: "m.yaml")
        #expect(problems.isEmpty, "\(problems)")
        #expect(catalog["a"]?.prior == BayesianPrior(mean: 0.05, standardDeviation: 0.3))
        #expect(catalog["b"]?.prior == BayesianPrior(mean: 0, standardDeviation: 0.2))
        #expect(Self.problems("metrics:\n  - {key: a, type: mean, event: e, prior: {stddev: 0}}").first?
            .hasPrefix("m.yaml:2:52: error: prior's stddev must be a number above 0") == true)
        #expect(Self.problems("metrics:\n  - {key: a, type: mean, event: e, prior: {men: 0}}").first?
            .contains("did you mean 'mean'?") == true)
        // On a log: the metric's prior is used even when the command line gives another.
        var lines: [String] = []
        for index in 0..<200 {
            lines.append(MetricsAnalysisTests.exposureLine("u\(index)", variation: index % 2, second: 10))
            if index % 5 < 2 + index % 2 { lines.append(DimensionAnalysisTests.line(20, "published", "u\(index)")) }
        }
        var options = AnalysisOptions(logs: [try AnalysisFixture.log(lines)], metrics: ["a", "published"], jobs: 1)
        options.catalog = catalog
        options.prior = BayesianPrior(mean: 0, standardDeviation: 0.01)
        let report = try Analyzer.run(options)
        let comparisons = try #require(report.experiments.first).comparisons
        #expect(comparisons.map(\.prior) == [catalog["a"]?.prior, options.prior])
        let statistics = try #require(report.experiments.first).variations.map { $0.metrics[0].statistic }
        let own = BayesianTest.effect(control: statistics[0].proportion!, treatment: statistics[1].proportion!,
                                      settings: TestSettings(prior: catalog["a"]?.prior))
        #expect(comparisons[0].chanceToWin == own.chanceToWin && comparisons[1].chanceToWin != comparisons[0].chanceToWin)
        #expect(TableReport.render(report, style: .terminal(colour: false)).contains("priors of the metrics' own (on the lift): a N(0.05, 0.3²)"))
        #expect(JSONReport.render(report).contains(#""prior":{"mean":0.05,"stddev":0.3}"#))
    }
}

private extension MetricStatistic {
    var proportion: ProportionSample? { if case .proportion(let sample) = self { sample } else { nil } }
}
