import Foundation
@testable import RemixAnalysis
import RemixLogReader
@testable import RemixReports
import Testing

/// Memory stays bounded whatever the log holds: over-long lines are skipped without being kept,
/// and the funnel follows a bounded number of screens.
@Suite struct BoundedMemoryTests {
    static let good = AnalysisFixture.exposure("a", "e", "control", id: 0, at: 1)

    @Test(arguments: [(1, 7), (1, 4096), (2, 16)])
    func anOverLongLineIsOneBadLineAndReadingGoesOnAfterIt(jobs: Int, chunk: Int) throws {
        let long = #"{"ts":"2026-11-23T09:00:01.000Z","type":"x","user":"u","pad":""# + String(repeating: "z", count: 5000) + #""}"#
        let path = try AnalysisFixture.log([Self.good, long, AnalysisFixture.exposure("b", "e", "treatment", id: 1, at: 2)])
        var options = AnalysisOptions(logs: [path], metrics: ["m"], jobs: jobs)
        options.readSizes = LogReader.Sizes(chunk: chunk, parallelMinimum: 0, maxLineLength: 300)
        let report = try Analyzer.run(options)
        #expect(report.log.lines == 3)
        #expect(report.log.firstBadLines == [BadLine(path: path, line: 2, reason: .tooLong(limit: 300))])
        #expect(!report.log.tornFinalLine)
        #expect(report.experiments.first?.variations.map(\.units) == [1, 1])
    }

    @Test func anEndlessLineWithoutNewlineIsATornBadLine() throws {
        let path = try AnalysisFixture.log([Self.good, String(repeating: "\u{0}", count: 10_000)], torn: true)
        var options = AnalysisOptions(logs: [path], metrics: ["m"], jobs: 1)
        options.readSizes = LogReader.Sizes(chunk: 64, parallelMinimum: 0, maxLineLength: 256)
        let report = try Analyzer.run(options)
        #expect(report.log.lines == 2 && report.log.badLines == 1)
        #expect(report.log.firstBadLines.map(\.reason) == [.tooLong(limit: 256)])
        #expect(report.log.tornFiles == [path])
    }

    @Test func aLineAtTheLimitIsRead() throws {
        let path = try AnalysisFixture.log([Self.good, #"{"ts":"2026-11-23T09:00:01.000Z","type":"m","user":"u"}"#])
        var options = AnalysisOptions(logs: [path], metrics: ["m"], jobs: 1)
        options.readSizes = LogReader.Sizes(chunk: 8, parallelMinimum: 0, maxLineLength: Self.good.utf8.count)
        #expect(try Analyzer.run(options).log.badLines == 0)
        options.readSizes.maxLineLength -= 1
        #expect(try Analyzer.run(options).log.badLines == 1)
    }

    /// 40 screens, seen by more and more units: the funnel follows 32 with exact counts and counts
    /// the rest together, and says so.
    static func manyScreens() throws -> String {
        var lines: [String] = []
        for unit in 0..<80 {
            let user = "u\(unit)"
            lines.append(AnalysisFixture.exposure(user, "e", unit % 2 == 0 ? "control" : "treatment", id: unit % 2, at: 10))
            for screen in 0..<(unit % 40 + 1) {
                lines.append(AnalysisFixture.event(user, "screen", at: screen % 3 == 0 ? 5 : 20,
                                                   extra: #","screen":"s\#(screen)(ctx)""#))
            }
        }
        return try AnalysisFixture.log(lines)
    }

    @Test(arguments: [(1, 1 << 20), (2, 512), (3, 2048)])
    func theFunnelFollowsABoundedNumberOfScreensWithExactCounts(jobs: Int, chunk: Int) throws {
        let path = try Self.manyScreens()
        var options = AnalysisOptions(logs: [path], metrics: ["m"], jobs: jobs)
        options.readSizes = LogReader.Sizes(chunk: chunk, parallelMinimum: 0)
        let report = try Analyzer.run(options)
        let experiment = try #require(report.experiments.first)
        let warning = try #require(report.log.funnelWarning)
        #expect(report.warnings == [warning])
        #expect(warning.contains("more than \(ScreenTally.limit) screens"))
        for (slot, variation) in experiment.variations.enumerated() {
            let units = (0..<80).filter { $0 % 2 == slot }
            let named = variation.funnel.filter { $0.screen != ScreenTally.otherName }
            #expect(named.count <= ScreenTally.limit)
            for step in named {
                let screen = try #require(Int(step.screen.dropFirst()))
                // Shown after the exposure (t = 20 > 10) to units that saw at least screen + 1 screens.
                let expected = screen % 3 == 0 ? 0 : units.filter { $0 % 40 >= screen }.count
                #expect(step.units == expected, "\(step.screen)")
            }
            let other = try #require(variation.funnel.last)
            #expect(other.screen == ScreenTally.otherName)
            let followed = Set(named.map(\.screen))
            let expectedOther = units.filter { unit in
                (0...(unit % 40)).contains { $0 % 3 != 0 && !followed.contains("s\($0)") }
            }.count
            #expect(other.units == expectedOther)
        }
        let json = JSONReport.render(report)
        #expect(json.contains(#""(other screens)":{"units""#))
        #expect(json.contains(#""otherScreenEvents":"#))
        let table = TableReport.render(report, style: .terminal(colour: false))
        #expect(table.contains("warning: " + warning))
    }

    @Test func aFewScreensAreAllFollowedWithoutWarning() throws {
        let path = try AnalysisFixture.log([Self.good, AnalysisFixture.event("a", "screen", at: 2, extra: #","screen":"title""#)])
        let report = try Analyzer.run(AnalysisOptions(logs: [path], metrics: ["m"], jobs: 1))
        #expect(report.log.otherScreenEvents == nil && report.warnings.isEmpty)
        #expect(report.experiments.first?.variations.first?.funnel.map(\.screen) == ["title"])
    }
}
