import Foundation
@testable import RemixAnalysis
@testable import RemixReports
@testable import RemixStatistics
import Testing

/// A baseline of 0 has no relative lift: every format says so and gives the absolute difference
/// with its interval (gbstats stops at ZERO_NEGATIVE_BASELINE_VARIATION, which the report once
/// printed as "+0.0% [+0.0%, +0.0%]", p 1, chance 50 %: no change), and the forest plot draws no
/// point on the no-effect line.
@Suite struct ZeroBaselineTests {
    static let units = 5000, treated = 487

    /// 5000 units per arm; `m` in a third of each, `g` in none of the control's and 487 of the treatment's.
    static func report(difference: DifferenceType = .relative) throws -> AnalysisReport {
        var lines: [String] = []
        for index in 0..<(2 * units) {
            let user = "u\(index)", arm = index % 2
            lines.append(AnalysisFixture.exposure(user, "e", arm == 0 ? "control" : "treatment", id: arm, at: 1))
            if index % 3 == 0 { lines.append(AnalysisFixture.event(user, "m", at: 2)) }
            if arm == 1, index / 2 < treated { lines.append(AnalysisFixture.event(user, "g", at: 3)) }
        }
        var options = AnalysisOptions(logs: [try AnalysisFixture.log(lines)], metrics: ["m", "g"], jobs: 2)
        options.difference = difference
        return try Analyzer.run(options)
    }

    @Test func theLiftIsUndefinedAndTheAbsoluteDifferenceHasItsInterval() throws {
        let report = try Self.report()
        let comparison = try #require(report.experiments.first?.comparisons.first { $0.metric == "g" })
        #expect(comparison.liftUndefined && comparison.error == nil)
        // Welch's interval of the difference, the control (all 0) adding no variance: n − 1 degrees of freedom.
        let rate = Double(Self.treated) / Double(Self.units)
        let half = StudentT.quantile(0.975, Double(Self.units - 1)) * (rate * (1 - rate) / Double(Self.units)).squareRoot()
        #expect(comparison.expected == rate)
        #expect(abs(comparison.ci[0] - (rate - half)) < 1e-15 && abs(comparison.ci[1] - (rate + half)) < 1e-15)
        #expect(comparison.pValue < 1e-10 && comparison.chanceToWin > 0.9999)
        let other = try #require(report.experiments.first?.comparisons.first { $0.metric == "m" })
        #expect(!other.liftUndefined)
    }

    @Test func everyFormatSaysSoAndGivesTheDifference() throws {
        let report = try Self.report()
        for style in [TableReport.Style.terminal(colour: false), .markdown] {
            let text = TableReport.render(report, style: style)
            let row = try #require(text.split(separator: "\n").first { $0.contains("treatment") && $0.contains(" g ") })
            #expect(row.contains("undefined (baseline 0)") && row.contains("difference +0.0974 [+0.08918, +0.1056]"), "\(row)")
            #expect(!row.contains("+0.0%") && !row.contains("50.0%"), "\(row)")
            #expect(text.contains(TableReport.liftUndefinedLegend))
        }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(JSONReport.render(report).utf8)) as? [String: Any])
        let comparisons = try #require(((json["experiments"] as? [[String: Any]])?.first?["comparisons"]) as? [[String: Any]])
        let g = try #require(comparisons.first { $0["metric"] as? String == "g" })
        #expect(g["expected"] is NSNull && g["ci"] is NSNull && g["risk"] is NSNull && g["error"] is NSNull)
        let absolute = try #require(g["absoluteDifference"] as? [String: Any])
        #expect((absolute["expected"] as? Double).map { abs($0 - 0.0974) < 1e-15 } == true)
        #expect((absolute["ci"] as? [Double])?.count == 2)
        #expect(comparisons.first { $0["metric"] as? String == "m" }?["absoluteDifference"] is NSNull)
        let csv = CSVReport.render(report).split(separator: "\n", omittingEmptySubsequences: false).map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let header = csv[0]
        let row = try #require(csv.first { $0.count > 5 && $0[1] == "treatment" && $0[5] == "g" })
        func cell(_ name: String) throws -> Substring { row[try #require(header.firstIndex(of: Substring(name)))] }
        #expect(try cell("expected").isEmpty && cell("ci_lower").isEmpty && cell("absolute_expected") == "0.0974")
        #expect(try Double(cell("absolute_ci_lower")).map { $0 > 0 } == true)
    }

    /// The forest plot has no point for the undefined lift, and says why in its place.
    @Test func theForestPlotDrawsNoPointAtZero() throws {
        let html = HTMLReport.render(try Self.report())
        let caption = try #require(html.range(of: "<figcaption>Secondary metrics: g"))
        let start = try #require(html.range(of: "<figure>", options: .backwards, range: html.startIndex..<caption.lowerBound))
        let svg = html[start.lowerBound..<caption.lowerBound]
        #expect(svg.contains("lift undefined (baseline 0)"))
        #expect(!svg.contains("<circle"))
        #expect(html.contains("data-json=\"/experiments/0/comparisons/1/absoluteDifference/expected\""))
    }

    /// With absolute differences the comparison is made too, rather than stopping at
    /// ZERO_NEGATIVE_BASELINE_VARIATION, and its lift is not called undefined (none was asked for).
    @Test func absoluteDifferencesCompareAZeroBaselineToo() throws {
        let comparison = try #require(try Self.report(difference: .absolute).experiments.first?.comparisons.first { $0.metric == "g" })
        #expect(!comparison.liftUndefined && comparison.error == nil && comparison.expected == 0.0974)
    }
}
