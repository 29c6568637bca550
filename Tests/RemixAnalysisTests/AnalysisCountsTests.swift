import Foundation
@testable import RemixAnalysis
import RemixLogReader
@testable import RemixReports
import Testing

/// Counts from the byte scanner against an independent reading of the same log with
/// Foundation's JSON parser.
@Suite struct AnalysisCountsTests {
    /// (experiment, variation) → (units, conversions) computed the slow, obvious way.
    static func independentCounts(_ path: String, metric: String) throws -> [String: [Int]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var exposures: [String: [String: (variations: Set<String>, first: String)]] = [:]
        var last: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let type = object["type"] as? String, let user = object["user"] as? String,
                  let ts = object["ts"] as? String else { continue }
            if type == "exposure", object["inExperiment"] as? Bool == true, object["hashUsed"] as? Bool == true,
               let experiment = object["experiment"] as? String, let variation = object["variation"] as? String {
                let old = exposures[experiment, default: [:]][user]
                exposures[experiment, default: [:]][user] = (
                    (old?.variations ?? []).union([variation]), min(old?.first ?? ts, ts))
            } else if type == metric {
                last[user] = max(last[user] ?? ts, ts)
            }
        }
        var counts: [String: [Int]] = [:]
        for (experiment, units) in exposures {
            for (user, exposure) in units where exposure.variations.count == 1 {
                let key = "\(experiment)/\(exposure.variations.first ?? "")"
                var count = counts[key, default: [0, 0]]
                count[0] += 1
                if let converted = last[user], converted >= exposure.first { count[1] += 1 }
                counts[key] = count
            }
        }
        return counts
    }

    static func scannerCounts(_ report: AnalysisReport, metric: String) -> [String: [Int]] {
        var counts: [String: [Int]] = [:]
        for experiment in report.experiments {
            for variation in experiment.variations where variation.units > 0 {
                let conversions = variation.metrics.first { $0.metric == metric }?.conversions ?? -1
                counts["\(experiment.key)/\(variation.key)"] = [variation.units, conversions]
            }
        }
        return counts
    }

    @Test(arguments: [1, 2])
    func simulatedLogCountsMatchAnIndependentReading(jobs: Int) throws {
        let path = try AnalysisFixture.simulatedLog(sessions: 1500)
        for metric in ["advert_published", "insertion_cancelled"] {
            let report = try Analyzer.run(AnalysisOptions(logs: [path], definitions: AnalysisFixture.shippedDefinitions(),
                                                          metrics: [metric], jobs: jobs))
            let expected = try Self.independentCounts(path, metric: metric)
            #expect(!expected.isEmpty)
            #expect(Self.scannerCounts(report, metric: metric) == expected)
            #expect(report.log.badLines == 0)
        }
    }

    @Test(arguments: [(1, 1), (2, 1), (2, 3), (3, 4096)])
    func smallReadsAndManyPartsGiveTheSameCounts(jobs: Int, chunk: Int) throws {
        let path = try AnalysisFixture.simulatedLog(sessions: 300)
        var whole = AnalysisOptions(logs: [path], definitions: AnalysisFixture.shippedDefinitions(), jobs: 1)
        let expected = try Analyzer.run(whole)
        whole.jobs = jobs
        whole.readSizes = LogReader.Sizes(chunk: chunk, parallelMinimum: 0)
        let split = try Analyzer.run(whole)
        #expect(JSONReport.render(split) == JSONReport.render(expected))
        #expect(split.log.lines == expected.log.lines && split.log.badLines == 0)
    }

    @Test func conversionsCountOnlyAtOrAfterTheFirstExposure() throws {
        let path = try AnalysisFixture.log([
            AnalysisFixture.event("a", "advert_published", at: 1),
            AnalysisFixture.exposure("a", "e", "control", id: 0, at: 2),
            AnalysisFixture.exposure("b", "e", "control", id: 0, at: 3),
            AnalysisFixture.event("b", "advert_published", at: 3),
            AnalysisFixture.exposure("c", "e", "treatment", id: 1, at: 4),
            AnalysisFixture.event("c", "advert_published", at: 9),
            AnalysisFixture.exposure("d", "e", "treatment", id: 1, at: 5, hashUsed: false),
            AnalysisFixture.exposure("f", "e", "treatment", id: 1, at: 5, inExperiment: false),
        ])
        let report = try Analyzer.run(AnalysisOptions(logs: [path], metrics: ["advert_published"], jobs: 1))
        let experiment = try #require(report.experiments.first)
        #expect(experiment.variations.map(\.key) == ["control", "treatment"])
        #expect(experiment.variations.map(\.units) == [2, 1])
        #expect(experiment.variations.map { $0.metrics[0].conversions } == [1, 1])
        #expect(experiment.variations[1].timeToConversion.medianSeconds == 5)
        #expect(experiment.variations.map(\.feature) == ["F0", "F1"])
    }

    @Test func unitsSeenInTwoVariationsAreExcludedAndCounted() throws {
        let path = try AnalysisFixture.log([
            AnalysisFixture.exposure("a", "e", "control", id: 0, at: 1),
            AnalysisFixture.exposure("a", "e", "treatment", id: 1, at: 2),
            AnalysisFixture.exposure("b", "e", "control", id: 0, at: 3),
            AnalysisFixture.exposure("b", "e", "control", id: 0, at: 4),
            AnalysisFixture.exposure("c", "e", "treatment", id: 1, at: 5),
        ])
        let report = try Analyzer.run(AnalysisOptions(logs: [path], metrics: ["advert_published"], jobs: 1))
        let experiment = try #require(report.experiments.first)
        #expect(experiment.multipleExposureUnits == 1)
        #expect(experiment.variations.map(\.units) == [1, 1])
    }

    @Test func logsGivenAsGlobsAndSeveralFilesAddUp() throws {
        let first = try AnalysisFixture.log([AnalysisFixture.exposure("a", "e", "control", id: 0, at: 1)])
        let folder = URL(fileURLWithPath: first).deletingLastPathComponent()
        try (AnalysisFixture.exposure("b", "e", "treatment", id: 1, at: 2) + "\n")
            .write(to: folder.appendingPathComponent("more.jsonl"), atomically: true, encoding: .utf8)
        let report = try Analyzer.run(AnalysisOptions(logs: [folder.path + "/*.jsonl"], metrics: ["x"], jobs: 1))
        #expect(report.log.files.count == 2)
        #expect(report.experiments.first?.variations.map(\.units) == [1, 1])
        #expect(throws: AnalysisError.noLogs(pattern: folder.path + "/*.nothing")) {
            try Analyzer.run(AnalysisOptions(logs: [folder.path + "/*.nothing"], metrics: ["x"], jobs: 1))
        }
    }

    @Test func funnelCountsScreensReachedAfterExposure() throws {
        let screen = { (user: String, name: String, second: Int) in
            AnalysisFixture.event(user, "screen", at: second,
                                  extra: #","transition":"push","screen":"\#(name)","stack":"adverts > \#(name)""#)
        }
        let path = try AnalysisFixture.log([
            screen("a", "groups", 1),
            AnalysisFixture.exposure("a", "e", "control", id: 0, at: 2),
            screen("a", "groups(Bicycles)", 3),
            screen("a", "title", 4),
            AnalysisFixture.exposure("b", "e", "control", id: 0, at: 5),
            screen("b", "title", 6),
        ])
        let report = try Analyzer.run(AnalysisOptions(logs: [path], metrics: ["advert_published"], jobs: 1))
        let funnel = try #require(report.experiments.first?.variations.first?.funnel)
        #expect(funnel.map(\.screen) == ["title", "groups"])
        #expect(funnel.map(\.units) == [2, 1])
        #expect(funnel.map(\.share) == [1, 0.5])
    }
}
