import Foundation
@testable import RemixAnalysis
@testable import RemixLogReader
@testable import RemixReports
@testable import RemixStatistics
import RemixTestSupport
import Testing

/// Mean, ratio and windowed metrics against an independent computation on a small written log,
/// with 1 and 2 threads and reads small enough to cross chunk and part boundaries.
@Suite struct MetricsAnalysisTests {
    struct Event {
        var user: String
        var type: String
        var second: Int
        var extra = ""
        var duration: Double?
    }

    static func timestamp(_ second: Int) -> String {
        String(format: "2026-11-23T%02d:%02d:%02d.000Z", 8 + second / 3600, second / 60 % 60, second % 60)
    }

    static let catalog = MetricCatalog([
        MetricDefinition(key: "time", kind: .mean, event: "session_ended", value: "durationMs"),
        MetricDefinition(key: "sessions", kind: .mean, event: "session_ended"),
        MetricDefinition(key: "per-session", kind: .ratio, numerator: "time", denominator: "sessions", inverse: true),
        MetricDefinition(key: "capped", kind: .mean, event: "session_ended", value: "durationMs", capAbsolute: 5000),
        MetricDefinition(key: "first-hour", kind: .proportion, event: "published", windowHours: 1),
        MetricDefinition(key: "published-share", kind: .ratio, numerator: "first-hour", denominator: "sessions"),
    ])

