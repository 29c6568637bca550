import Foundation
import RemixAnalysis
import RemixDecisions
import RemixExperiments
import RemixTestSupport
import Testing

/// The controller's decisions on logs written by hand, read by the project's real analysis.
@Suite struct RolloutControllerTests {
    /// 09:00 on the day of the lines below.
    static let zero: Int64 = 1_795_424_400_000

    static func controller() throws -> (RolloutController, ExperimentSet) {
        let (definition, problems) = ExperimentFileParser.parse(RolloutFixture.rollout, file: "auto-rollout.yaml")
        #expect(problems.isEmpty, "\(problems)")
        let set = ExperimentSet(definitions: [try #require(definition)])
        let (catalog, metricProblems) = MetricsFileParser.load(Repository.root.appendingPathComponent("experiments/metrics.yaml").path)
        #expect(metricProblems.isEmpty)
        return (try RolloutController(experiments: set, app: "marketplace", start: zero, catalog: catalog), set)
    }

    /// Exposure lines: `control` users in the control arm, `rollout` in the rollout arm, a share of each cancelling.
    static func log(control: Int, rollout: Int, cancelledControl: Int, cancelledRollout: Int) -> [UInt8] {
        var text = ""
        for (arm, count, cancelled) in [("control", control, cancelledControl), ("rollout", rollout, cancelledRollout)] {
            for index in 0..<count {
                let user = "\(arm)-\(index)"
                let feature = arm == "control" ? "AlternatingInsertion" : "AutoGroupInsertion"
                text += #"{"ts":"2026-11-23T09:05:00.000Z","type":"exposure","session":"s-\#(user)","user":"\#(user)","experiment":"auto-rollout","variation":"\#(arm)","variationId":\#(arm == "control" ? 0 : 1),"feature":"\#(feature)","app":"marketplace","slot":"insertion","bucket":0.1,"hashUsed":true,"inExperiment":true,"step":1,"share":0.25}"# + "\n"
                if index < cancelled {
                    text += #"{"ts":"2026-11-23T09:06:00.000Z","type":"insertion_cancelled","session":"s-\#(user)","user":"\#(user)"}"# + "\n"
                }
            }
        }
        return Array(text.utf8)
    }

    @Test func aSampleRatioMismatchHoldsTheStep() throws {
        let (controller, set) = try Self.controller()
        #expect(controller.nextBoundary() == Self.zero + 1_800_000)
        try controller.observe(lines: Self.log(control: 300, rollout: 180, cancelledControl: 60, cancelledRollout: 36))
        let decision = try controller.decide(at: Self.zero + 1_800_000, experiments: set)
        let made = try #require(controller.decisions.last)
        #expect(made.decision == .hold, "\(made.reason)")
        #expect(made.share == 0.25 && made.step == 1)
        #expect(made.srmPValue.map { $0 < 0.001 } == true)
        #expect(made.reason.hasPrefix("sample ratio mismatch"))
        // Held: the sessions after the boundary meet the same step, and the next boundary is one step later.
        #expect(decision.experiments.definition(key: "auto-rollout")?.rollout?.step == 0)
        #expect(decision.experiments.definition(key: "auto-rollout")?.experiment.coverage == 0.25)
        #expect(decision.events.first?.type == "rollout_decision")
        #expect(controller.nextBoundary() == Self.zero + 3_600_000)
    }

    @Test func aGuardrailSignificantlyWorseRollsBackEvenWithABalancedSplit() throws {
        let (controller, set) = try Self.controller()
        try controller.observe(lines: Self.log(control: 400, rollout: 400, cancelledControl: 40, cancelledRollout: 160))
        let decision = try controller.decide(at: Self.zero + 1_800_000, experiments: set)
        let made = try #require(controller.decisions.last)
        #expect(made.decision == .rollback)
        #expect(made.share == 0)
        let cancelled = try #require(made.guardrails.first)
        #expect(cancelled.worse && cancelled.inverse)
        #expect(abs(cancelled.effect - 0.3) < 1e-9)
        // gbstats (packages/stats, SequentialOneSidedTreatmentGreaterTTest, absolute, α 0.05, tuning 5000) on 40/400
        // vs 160/400: expected 0.3, ci (0.20554657099159612, inf), p 1e-05.
        #expect(abs(cancelled.bound - 0.20554657099159612) < 1e-12)
        #expect(cancelled.pValue == 0.00001)
        #expect(cancelled.pValue < 0.05, "worse at α = 0.05, so its p-value is below it")
        #expect(decision.experiments.definition(key: "auto-rollout")?.rollout?.rolledBack == true)
        #expect(controller.nextBoundary() == nil, "a rollback ends the rollout: no more boundaries")
    }

    @Test func noDifferenceAdvancesToTheNextShare() throws {
        let (controller, set) = try Self.controller()
        try controller.observe(lines: Self.log(control: 200, rollout: 200, cancelledControl: 40, cancelledRollout: 40))
        let decision = try controller.decide(at: Self.zero + 1_800_000, experiments: set)
        #expect(controller.decisions.last?.decision == .advance)
        #expect(controller.decisions.last?.guardrails.first.map { !$0.worse && $0.pValue > 0.05 } == true)
        #expect(decision.experiments.definition(key: "auto-rollout")?.experiment.coverage == 0.5)
    }
}
