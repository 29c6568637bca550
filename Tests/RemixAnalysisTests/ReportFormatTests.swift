import Foundation
@testable import RemixAnalysis
@testable import RemixReports
@testable import RemixStatistics
import Testing

/// The report's JSON names and precision, and the CSV, Markdown and terminal renderings of the
/// same numbers.
@Suite struct ReportFormatTests {
    /// Two experiments: `e` with three variations and two metrics, `f` with one unit seen in both
    /// variations (excluded) and a bad line.
    static func report(correction: Correction = .holm) throws -> AnalysisReport {
        var lines: [String] = []
        for index in 0..<60 {
            let variation = ["control", "treatment", "third"][index % 3]
            let user = "u\(index)"
            lines.append(AnalysisFixture.exposure(user, "e", variation, id: index % 3, at: 1))
            if index % 2 == 0 || (variation == "treatment" && index % 5 != 0) {
                lines.append(AnalysisFixture.event(user, "m", at: 2))
            }
            if index % 7 == 0 { lines.append(AnalysisFixture.event(user, "g", at: 3)) }
        }
        lines.append(AnalysisFixture.exposure("x", "f", "a", id: 0, at: 1))
        lines.append(AnalysisFixture.exposure("x", "f", "b", id: 1, at: 2))
        lines.append(AnalysisFixture.exposure("y", "f", "a", id: 0, at: 1))
        lines.append("garbage")
        let path = try AnalysisFixture.log(lines)
        return try Analyzer.run(AnalysisOptions(logs: [path], metrics: ["m", "g"], correction: correction, jobs: 1))
    }

