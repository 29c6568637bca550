import Foundation
@testable import RemixAnalysis
import RemixLogReader
@testable import RemixReports
import Testing

/// `--by hour|day`: at every whole hour the results are those of the log cut there — units
/// exposed and events that happened before the cut — and the last cut is the whole log.
@Suite struct OverTimeTests {
    /// 120 users exposed over three hours from 08:00 (timestamps are seconds after 08:00), each
    /// converting 20–100 minutes later or not at all.
    static func scenario() -> (lines: [String], exposed: [Int], converted: [Int?]) {
        var lines: [String] = [], exposed: [Int] = [], converted: [Int?] = []
        for index in 0..<120 {
            let second = 30 + index * 90
            exposed.append(second)
            lines.append(MetricsAnalysisTests.exposureLine("u\(index)", variation: index % 2, second: second))
            let at: Int? = index % 3 == 0 ? nil : second + 1200 + (index * 37 % 4800)
            converted.append(at)
            if let at { lines.append(DimensionAnalysisTests.line(at, "published", "u\(index)")) }
        }
        return (lines.reversed(), exposed, converted)
    }

    @Test(arguments: [1, 2]) func everyCutEqualsTheLogCutThere(jobs: Int) throws {
        let (lines, exposed, converted) = Self.scenario()
        var options = AnalysisOptions(logs: [try AnalysisFixture.log(lines)], metrics: ["published"], jobs: jobs)
        options.by = .hour
        options.readSizes = LogReader.Sizes(chunk: 301, parallelMinimum: 64, maxLineLength: 1 << 20)
        let report = try Analyzer.run(options)
        let experiment = try #require(report.experiments.first)
        let times: [Int] = converted.compactMap { (at: Int?) -> Int? in at } + exposed
        let last: Int = times.max() ?? 0
        let hours: ClosedRange<Int> = 1...(last / 3600 + 1)
        let expectedCuts: [String] = hours.map { (hour: Int) -> String in String(format: "2026-11-23T%02d:00:00Z", 8 + hour) }
        let cuts: [String] = experiment.overTime.map(\.untilText)
        #expect(cuts == expectedCuts)
        for point in experiment.overTime {
            let seconds: Int = Int(point.until / 1000) - 1_795_420_800  // after 2026-11-23T08:00:00Z
            for (slot, variation) in point.variations.enumerated() {
                let users: [Int] = exposed.indices.filter { (user: Int) -> Bool in user % 2 == slot && exposed[user] < seconds }
                let conversions: Int = users.filter { (user: Int) -> Bool in (converted[user] ?? .max) < seconds }.count
                #expect(variation.units == users.count, "\(point.untilText)")
                #expect(variation.metrics[0].conversions == conversions)
            }
            #expect(point.comparisons.count == 1)
        }
        let lastUnits: [Int]? = experiment.overTime.last?.variations.map(\.units)
        let units: [Int] = experiment.variations.map(\.units)
        #expect(lastUnits == units)
        let lastPValue: Double? = experiment.overTime.last?.comparisons.first?.pValue
        let pValue: Double? = experiment.comparisons.first?.pValue
        #expect(lastPValue == pValue)
        let csv: [Substring] = CSVReport.render(report).split(separator: "\n")
        #expect(csv.first == "experiment,until,variation,units,metric,conversions,value,expected,ci_lower,ci_upper,p_value,p_value_adjusted,chance_to_win,error,absolute_expected,absolute_ci_lower,absolute_ci_upper")
        #expect(csv.count == 1 + experiment.overTime.count * 2)
        #expect(JSONReport.render(report).contains(#""overTime":[{"until":"2026-11-23T09:00:00Z","variations":[{"key":"control","units":"#))
        #expect(TableReport.render(report, style: .terminal(colour: false)).contains("over time (cumulative, by hour; published vs control):"))
    }

    @Test func tooManyCutsIsAnError() throws {
        let lines = [MetricsAnalysisTests.exposureLine("a", variation: 0, second: 10),
                     #"{"ts":"2027-06-01T00:00:00.000Z","type":"published","user":"a"}"#]
        var options = AnalysisOptions(logs: [try AnalysisFixture.log(lines)], metrics: ["published"], jobs: 1)
        options.by = .hour
        #expect(throws: AnalysisError.self) { try Analyzer.run(options) }
        options.by = .day
        #expect(try Analyzer.run(options).experiments.first?.overTime.count == 191)
    }
}
