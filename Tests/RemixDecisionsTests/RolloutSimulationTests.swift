import Foundation
import RemixApp
import Testing

/// A rollout run in virtual time by `remix simulate`: decisions happen as users arrive.
@Suite struct RolloutSimulationTests {
    @Test func aHarmfulRolloutIsRolledBackAtTheFirstSignificantStepAndNoLaterSessionMeetsIt() async throws {
        let fixture = try RolloutFixture(effects: RolloutFixture.harmful)
        defer { fixture.remove() }
        let lines = try await fixture.simulate()
        let decisions = lines.of("rollout_decision")
        let kinds = decisions.map { $0["decision"] as? String ?? "" }
        #expect(kinds.last == "rollback", "\(kinds)")
        #expect(kinds.dropLast().allSatisfy { $0 == "advance" }, "\(kinds)")
        // Every decision before the rollback found the guardrail not (yet) significantly worse; the rollback found it worse.
        for (index, decision) in decisions.enumerated() {
            let cancelled = try #require((decision["guardrails"] as? [[String: Any]])?.first { $0["metric"] as? String == "cancelled" })
            #expect(cancelled["worse"] as? Bool == (index == decisions.count - 1))
            #expect(((cancelled["pValue"] as? Double ?? 1) < 0.05) == (index == decisions.count - 1), "p < α exactly when worse")
            #expect((cancelled["effect"] as? Double ?? 0) > 0, "the effect makes cancelling more likely at every step")
        }
        let rollback = try #require(decisions.last)
        #expect(rollback["share"] as? Double == 0)
        let rolledBackAt = try #require(rollback["ts"] as? String)
        // No session starting after the rollback is exposed to the feature, and none is in the rollout.
        let starts = Dictionary(lines.of("session_started").map { ($0["session"] as? String ?? "", $0["ts"] as? String ?? "") },
                                uniquingKeysWith: { first, _ in first })
        let exposures = lines.of("exposure").filter { $0["experiment"] as? String == "auto-rollout" }
        let after = exposures.filter { (starts[$0["session"] as? String ?? ""] ?? "") >= rolledBackAt }
        #expect(!after.isEmpty)
        #expect(after.allSatisfy { $0["feature"] as? String != "AutoGroupInsertion" && $0["inExperiment"] as? Bool == false })
        #expect(after.allSatisfy { $0["share"] as? Double == 0 })
        #expect(exposures.contains { $0["feature"] as? String == "AutoGroupInsertion" }, "before the rollback, some sessions had it")
        try await reportsShowTheTimeline(fixture, decisions: decisions)
    }

    /// `remix analyze` shows the rollout's timeline in the table, JSON and HTML: every decision of the log, in order.
    private func reportsShowTheTimeline(_ fixture: RolloutFixture, decisions: [[String: Any]]) async throws {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try await fixture.report(.json).utf8)) as? [String: Any])
        let experiment = try #require((json["experiments"] as? [[String: Any]])?.first { $0["key"] as? String == "auto-rollout" })
        let timeline = try #require(experiment["rolloutTimeline"] as? [[String: Any]])
        #expect(timeline.map { $0["decision"] as? String } == decisions.map { $0["decision"] as? String })
        #expect(timeline.map { $0["time"] as? String } == decisions.map { ($0["ts"] as? String)?.replacingOccurrences(of: ".000Z", with: "Z") })
        #expect(timeline.map { $0["share"] as? Double } == decisions.map { $0["share"] as? Double })
        let table = try await fixture.report(.table)
        #expect(table.contains("rollout timeline"))
        #expect(table.split(separator: "\n").contains { $0.contains("rollback") && $0.contains("cancelled is significantly worse") })
        let html = try await fixture.report(.html)
        #expect(html.contains("<h3>Rollout timeline</h3>"))
        #expect(html.contains("<span class=\"tag lose\">rollback</span>"))
        // The share chart's figures name their place in the JSON report.
        let index = try #require((json["experiments"] as? [[String: Any]])?.firstIndex { $0["key"] as? String == "auto-rollout" })
        for step in decisions.indices {
            #expect(html.contains("data-json=\"/experiments/\(index)/rolloutTimeline/\(step)/share\""))
        }
    }

    @Test func aHarmlessRolloutAdvancesThroughEveryStepAndCompletes() async throws {
        let fixture = try RolloutFixture()
        defer { fixture.remove() }
        let lines = try await fixture.simulate()
        let decisions = lines.of("rollout_decision")
        #expect(decisions.map { $0["decision"] as? String ?? "" } == ["advance", "advance", "complete"])
        #expect(decisions.map { $0["step"] as? Int ?? 0 } == [1, 2, 3])
        #expect(decisions.map { $0["share"] as? Double ?? 0 } == [0.5, 1.0, 1.0])
        #expect(decisions.map { $0["ts"] as? String ?? "" }
                == ["2026-11-23T09:30:00.000Z", "2026-11-23T10:00:00.000Z", "2026-11-23T10:30:00.000Z"])
        // Each exposure says the step in force when its session started.
        let exposures = lines.of("exposure").filter { $0["experiment"] as? String == "auto-rollout" }
        for exposure in exposures {
            let ts = exposure["ts"] as? String ?? ""
            let share = exposure["share"] as? Double
            if ts < "2026-11-23T09:29" { #expect(share == 0.25) }
            if ts > "2026-11-23T10:31" { #expect(share == 1.0) }
        }
        // A session in the rollout at 25 % keeps its arm at 100 %: the hash is consistent as the share grows.
        let inRollout = exposures.filter { $0["inExperiment"] as? Bool == true }
        let share = Double(inRollout.count) / Double(exposures.count)
        #expect(share > 0.4 && share < 0.8, "\(share)")
    }

    @Test func theLogIsTheSameBytesWhateverTheJobs() async throws {
        let fixture = try RolloutFixture(effects: RolloutFixture.harmful)
        defer { fixture.remove() }
        let other = fixture.log + ".jobs4.jsonl"
        defer { try? FileManager.default.removeItem(atPath: other) }
        _ = try await fixture.simulate(users: 2_000, jobs: 1)
        _ = try await fixture.simulate(users: 2_000, jobs: 4, log: other)
        let one = try Data(contentsOf: URL(fileURLWithPath: fixture.log))
        let four = try Data(contentsOf: URL(fileURLWithPath: other))
        #expect(one == four)
        // The controller's decisions (a rollback among them) are in both, at the same places.
        #expect(try RolloutFixture.lines(other).of("rollout_decision").contains { $0["decision"] as? String == "rollback" })
    }
}
