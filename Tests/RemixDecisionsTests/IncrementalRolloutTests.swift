import Foundation
import RemixAnalysis
import RemixDecisions
import RemixEventLog
import RemixExperiments
import RemixFormats
import RemixStatistics
import RemixTestSupport
import Testing

/// The rollout controller counts each line once, as it observes it, and keeps no copy of the log:
/// each decision has the figures an analysis of the whole log so far would give.
@Suite struct IncrementalRolloutTests {
    /// A rollout of ten steps of six minutes, tested on guardrails of every kind of metric.
    static let manySteps = """
        key: auto-rollout
        app: marketplace
        slot: insertion
        hashVersion: 2
        rollout:
          feature: AutoGroupInsertion
          steps: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
          stepHours: 0.1
          guardrails: [cancelled, session-duration, time-to-publish, time-in-sessions-p99-capped, user-time-median, groups-viewed]
          signals: [published]
        """

    /// The temporary folder's working logs of rollout controllers (not the tests' own files).
    private static func workingLogs() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path).filter {
            $0.hasPrefix("remix-rollout-") && !$0.hasPrefix("remix-rollout-test-") && $0.hasSuffix(".jsonl")
        })
    }

    @Test func theControllerWritesNoWorkingLog() throws {
        let before = try Self.workingLogs()
        let (controller, _) = try RolloutControllerTests.controller()
        try controller.observe(lines: RolloutControllerTests.log(control: 20, rollout: 20, cancelledControl: 2, cancelledRollout: 2))
        let made = try Self.workingLogs().subtracting(before)
        #expect(made.isEmpty, "the controller made \(made.sorted()) in the temporary folder")
        #expect(controller.nextBoundary() != nil)
    }

    @Test func everyDecisionHasTheFiguresOfTheWholeLogSoFar() async throws {
        let fixture = try RolloutFixture(rollout: Self.manySteps)
        defer { fixture.remove() }
        let lines = try await fixture.simulate(users: 3_000, jobs: 2)
        let decisions = lines.of("rollout_decision")
        #expect(decisions.count >= 8, "\(decisions.count) decisions")
        let (parsed, problems) = ExperimentFileParser.parse(Self.manySteps, file: "auto-rollout.yaml")
        #expect(problems.isEmpty, "\(problems)")
        let definition = try #require(parsed)
        let (catalog, _) = MetricsFileParser.load(fixture.folder.appendingPathComponent("metrics.yaml").path)
        let written = try String(contentsOfFile: fixture.log, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains("\"type\":\"rollout_decision\"") }.map(String.init)
        #expect(written.count == decisions.count)
        for (decision, line) in zip(decisions, written) {
            // The decision as an analysis of the whole log before its time makes it.
            let time = try #require(CivilTime.parseMilliseconds(decision["ts"] as? String ?? ""))
            var current = definition
            var rollout = try #require(current.rollout)
            rollout.step = (decision["step"] as? Int ?? 1) - 1
            current.rollout = rollout
            current.experiment.coverage = rollout.share
            var options = AnalysisOptions(logs: [fixture.log], definitions: [current.key: current], alpha: 0.05, correction: .none, jobs: 1)
            options.until = time
            options.catalog = catalog
            let report = try Analyzer.run(options)
            let experiment = try #require(report.experiments.first { $0.key == current.key })
            let settings = RolloutSettings()
            let figures = RolloutFigures(units: experiment.variations.map(\.units), srmPValue: experiment.srmPValue,
                                         guardrails: GuardrailTest.results(experiment, alpha: settings.alpha, tuning: settings.sequentialTuning))
            let expected = RolloutDecision.decide(experiment: current.key, rollout: rollout, figures: figures, settings: settings, time: time)
            var encoder = JSONLinesEncoder()
            encoder.encode(LoggedEvent(timestamp: time, type: RolloutDecision.eventType, session: "", user: "", fields: expected.fields))
            #expect(String(decoding: encoder.bytes, as: UTF8.self) == line + "\n")
        }
    }
}
