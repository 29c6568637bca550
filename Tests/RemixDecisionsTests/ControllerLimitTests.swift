import Foundation
import RemixApp
import Testing

/// A run takes at most 1 000 decisions per experiment, says so, and still finishes its sessions.
@Suite struct ControllerLimitTests {
    /// Updates every 1.2 minutes of virtual time.
    static let frequentBandit = """
        key: insertion-bandit
        app: marketplace
        slot: insertion
        hashVersion: 2
        hashAttribute: id
        type: bandit
        variations:
          - {key: manual, feature: ManualGroupInsertion}
          - {key: auto, feature: AutoGroupInsertion}
        bandit:
          metric: published
          exploreHours: 0.1
          updateHours: 0.02
          minWeight: 0.02
        """

    @Test func aBanditStopsAtTheLimitOfDecisionsAndTheRunFinishesItsSessions() async throws {
        let fixture = try RolloutFixture(rollout: Self.frequentBandit)
        defer { fixture.remove() }
        // 1 000 users 90 s apart: 25 h of arrivals, past 1 200 updates of 1.2 minutes.
        let population = fixture.folder.appendingPathComponent("population.yaml")
        let text = try String(contentsOf: population, encoding: .utf8)
        #expect(text.contains("sessionGapSeconds: 2 "))
        try text.replacingOccurrences(of: "sessionGapSeconds: 2 ", with: "sessionGapSeconds: 90 ")
            .write(to: population, atomically: true, encoding: .utf8)
        var simulate = Simulate()
        simulate.users = 1_000
        simulate.jobs = 2
        simulate.experiments = fixture.folder.path
        simulate.log = fixture.log
        simulate.report = false
        let outcome = try await simulate.run(NoticeLog().context(cores: 4))
        let lines = try RolloutFixture.lines(fixture.log)
        let updates = lines.of("bandit_update")
        #expect(updates.count == 1_000)
        #expect(updates.last?["update"] as? Int == 1_000)
        #expect(outcome.summary.contains("stopped    insertion-bandit: 1,000 decisions, the limit of one run per experiment"),
                "\(outcome.summary)")
        // Every user's sessions are in the log, those after the last update too.
        let lastUpdate = try #require(updates.last?["ts"] as? String)
        let starts = lines.of("session_started")
        #expect(Set(starts.compactMap { $0["user"] as? String }).count == 1_000)
        #expect(starts.contains { ($0["ts"] as? String ?? "") > lastUpdate })
    }
}