    /// 41 users in two variations (one exposed to both); events before exposure, outside the
    /// window, without the value or with a value that is not a number; some lines before the
    /// user's exposure line.
    static func scenario() -> (lines: [String], exposures: [String: (variation: Int, second: Int)], events: [Event]) {
        var exposures: [String: (Int, Int)] = [:]
        var events: [Event] = []
        var lines: [String] = []
        for index in 0..<40 {
            let user = "u\(index)", variation = index % 2, exposed = 600 + index * 7
            exposures[user] = (variation, exposed)
            for session in 0..<(index % 4) {
                let duration = Double(1000 + 997 * ((index * 3 + session) % 9) + variation * 800)
                events.append(Event(user: user, type: "session_ended", second: exposed - 100 + session * 1500,
                                    extra: #","durationMs":\#(Int(duration)),"steps":3"#, duration: duration))
            }
            if index % 5 == 0 { events.append(Event(user: user, type: "session_ended", second: exposed + 10)) }
            if index % 6 == 1 {
                events.append(Event(user: user, type: "session_ended", second: exposed + 20, extra: #","durationMs":"slow""#))
            }
            if index % 3 == 0 { events.append(Event(user: user, type: "published", second: exposed + (index % 2 == 0 ? 1800 : 7300))) }
        }
        for event in events.filter({ $0.user.hasSuffix("7") }) {  // some events come before their exposure line
            lines.append(#"{"ts":"\#(timestamp(event.second))","type":"\#(event.type)","user":"\#(event.user)"\#(event.extra)}"#)
        }
        for (user, exposure) in exposures.sorted(by: { $0.key < $1.key }) {
            lines.append(exposureLine(user, variation: exposure.0, second: exposure.1))
        }
        for event in events.filter({ !$0.user.hasSuffix("7") }) {
            lines.append(#"{"ts":"\#(timestamp(event.second))","type":"\#(event.type)","user":"\#(event.user)"\#(event.extra)}"#)
        }
        lines.append(exposureLine("both", variation: 0, second: 10))
        lines.append(exposureLine("both", variation: 1, second: 20))
        lines.append(#"{"ts":"\#(timestamp(30))","type":"session_ended","user":"both","durationMs":5}"#)
        return (lines, exposures, events)
    }

    static func exposureLine(_ user: String, variation: Int, second: Int) -> String {
        let key = ["control", "treatment"][variation]
        return #"{"ts":"\#(timestamp(second))","type":"exposure","user":"\#(user)","experiment":"e","variation":"\#(key)","variationId":\#(variation),"hashUsed":true,"inExperiment":true}"#
    }

    /// The expected per-variation statistics, computed directly from the events.
    static func expected(_ exposures: [String: (variation: Int, second: Int)], _ events: [Event])
        -> [String: [MetricStatistic]] {
        var result: [String: [MetricStatistic]] = [:]
        for variation in 0..<2 {
            let users = exposures.filter { $0.value.variation == variation }
            var time = MeanSample(units: users.count, sum: 0, sumSquares: 0), sessions = time, capped = time
            var products = 0.0, firstHour = 0, shareProducts = 0.0
            for (user, exposure) in users {
                let after = events.filter { $0.user == user && $0.second >= exposure.second }
                let ended = after.filter { $0.type == "session_ended" }
                let total = ended.compactMap(\.duration).reduce(0, +), count = Double(ended.count)
                time.sum += total
                time.sumSquares += total * total
                sessions.sum += count
                sessions.sumSquares += count * count
                capped.sum += min(total, 5000)
                capped.sumSquares += min(total, 5000) * min(total, 5000)
                products += total * count
                let published = after.contains { $0.type == "published" && $0.second < exposure.second + 3600 }
                firstHour += published ? 1 : 0
                shareProducts += (published ? 1 : 0) * count
            }
            let hour = ProportionSample(units: users.count, conversions: firstHour)
            result["time", default: []].append(.mean(time))
            result["sessions", default: []].append(.mean(sessions))
            result["capped", default: []].append(.mean(capped))
            result["first-hour", default: []].append(.proportion(hour))
            result["per-session", default: []].append(.ratio(RatioSample(
                units: users.count, numerator: RatioPart(time), denominator: RatioPart(sessions), sumOfProducts: products)))
            result["published-share", default: []].append(.ratio(RatioSample(
                units: users.count, numerator: RatioPart(hour), denominator: RatioPart(sessions), sumOfProducts: shareProducts)))
        }
        return result
    }

    /// With the events kept by the first pass (the default budget) and, with no budget, read again.
    @Test(arguments: [1, 2], [0, 128 << 20]) func meanRatioAndWindowEqualADirectComputation(jobs: Int, keptBytes: Int) throws {
        let (lines, exposures, events) = Self.scenario()
        let keys = ["time", "sessions", "per-session", "capped", "first-hour", "published-share"]
        let (report, experiment) = try AnalysisFixture.experiment(
            lines, metrics: keys, catalog: Self.catalog, jobs: jobs, keptBytes: keptBytes, expected: Self.expected(exposures, events))
        for (slot, variation) in experiment.variations.enumerated() {
            let time = try #require(variation.metrics.first { $0.metric == "time" })
            let withoutValue = events.filter { event in
                exposures[event.user]?.variation == slot && event.type == "session_ended" && event.duration == nil
                    && !event.extra.contains("slow")
            }.count
            #expect(time.missingValues == withoutValue)
            #expect(time.nonNumericValues == events.filter { exposures[$0.user]?.variation == slot && $0.extra.contains("slow") }.count)
            #expect(time.type == "mean")
            #expect(variation.metrics.first { $0.metric == "per-session" }?.type == "ratio")
        }
        #expect(report.warnings.contains { $0.contains("time counts") })
        let comparison = try #require(experiment.comparisons.first { $0.metric == "per-session" })
        #expect(comparison.inverse)
        #expect(comparison.error == nil)
        // Lower is better: chance to win is the chance of a fall and the risks trade places (gbstats' inverse).
        let statistics = experiment.variations.map { variation in variation.metrics.first { $0.metric == "per-session" } }
        let control = try #require(statistics.first ?? nil), treatment = try #require(statistics.last ?? nil)
        let (_, upward) = ComparisonBuilder.tests(control.statistic, treatment.statistic, settings: TestSettings())
        #expect(comparison.chanceToWin == 1 - upward.chanceToWin)
        #expect(comparison.risk == [upward.risk[1], upward.risk[0]])
    }

    /// The second pass skips lines without the metric's event quoted, but never one whose type
    /// is spelt with an escape; the first pass keeps them too.
    @Test(arguments: [0, 128 << 20]) func theSecondPassPrefilterKeepsEscapedTypes(keptBytes: Int) throws {
        let lines = [
            Self.exposureLine("a", variation: 0, second: 1), Self.exposureLine("b", variation: 1, second: 1),
            #"{"ts":"\#(Self.timestamp(2))","type":"session\u005fended","user":"a","durationMs":7}"#,
            #"{"ts":"\#(Self.timestamp(2))","type":"session_ended","user":"b","durationMs":5}"#,
            #"{"ts":"\#(Self.timestamp(2))","type":"session_ended_not","user":"b","durationMs":50}"#,
        ]
        var options = AnalysisOptions(logs: [try AnalysisFixture.log(lines)], metrics: ["time"], jobs: 1)
        options.catalog = Self.catalog
        options.keptEventBytes = keptBytes
        let variations = try #require(try Analyzer.run(options).experiments.first).variations
        #expect(variations.map { $0.metrics[0].value } == [7, 5])
        let needle = [[UInt8]](arrayLiteral: Array(#""session_ended""#.utf8))
        for (text, holds) in [(#"{"type":"session_ended"}"#, true), (#"{"type":"session_ende"}"#, false),
                              (#"{"x":"a\"}"#, true), ("\"", false), ("", false)] {
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBufferPointer { LineSplitter.mayHold($0, needle) } == holds, "\(text)")
        }
    }

    /// Value metrics whose events exceed the first pass's budget read the log twice: standard
    /// input cannot be; within the budget it is read once, from a pipe too.
    @Test func onlyRegularFilesAreReadTwiceAndAPipeWithinTheBudgetIsReadOnce() throws {
        #expect(LogReader.isRereadable("-") == false)
        let path = try AnalysisFixture.log(Self.scenario().lines)
        #expect(LogReader.isRereadable(path))
        let folder = try TemporaryFolder()
        try "metrics:\n  - {key: time, type: mean, event: session_ended, value: durationMs}\n"
            .write(to: folder.url.appendingPathComponent("m.yaml"), atomically: true, encoding: .utf8)
        let piped = try RemixProcess.run(["analyze", "-", "--metrics", "m.yaml", "--metric", "time", "--format", "csv"],
                                         in: folder.url, input: Self.scenario().lines.joined(separator: "\n") + "\n")
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout.contains(",time,") && piped.stdout.contains(",mean,"))
    }

    /// The chunk search for the second pass: each needle and backslash found front to back, at
    /// the start and end of the bytes, with anchors that repeat.
    @Test func theChunkSearchFindsEveryNeedle() {
        let needles = [Array(#""a_b""#.utf8), Array(#""xyz""#.utf8)]
        for (text, from, expected) in [(#""a_b" "xyz""#, 0, 0), (#"__"a_b""#, 0, 2), (#""a__"a_b""#, 0, 4), (#"q "xyz""#, 1, 2),
                                       (#"  \ "a_b""#, 0, 2), (#"nothing here"#, 0, 12), (#""a_"#, 0, 3)] {
            let bytes = Array(text.utf8)
            var hits = [-1, -1, -1]
            let nearest = bytes.withUnsafeBufferPointer { buffer in
                LineSplitter.nearestHit(&hits, buffer.baseAddress!, from: from, count: buffer.count, needles)
            }
            #expect(nearest == expected, "\(text)")
        }
    }

    @Test func theReportsCarryTypeValueAndAnInverseWinner() throws {
        var lines: [String] = []
        for index in 0..<400 {
            let variation = index % 2
            lines.append(Self.exposureLine("u\(index)", variation: variation, second: 10))
            let failures = variation == 0 ? index % 3 : (index % 7 == 0 ? 1 : 0)
            for failure in 0..<failures {
                lines.append(#"{"ts":"\#(Self.timestamp(20 + failure))","type":"publish_failed","user":"u\#(index)"}"#)
            }
        }
        let path = try AnalysisFixture.log(lines)
        var options = AnalysisOptions(logs: [path], metrics: ["failures"], jobs: 1)
        options.catalog = MetricCatalog([MetricDefinition(key: "failures", kind: .mean, event: "publish_failed", inverse: true)])
        let report = try Analyzer.run(options)
        let table = TableReport.render(report, style: .terminal(colour: false))
        #expect(table.contains("failures (mean) ↓"))
        #expect(table.split(separator: "\n").contains { $0.contains("treatment") && $0.hasSuffix("WINNER") })
        let json = JSONReport.render(report)
        #expect(json.contains(#""type":"mean""#) && json.contains(#""inverse":true"#) && json.contains(#""value":"#))
        let csv = CSVReport.render(report)
        #expect(csv.contains(",mean,") && csv.contains(",true,0,0"))
    }
}
