import Foundation
@testable import RemixAnalysis
import RemixCLITestSupport
@testable import RemixReports
@testable import RemixStatistics
import RemixTestSupport
import Testing

/// Values whose sums (or squares) pass the largest double: a mean of 3.4e306 over 100 units once
/// printed `-nan` (JSON `null`). The figures and lifts are those of the same values divided by a
/// power of two, exactly; a unit whose own sum passes the largest double is a clear per-metric
/// error; no format prints nan or inf.
@Suite struct LargeValueTests {
    static let catalog = MetricCatalog([
        MetricDefinition(key: "size", kind: .mean, event: "sized", value: "bytes"),
        MetricDefinition(key: "size-p90", kind: .quantile, event: "sized", value: "bytes", quantile: 0.9),
        MetricDefinition(key: "size-per-visit", kind: .ratio, numerator: "size", denominator: "visits"),
        MetricDefinition(key: "visits", kind: .mean, event: "sized"),
    ])

    /// 100 units per arm, each with one `sized` event of `scale` × a value between 1 and 1.1 (the
    /// treatment's 10 % lower); with `overflowing`, one unit has two events of 1.7e308.
    static func report(scale: Double, overflowing: Bool = false, difference: DifferenceType = .relative) throws -> AnalysisReport {
        var lines: [String] = []
        for index in 0..<200 {
            let user = "u\(index)", arm = index % 2
            lines.append(AnalysisFixture.exposure(user, "e", arm == 0 ? "control" : "treatment", id: arm, at: 1))
            let value = scale * (1 + Double(index % 11) / 100) * (arm == 0 ? 1 : 0.9)
            lines.append(AnalysisFixture.event(user, "sized", at: 2, extra: #","bytes":\#(value)"#))
        }
        if overflowing {
            for _ in 0..<2 { lines.append(AnalysisFixture.event("u0", "sized", at: 3, extra: #","bytes":1.7e308"#)) }
        }
        var options = AnalysisOptions(logs: [try AnalysisFixture.log(lines)], metrics: ["size", "size-p90", "size-per-visit"], jobs: 2)
        options.catalog = catalog
        options.difference = difference
        return try Analyzer.run(options)
    }

    static func rendered(_ report: AnalysisReport) -> [String] {
        [TableReport.render(report, style: .terminal(colour: false)), TableReport.render(report, style: .markdown),
         CSVReport.render(report), JSONReport.render(report), HTMLReport.render(report)]
    }

    /// Scaled by 2^1000 (values near 1e301, sums past 1.8e308): the relative results equal those
    /// of the unscaled values bit for bit, the figures and absolute differences are 2^1000 times theirs.
    @Test func sumsPastTheLargestDoubleGiveTheFiguresOfTheValuesScaledDown() throws {
        let factor = 0x1p1000
        let small = try Self.report(scale: 1), large = try Self.report(scale: factor)
        let smallExperiment = try #require(small.experiments.first), largeExperiment = try #require(large.experiments.first)
        for (a, b) in zip(smallExperiment.variations.flatMap(\.metrics), largeExperiment.variations.flatMap(\.metrics)) {
            #expect(b.error == nil && b.value.isFinite, "\(b.metric)")
            #expect(b.value == a.value * factor, "\(b.metric)")
        }
        #expect(largeExperiment.comparisons.count == 3)
        for (a, b) in zip(smallExperiment.comparisons, largeExperiment.comparisons) {
            #expect(b.error == nil, "\(b.metric): \(b.error ?? "")")
            #expect(a.expected == b.expected && a.ci == b.ci && a.pValue == b.pValue && a.chanceToWin == b.chanceToWin, "\(b.metric)")
            #expect(b.expected < -0.05, "\(b.metric): the treatment's values are 10 % lower")
        }
        let smallAbsolute = try Self.report(scale: 1, difference: .absolute).experiments[0].comparisons
        let largeAbsolute = try Self.report(scale: factor, difference: .absolute).experiments[0].comparisons
        for (a, b) in zip(smallAbsolute, largeAbsolute) {
            #expect(b.error == nil && b.expected == a.expected * factor && b.ci == a.ci.map { $0 * factor }, "\(b.metric)")
            #expect(b.pValue == a.pValue && b.risk == a.risk.map { $0 * factor }, "\(b.metric)")
        }
        for text in Self.rendered(large) + Self.rendered(try Self.report(scale: factor, difference: .absolute)) {
            #expect(!text.lowercased().contains("nan") && !text.contains("inf"))
        }
    }

    /// `remix plan --log` needs the figure and its variance per unit: one past the largest double
    /// is a message that says so (once it planned from `variance inf`, or `mean nan`).
    @Test(arguments: [false, true]) func planRefusesAFigurePastTheLargestDouble(overflowing: Bool) async throws {
        let folder = try TemporaryFolder()
        let report = try Self.report(scale: 0x1p1000, overflowing: overflowing)
        try folder.write("experiments/metrics.yaml", "metrics:\n  - {key: size, type: mean, event: sized, value: bytes}\n")
        try folder.write("events.jsonl", try String(contentsOfFile: report.log.files[0], encoding: .utf8))
        let plan = await RemixInProcess.run(["plan", "--log", folder.path("events.jsonl"), "--experiments", folder.path("experiments"),
                                              "--experiment", "e", "--metric", "size", "--traffic", "100"])
        #expect(plan.status == 1 && plan.stderr.contains("size in e: ") && plan.stderr.contains("plan with --mean and --stddev"),
                "\(plan.stdout)\(plan.stderr)")
        #expect(!(plan.stdout + plan.stderr).lowercased().contains("nan") && !(plan.stdout + plan.stderr).contains("inf"))
    }

    /// A unit whose own sum passes the largest double: the metrics that sum the field say so, in
    /// a warning and in their comparisons, with no figure; nothing prints nan or inf.
    @Test func aUnitSumPastTheLargestDoubleIsAPerMetricError() throws {
        let report = try Self.report(scale: 1e300, overflowing: true)
        let experiment = try #require(report.experiments.first)
        let message = ValueScale.overflowMessage(field: "bytes")
        #expect(experiment.comparisons.count == 3)
        for comparison in experiment.comparisons {
            #expect(comparison.error == message, "\(comparison.metric)")
        }
        #expect(experiment.variations[0].metrics.first { $0.metric == "size" }?.error == message)
        #expect(report.warnings.contains("e: size: \(message)"))
        let table = TableReport.render(report, style: .terminal(colour: false))
        #expect(table.contains(TableReport.figureMissing) && table.contains("warning: e: size: \(message)"))
        for text in Self.rendered(report) {
            #expect(!text.lowercased().contains("nan") && !text.contains("inf"))
        }
    }
}
