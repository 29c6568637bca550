import Foundation
@testable import RemixAnalysis
import RemixApp
import RemixStatistics
import RemixTestSupport
import Testing

/// Issue 52, item 23: what a bandit without arms, an unknown rollout decision and an untested
/// guardrail say, in plain words.
@Suite struct ControllerMessageTests {
    @Test func aBanditWithoutVariationsSaysItNeedsTwo() async throws {
        let header = "key: b\napp: marketplace\nslot: insertion\nhashVersion: 2\n"
        let bandit = "type: bandit\nbandit: {metric: published, exploreHours: 1, updateHours: 1}\n"
        let none = try await ValidationFixture.problems(file: "b.yaml", header + "variations: []\n" + bandit)
        #expect(none == ["b.yaml:5:13: error: a bandit needs at least two variations to choose between; it has 0"])
        let one = try await ValidationFixture.problems(
            file: "b.yaml", header + "variations:\n  - {key: manual, feature: ManualGroupInsertion}\n" + bandit)
        #expect(one == ["b.yaml:6:3: error: a bandit needs at least two variations to choose between; it has 1"])
    }

    @Test func anUnknownDecisionIsLeftOutWithAWarningAndTheOthersStay() async throws {
        let fixture = try RolloutFixture()
        defer { fixture.remove() }
        _ = try await fixture.simulate(users: 3_000)
        var lines = try String(contentsOfFile: fixture.log, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        let decisions = lines.indices.filter { lines[$0].contains("\"type\":\"rollout_decision\"") }
        try #require(decisions.count >= 2, "the run decides at least twice")
        let changed = decisions[0]
        lines[changed] = lines[changed].replacing(/"decision":"[a-z]+"/, with: #""decision":"pause""#)
        try lines.joined(separator: "\n").write(toFile: fixture.log, atomically: true, encoding: .utf8)

        let json = try #require(try JSONSerialization.jsonObject(with: Data(try await fixture.report(.json).utf8)) as? [String: Any])
        let experiment = try #require((json["experiments"] as? [[String: Any]])?.first { $0["key"] as? String == "auto-rollout" })
        #expect((experiment["rolloutTimeline"] as? [[String: Any]])?.count == decisions.count - 1, "the readable decisions stay")
        let warning = "auto-rollout: \(fixture.log):\(changed + 1): rollout_decision has the unknown decision 'pause' "
            + "(known: rollback, hold, advance, complete); the timeline leaves this line out and keeps the readable decisions"
        #expect((json["warnings"] as? [String])?.contains(warning) == true, "\(json["warnings"] ?? [])")
        #expect(try await fixture.report(.table).contains(warning))
    }

    @Test func anUntestedGuardrailIsSaidInTheTablesWords() {
        let untested = GuardrailResult(metric: "cancelled", inverse: true, control: 0, rollout: 0, effect: 0, bound: 0, pValue: 1,
                                       worse: false, error: "ZERO_NEGATIVE_VARIANCE")
        let decision = RolloutDecision(experiment: "r", time: 0, step: 1, share: 0.5, decision: .advance, reason: "", units: [10, 10],
                                       srmPValue: 1, guardrails: [untested])
        #expect(decision.figuresText == "10 / 10 units · SRM p 1.0000 · cancelled untested (no variance to test: the values do not vary)")
        #expect(!decision.figuresText.contains("ZERO_NEGATIVE_VARIANCE"))
    }
}