    static func json(_ report: AnalysisReport) throws -> [String: Any] {
        let data = Data(JSONReport.render(report).utf8)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func jsonHasTheDocumentedNames() throws {
        let report = try Self.report()
        let root = try Self.json(report)
        let experiments = try #require(root["experiments"] as? [[String: Any]])
        #expect(experiments.map { $0["key"] as? String } == ["e", "f"])
        let e = experiments[0]
        #expect(Set(e.keys).isSuperset(of: ["key", "srmPValue", "multipleExposureUnits", "variations", "comparisons"]))
        let variations = try #require(e["variations"] as? [[String: Any]])
        #expect(variations.map { $0["key"] as? String } == ["control", "treatment", "third"])
        #expect(variations.map { $0["units"] as? Int } == [20, 20, 20])
        let metrics = try #require(variations[1]["metrics"] as? [String: [String: Any]])
        #expect(Set(metrics.keys) == ["m", "g"])
        #expect(metrics["m"]?["conversions"] as? Int == report.experiments[0].variations[1].metrics[0].conversions)
        #expect(metrics["m"]?["rate"] as? Double == report.experiments[0].variations[1].metrics[0].rate)
        let comparisons = try #require(e["comparisons"] as? [[String: Any]])
        #expect(comparisons.count == 4, "2 variations × 2 metrics")
        for comparison in comparisons {
            #expect(Set(comparison.keys).isSuperset(of: [
                "variation", "baseline", "metric", "expected", "ci", "pValue", "pValueAdjusted", "chanceToWin", "risk", "error",
            ]))
            #expect(comparison["baseline"] as? String == "control")
            #expect((comparison["ci"] as? [Double])?.count == 2)
            #expect((comparison["risk"] as? [Double])?.count == 2)
        }
        let f = experiments[1]
        #expect(f["multipleExposureUnits"] as? Int == 1)
        let log = try #require(root["log"] as? [String: Any])
        #expect(log["lines"] as? Int == report.log.lines)
        #expect(log["badLines"] as? Int == 1)
        #expect(log["files"] as? Int == 1)
        #expect((log["paths"] as? [String])?.count == 1)
    }

    /// The comparison fields, decoded with JSONDecoder (JSONSerialization on Linux rounds some
    /// decimals wrongly, so it cannot judge precision).
    struct Decoded: Decodable {
        struct Experiment: Decodable { var comparisons: [Comparison] }
        struct Comparison: Decodable {
            /// Null, with the figures in `absoluteDifference`, where the baseline is 0.
            var expected: Double?
            var ci: [Double]?
            var risk: [Double]?
            var pValue: Double
            var pValueAdjusted: Double
            var chanceToWin: Double
            var absoluteDifference: Effect?
        }
        struct Effect: Decodable { var expected: Double, ci: [Double], risk: [Double] }
        var experiments: [Experiment]
    }

    /// Figures from 1,000 on read like counts, with thousands separators (once `9228` stood beside
    /// `10,625`), signed or not, negative too; the units column says its units are users.
    @Test func figuresAndCountsHaveThousandsSeparatorsAlike() throws {
        #expect(TableReport.figure(9228) == "9,228" && TableReport.figure(10_625.4) == "10,625" && TableReport.figure(-12_345) == "-12,345")
        #expect(TableReport.figure(999.5) == "999.5" && TableReport.figure(0.2591) == "0.2591")
        #expect(TableReport.signedFigure(9228) == "+9,228" && TableReport.signedFigure(-1234.4) == "-1,234")
        #expect(TableReport.signedFigure(0.0974) == "+0.0974")
        #expect(TableReport.grouped(-123) == "-123" && TableReport.grouped(1000) == "1,000" && TableReport.grouped(-1_234_567) == "-1,234,567")
        let table = TableReport.render(try Self.report(), style: .terminal(colour: false))
        #expect(table.contains("variation  feature  units (users)"), "\(table)")
    }

    @Test func jsonKeepsFullPrecision() throws {
        let report = try Self.report()
        let decoded = try JSONDecoder().decode(Decoded.self, from: Data(JSONReport.render(report).utf8))
        let comparisons = decoded.experiments[0].comparisons
        #expect(comparisons.count == report.experiments[0].comparisons.count)
        let all = zip(decoded.experiments.flatMap(\.comparisons), report.experiments.flatMap(\.comparisons))
        #expect(all.contains { $0.1.liftUndefined } && all.contains { !$0.1.liftUndefined })
        for (json, value) in all {
            #expect(json.pValue == value.pValue)
            #expect(json.pValueAdjusted == value.pValueAdjusted)
            #expect(json.chanceToWin == value.chanceToWin)
            let effect = json.absoluteDifference ?? Decoded.Effect(expected: json.expected ?? .nan, ci: json.ci ?? [], risk: json.risk ?? [])
            #expect((json.absoluteDifference != nil) == value.liftUndefined)
            #expect(value.liftUndefined ? json.expected == nil && json.ci == nil && json.risk == nil : true)
            #expect(effect.expected == value.expected)
            #expect(effect.ci == value.ci)
            #expect(effect.risk == value.risk)
        }
    }

    @Test func comparisonsUseTheStatisticsOnTheReportedCounts() throws {
        let report = try Self.report(correction: .none)
        let experiment = report.experiments[0]
        let control = experiment.variations[0]
        for comparison in experiment.comparisons {
            let variation = try #require(experiment.variations.first { $0.key == comparison.variation })
            let index = try #require(experiment.variations[0].metrics.firstIndex { $0.metric == comparison.metric })
            let expected = FrequentistTest.twoSided(
                control: ProportionSample(units: control.units, conversions: control.metrics[index].conversions),
                treatment: ProportionSample(units: variation.units, conversions: variation.metrics[index].conversions),
                alpha: 0.05)
            #expect(comparison.expected == expected.expected)
            #expect(comparison.pValue == expected.pValue)
            #expect(comparison.pValueAdjusted == comparison.pValue, "no correction")
        }
    }

    @Test func holmAndBHAdjustAcrossVariationsAndMetrics() throws {
        let holm = try Self.report(correction: .holm).experiments[0].comparisons
        let bh = try Self.report(correction: .bh).experiments[0].comparisons
        let raw = holm.map(\.pValue)
        #expect(holm.map(\.pValueAdjusted) == MultipleTesting.holm(raw))
        #expect(bh.map(\.pValueAdjusted) == MultipleTesting.benjaminiHochberg(raw))
        #expect(zip(holm, raw).allSatisfy { $0.pValueAdjusted >= $1 })
    }

    @Test func csvHasOneRowPerVariationAndMetric() throws {
        let report = try Self.report()
        let rows = CSVReport.render(report).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows[0].first == "experiment" && rows[0].contains("p_value_adjusted"))
        let e = rows.filter { $0.first == "e" }
        #expect(e.count == 6, "3 variations × 2 metrics")
        #expect(e.allSatisfy { $0.count == rows[0].count })
        let treatmentM = try #require(e.first { $0[1] == "treatment" && $0[5] == "m" })
        let comparison = try #require(report.experiments[0].comparisons.first { $0.variation == "treatment" && $0.metric == "m" })
        #expect(Double(String(treatmentM[9])) == comparison.expected)
        #expect(e.first { $0[1] == "control" }?[9] == "", "the baseline row has no comparison")
    }

    @Test func markdownAndTerminalShowTheSameTable() throws {
        let report = try Self.report()
        let markdown = TableReport.render(report, style: .markdown)
        #expect(markdown.contains("| variation"))
        #expect(markdown.contains("|---|"))
        #expect(!markdown.contains("\u{1B}["))
        let plain = TableReport.render(report, style: .terminal(colour: false))
        #expect(!plain.contains("\u{1B}["), "no colour unless asked (a TTY)")
        #expect(plain.contains("treatment") && plain.contains("1 bad"))
        let coloured = TableReport.render(report, style: .terminal(colour: true))
        #expect(coloured.contains("\u{1B}["))
        // The funnel is a list in Markdown (indented lines would render as one paragraph).
        let funnel = markdown.split(separator: "\n").drop { !$0.hasPrefix("funnel (") }.dropFirst().prefix(2)
        #expect(funnel.count == 2 && funnel.allSatisfy { $0.hasPrefix("- **") }, "\(funnel)")
        #expect(plain.split(separator: "\n").contains { $0.hasPrefix("  treatment: ") })
        // A legend says what chance to win and risk mean, with risk's unit.
        #expect(plain.contains("risk: the expected loss of choosing the control or the treatment, as relative lift (0.01 = 1 % of the baseline)"))
    }

    @Test func aGuardrailThatMovesIsFlaggedButNeverCalledAWinnerOrLoser() {
        func comparison(_ metric: String, guardrail: Bool, expected: Double) -> AnalysisReport.Comparison {
            AnalysisReport.Comparison(variation: "b", baseline: "a", metric: metric, guardrail: guardrail, expected: expected,
                                      ci: [expected - 0.1, expected + 0.1], pValue: 0.001, pValueAdjusted: 0.002,
                                      chanceToWin: 0.99, risk: [0.1, 0], error: nil)
        }
        func variation(_ key: String) -> AnalysisReport.Variation {
            AnalysisReport.Variation(key: key, variationId: 0, feature: "F", units: 100,
                                     metrics: [.init(metric: "m", conversions: 50, rate: 0.5),
                                               .init(metric: "g", conversions: 10, rate: 0.1)],
                                     funnel: [], timeToConversion: .init(count: 0, medianSeconds: nil, p90Seconds: nil))
        }
        let experiment = AnalysisReport.Experiment(
            key: "e", primaryMetric: "m", guardrails: ["g"], weights: [0.5, 0.5], srmPValue: 0.5, multipleExposureUnits: 0,
            variations: [variation("a"), variation("b")],
            comparisons: [comparison("m", guardrail: false, expected: 0.3), comparison("g", guardrail: true, expected: -0.4)])
        let report = AnalysisReport(experiments: [experiment],
                                    log: .init(files: ["x"], lines: 1, badLines: 0, firstBadLines: []),
                                    alpha: 0.05, correction: .holm, elapsedSeconds: 0)
        let rows = TableReport.render(report, style: .terminal(colour: false)).split(separator: "\n")
        #expect(rows.contains { $0.contains(" m ") && $0.hasSuffix("WINNER") })
        // Declared higher-is-better: a fall is for the worse; declared inverse: for the better.
        #expect(rows.contains { $0.contains(" g ") && $0.hasSuffix("guardrail significantly down (worse)") })
        #expect(!rows.contains { $0.contains("LOSER") })
        var inverse = report
        inverse.experiments[0].comparisons[1].inverse = true
        let better = TableReport.render(inverse, style: .terminal(colour: false)).split(separator: "\n")
        #expect(better.contains { $0.contains(" g ") && $0.hasSuffix("guardrail significantly down (better)") })
        // A bare event name: no direction, the chance of a rise marked ↑ and explained.
        var bare = report
        bare.experiments[0].comparisons[1].directionDeclared = false
        let text = TableReport.render(bare, style: .terminal(colour: false))
        #expect(text.split(separator: "\n").contains { $0.contains(" g ") && $0.contains("↑ 99.0%")
            && $0.hasSuffix("guardrail significantly down") })
        #expect(text.contains("↑: a guardrail named by its event has no declared direction"))
    }
}

