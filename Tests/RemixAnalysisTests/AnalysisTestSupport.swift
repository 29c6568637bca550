import Foundation
import RemixBuiltIns
import RemixLogReader
@testable import RemixStatistics
import RemixSystem
import RemixTestSupport
@testable import RemixAnalysis
import RemixEventLog
import RemixExperiments
import RemixHost
import RemixSimulation
import Testing

/// Temporary logs and simulated logs for analysis tests.
enum AnalysisFixture {
    static var repository: URL { Repository.root }

    /// This test process's folder of fixtures. Those of earlier runs whose process has ended are
    /// removed when it is first made, so fixtures never pile up in the temporary folder.
    private static let parent: URL = {
        let manager = FileManager.default, prefix = "remix-analysis-"
        for name in (try? manager.contentsOfDirectory(atPath: manager.temporaryDirectory.path)) ?? []
        where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? manager.removeItem(at: manager.temporaryDirectory.appendingPathComponent(name))
        }
        return manager.temporaryDirectory.appendingPathComponent("\(prefix)\(getpid())")
    }()

    /// A fresh temporary folder (inside this process's fixture folder).
    static func folder() throws -> URL {
        let url = parent.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `lines` (joined with newlines, plus a final newline unless `torn`) to a file.
    static func log(_ lines: [String], torn: Bool = false) throws -> String {
        let path = try folder().appendingPathComponent("events.jsonl").path
        let text = lines.joined(separator: "\n") + (torn ? "" : "\n")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Experiment `e` on Marketplace's insertion slot, control (Manual) against treatment (Auto),
    /// 50/50, with `metrics` (lines indented two spaces) under `metrics:`.
    static func twoArmExperiment(metrics: String) -> String {
        """
        key: e
        app: marketplace
        slot: insertion
        variations:
          - {key: control, feature: ManualGroupInsertion}
          - {key: treatment, feature: AutoGroupInsertion}
        weights: [0.5, 0.5]
        metrics:
        \(metrics)
        """
    }

    /// The shipped experiments, by key.
    static func shippedDefinitions() -> [String: ExperimentDefinition] {
        let (set, _) = ExperimentSet.load(paths: [repository.appendingPathComponent("experiments").path])
        return Dictionary(uniqueKeysWithValues: set.definitions.map { ($0.key, $0) })
    }

    /// A simulated log of `sessions` sessions with the shipped population and experiments.
    static func simulatedLog(sessions: Int, seed: UInt64 = 7) throws -> String {
        let registry = try BuiltInModules.registry()
        let experiments = repository.appendingPathComponent("experiments").path
        let (population, problems) = PopulationFile.load(path: experiments + "/population.yaml")
        guard let population, problems.isEmpty else { throw FixtureError.population }
        let (set, _) = ExperimentSet.load(paths: [experiments])
        let plan = SimulationPlan(app: "marketplace", users: sessions, seed: seed, jobs: 2, shard: .whole,
                                  population: population, experiments: set, sources: [])
        let path = try folder().appendingPathComponent("simulated.jsonl").path
        let file = try JSONLinesFile(path: path, truncate: true)
        _ = try SimulationRunner(plan: plan, registry: registry, log: file).run()
        try file.close()
        return path
    }

    enum FixtureError: Error { case population }

    /// One exposure line.
    static func exposure(_ user: String, _ experiment: String, _ variation: String, id: Int, at second: Int,
                         inExperiment: Bool = true, hashUsed: Bool = true) -> String {
        #"{"ts":"2026-11-23T09:00:\#(String(format: "%02d", second)).000Z","type":"exposure","session":"s-\#(user)","user":"\#(user)","experiment":"\#(experiment)","variation":"\#(variation)","variationId":\#(id),"feature":"F\#(id)","app":"marketplace","slot":"insertion","bucket":0.5,"hashUsed":\#(hashUsed),"inExperiment":\#(inExperiment)}"#
    }

    /// One event line of `type` for `user`.
    static func event(_ user: String, _ type: String, at second: Int, extra: String = "") -> String {
        #"{"ts":"2026-11-23T09:00:\#(String(format: "%02d", second)).000Z","type":"\#(type)","session":"s-\#(user)","user":"\#(user)"\#(extra)}"#
    }
}

extension AnalysisFixture {
    /// The report on `lines` and its one experiment, analysed for `metrics` of `catalog` and read in 97-byte chunks
    /// (in parallel from 64 bytes) so that lines straddle chunks, with `keptBytes` of events kept by
    /// the first pass; checks that one unit saw both variations and that each metric's statistic is
    /// the one computed directly (`expected`: metric → statistic per variation, in order).
    static func experiment(_ lines: [String], metrics: [String], catalog: MetricCatalog, jobs: Int, keptBytes: Int,
                           expected: [String: [MetricStatistic]]) throws -> (report: AnalysisReport, experiment: AnalysisReport.Experiment) {
        var options = AnalysisOptions(logs: [try log(lines)], metrics: metrics, jobs: jobs)
        options.catalog = catalog
        options.keptEventBytes = keptBytes
        options.readSizes = LogReader.Sizes(chunk: 97, parallelMinimum: 64, maxLineLength: 1 << 20)
        let report = try Analyzer.run(options)
        let experiment = try #require(report.experiments.first)
        #expect(experiment.multipleExposureUnits == 1)
        for (slot, variation) in experiment.variations.enumerated() {
            for metric in variation.metrics {
                #expect(metric.statistic == expected[metric.metric]?[slot], "\(metric.metric) in \(variation.key)")
            }
        }
        return (report, experiment)
    }
}
