import Foundation
@testable import RemixAnalysis
import RemixKit
import RemixLogReader
@testable import RemixReports
import Testing

/// Time to conversion runs from the first exposure to the first primary-metric event at or after
/// it, however the log is ordered or split; conversions count only such events.
@Suite struct TimeToConversionTests {
    static func line(_ user: String, _ type: String, _ time: String, extra: String = "") -> String {
        #"{"ts":"2026-11-23T\#(time).000Z","type":"\#(type)","session":"s","user":"\#(user)"\#(extra)}"#
    }

    static func exposure(_ user: String, _ variation: String, _ time: String) -> String {
        line(user, "exposure", time, extra: #","experiment":"e","variation":"\#(variation)","variationId":0,"feature":"F","hashUsed":true,"inExperiment":true"#)
    }

    /// The defect as found: events at 09:00:01, 09:00:10 and 09:01:40 around an exposure at
    /// 09:00:05 gave 95 s (last − first); it is 5 s.
    @Test(arguments: [1, 2])
    func theFirstEventAfterTheExposureCountsNotTheLast(jobs: Int) throws {
        let lines = [
            Self.line("u", "advert_published", "09:00:01"),
            Self.line("u", "advert_published", "09:00:10"),
            Self.line("u", "advert_published", "09:01:40"),
            Self.exposure("u", "a", "09:00:05"),
            Self.exposure("v", "a", "09:00:00"),
            Self.line("v", "advert_published", "09:00:30"),
        ]
        // Every order of the lines, read whole and in tiny parts on several threads.
        for rotation in 0..<lines.count {
            let path = try AnalysisFixture.log(Array(lines[rotation...] + lines[..<rotation]))
            var options = AnalysisOptions(logs: [path], metrics: ["advert_published"], jobs: jobs)
            if jobs > 1 { options.readSizes = LogReader.Sizes(chunk: 64, parallelMinimum: 0) }
            let variation = try #require(try Analyzer.run(options).experiments.first?.variations.first)
            #expect(variation.metrics[0].conversions == 2)
            #expect(variation.timeToConversion.count == 2)
            #expect(variation.timeToConversion.medianSeconds == 17.5, "(5 + 30) / 2")
            #expect(variation.timeToConversion.p90Seconds == 27.5)
        }
    }

    @Test func eventsOnlyBeforeTheExposureAreNoConversionAtAll() throws {
        let path = try AnalysisFixture.log([
            Self.line("u", "advert_published", "09:00:01"),
            Self.line("u", "insertion_cancelled", "09:00:02"),
            Self.exposure("u", "a", "09:00:05"),
            Self.line("u", "insertion_cancelled", "09:00:05"),
        ])
        let report = try Analyzer.run(AnalysisOptions(logs: [path], metrics: ["advert_published", "insertion_cancelled"], jobs: 1))
        let variation = try #require(report.experiments.first?.variations.first)
        #expect(variation.metrics.map(\.conversions) == [0, 1], "an event at the exposure's time counts")
        #expect(variation.timeToConversion == .init(count: 0, medianSeconds: nil, p90Seconds: nil))
    }

    /// More distinct event times before the exposure than are kept: the conversion counts, its
    /// time is left out and said so, never replaced by a wrong one.
    @Test func aUnitWithTooManyEarlierEventsIsLeftOutOfTheTimesAndNamed() throws {
        var lines = (0..<EarliestTimes.kept).map { Self.line("u", "advert_published", String(format: "09:00:%02d", $0)) }
        lines += [Self.exposure("u", "a", "09:00:30"), Self.line("u", "advert_published", "09:00:40")]
        lines += [Self.exposure("v", "a", "09:00:30"), Self.line("v", "advert_published", "09:00:33")]
        let path = try AnalysisFixture.log(lines)
        let report = try Analyzer.run(AnalysisOptions(logs: [path], metrics: ["advert_published"], jobs: 1))
        let variation = try #require(report.experiments.first?.variations.first)
        #expect(variation.metrics[0].conversions == 2)
        #expect(variation.timeToConversion == .init(count: 1, medianSeconds: 3, p90Seconds: 3, unknown: 1))
        #expect(report.warnings == ["e: time to advert_published leaves out 1 converted unit(s) with 8 or more distinct "
                                    + "advert_published times before their first exposure"])
        #expect(JSONReport.render(report).contains(#""timeToConversion":{"count":1,"medianSeconds":3,"p90Seconds":3,"unknown":1}"#))
    }

    /// Kept times of split parts merge to exactly what one pass keeps, for random splits.
    @Test func earliestTimesMergeExactly() {
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<300 {
            let times = (0..<Int.random(in: 1...20, using: &generator)).map { _ in Int64.random(in: 0..<15, using: &generator) }
            var whole = EarliestTimes()
            var parts = [EarliestTimes(), EarliestTimes(), EarliestTimes()]
            for time in times {
                whole.add(unit: 0, time: time)
                parts[Int.random(in: 0..<3, using: &generator)].add(unit: 0, time: time)
            }
            var merged = EarliestTimes()
            for part in parts.shuffled(using: &generator) { merged.merge(part, unitMap: [0]) }
            let distinct = Set(times).sorted()
            for exposure in Int64(-1)...15 {
                let truth = distinct.first { $0 >= exposure }
                let lookup = merged.firstTime(unit: 0, atOrAfter: exposure)
                #expect(lookup == whole.firstTime(unit: 0, atOrAfter: exposure))
                switch lookup {
                case .time(let time): #expect(time == truth)
                case .none: #expect(truth == nil)
                case .unknown: #expect(distinct.filter { $0 < exposure }.count >= EarliestTimes.kept)
                }
            }
        }
    }
}