/// A relative CI reaching below −100 % is flagged instead of read.
@Suite struct TooWideIntervalTests {
    @Test func anIntervalBelowMinusOneHundredPercentSaysTooFewUnits() throws {
        var report = try ReportFormatTests.report()
        var comparison = try #require(report.experiments[0].comparisons.first)
        comparison.ci = [-1.05, 1.361]
        comparison.pValueAdjusted = 0.6
        comparison.error = nil
        report.experiments[0].comparisons = [comparison]
        let text = TableReport.render(report, style: .terminal(colour: false))
        #expect(text.contains("[-105.0%, +136.1%]") && text.contains("too few units to tell (CI below −100 %)"), "\(text)")
    }
}

/// Every experiment of the files that is absent from a log says why.
@Suite struct NotRunningExperimentsTests {
    @Test func statusScheduleAndAppExplainAnAbsentExperiment() throws {
        let definitions = AnalysisFixture.shippedDefinitions()
        let before = try #require(ISO8601DateFormatter().date(from: "2026-11-23T09:00:00Z"))
        let absent = Analyzer.notRunning(definitions, inLog: ["insertion-flow", "tablet-auto-message"], apps: ["marketplace"], now: before)
        #expect(absent.map(\.description) == ["calculator-entry: app calculator, not marketplace",
                                              "groupbrowser-navigation: app groupbrowser, not marketplace",
                                              "uk-manual-first: scheduled from 2026-12-01T00:00:00Z"])
        // Once the schedule has begun, a running experiment of the log's app had no exposure; the
        // apps of a log without run records are not known.
        let later = try #require(ISO8601DateFormatter().date(from: "2026-12-02T09:00:00Z"))
        #expect(Analyzer.notRunning(definitions, inLog: ["insertion-flow", "tablet-auto-message"], now: later).map(\.description)
                == ["calculator-entry: no exposure in the log", "groupbrowser-navigation: no exposure in the log",
                    "uk-manual-first: no exposure in the log"])
    }
}
