import Foundation
import RemixApp
import Testing

/// A bandit run in virtual time by `remix simulate` (docs/bandits.md): updates as users arrive,
/// from the log so far; the next sessions meet the new weights.
@Suite struct BanditSimulationTests {
    static let bandit = """
        key: insertion-bandit
        app: marketplace
        slot: insertion
        hashVersion: 2
        hashAttribute: id
        type: bandit
        variations:
          - {key: manual, feature: ManualGroupInsertion}
          - {key: auto, feature: AutoGroupInsertion}
          - {key: alternating, feature: AlternatingInsertion}
        bandit:
          metric: published
          exploreHours: 0.5
          updateHours: 0.25
          minWeight: 0.02
        """

    /// The automatic flow's users leave far more often, so fewer of them publish.
    static let autoHarms = """

        effects:
          - feature: AutoGroupInsertion
            abandon: {title: 10, default: 4}
          - feature: AlternatingInsertion
            abandon: {title: 10, default: 4}
        """

    @Test func theBetterArmWinsTheTrafficAndEveryUpdateKeepsTheFloor() async throws {
        let fixture = try RolloutFixture(effects: Self.autoHarms, rollout: Self.bandit)
        defer { fixture.remove() }
        let lines = try await fixture.simulate(users: 4_000, jobs: 2)
        let updates = lines.of("bandit_update")
        #expect(updates.count >= 4, "explore 30 min, then every 15 min over 2 h 13 min of arrivals")
        let weights = updates.map { ($0["arms"] as? [[String: Any]] ?? []).map { $0["weight"] as? Double ?? -1 } }
        #expect(weights.allSatisfy { $0.count == 3 && $0.allSatisfy { $0 >= 0.02 - 1e-9 } && abs($0.reduce(0, +) - 1) < 1e-9 })
        let last = try #require(weights.last)
        #expect(last[0] >= 0.8, "\(weights)")
        // Exposures between two updates follow the weights in force: each period's exposures fit them.
        let exposures = lines.of("exposure").filter { $0["experiment"] as? String == "insertion-bandit" && $0["inExperiment"] as? Bool == true }
        let times = updates.map { $0["ts"] as? String ?? "" }
        let inForce = [[1.0 / 3, 1.0 / 3, 1.0 / 3]] + weights
        for period in inForce.indices {
            let within = exposures.filter { exposure in
                let time = exposure["ts"] as? String ?? ""
                return (period == 0 || time >= times[period - 1]) && (period == times.count || time < times[period])
            }
            var counts = [0, 0, 0]
            for exposure in within { counts[exposure["variationId"] as? Int ?? 0] += 1 }
            let total = Double(within.count)
            guard total >= 50 else { continue }
            let statistic = inForce[period].indices.reduce(0.0) { sum, arm in
                let expected = total * inForce[period][arm]
                return sum + pow(Double(counts[arm]) - expected, 2) / expected
            }
            // χ² with 2 degrees of freedom: p < 0.001 above 13.8.
            #expect(statistic < 13.8, "period \(period): \(counts) against \(inForce[period])")
        }
    }

    @Test func logsAreByteIdenticalWhateverTheJobs() async throws {
        let fixture = try RolloutFixture(effects: Self.autoHarms, rollout: Self.bandit)
        defer { fixture.remove() }
        let other = fixture.log + ".jobs3"
        defer { try? FileManager.default.removeItem(atPath: other) }
        _ = try await fixture.simulate(users: 2_500, jobs: 1)
        _ = try await fixture.simulate(users: 2_500, jobs: 3, log: other)
        let first = try Data(contentsOf: URL(fileURLWithPath: fixture.log))
        #expect(first == (try Data(contentsOf: URL(fileURLWithPath: other))))
        #expect(String(decoding: first, as: UTF8.self).contains("\"type\":\"bandit_update\""))
    }

    @Test func withStickyBucketingAReturningUserKeepsTheirArmAcrossUpdates() async throws {
        let fixture = try RolloutFixture(effects: Self.autoHarms, rollout: Self.bandit)
        defer { fixture.remove() }
        try fixture.returningUsers()
        let sticky = fixture.log + ".sticky.json"
        defer { try? FileManager.default.removeItem(atPath: sticky) }
        let lines = try await fixture.simulate(users: 4_000, jobs: 2, sticky: sticky)
        #expect(lines.of("bandit_update").count >= 4)
        let arms = Self.armsByUser(lines, experiment: "insertion-bandit")
        #expect(arms.values.contains { $0.count == 1 })
        #expect(arms.values.allSatisfy { $0.count == 1 }, "nobody switches arms")
        // Without sticky bucketing the changing weights move some returning users to another arm.
        let loose = try await fixture.simulate(users: 4_000, jobs: 2)
        #expect(Self.armsByUser(loose, experiment: "insertion-bandit").values.contains { $0.count > 1 })
    }

    @Test func aRolloutRunsWithStickyBucketingAndNobodyFlipsArms() async throws {
        let fixture = try RolloutFixture()
        defer { fixture.remove() }
        try fixture.returningUsers()
        let sticky = fixture.log + ".sticky.json"
        defer { try? FileManager.default.removeItem(atPath: sticky) }
        let lines = try await fixture.simulate(users: 3_000, jobs: 2, sticky: sticky)
        #expect(!lines.of("rollout_decision").isEmpty)
        #expect(Self.armsByUser(lines, experiment: "auto-rollout").values.allSatisfy { $0.count == 1 })
        #expect(lines.of("exposure").contains { $0["stickyBucketUsed"] as? Bool == true })
    }

    /// The arms each user was exposed to in `experiment`.
    static func armsByUser(_ lines: [[String: Any]], experiment: String) -> [String: Set<Int>] {
        var arms: [String: Set<Int>] = [:]
        for exposure in lines.of("exposure") where exposure["experiment"] as? String == experiment && exposure["inExperiment"] as? Bool == true {
            arms[exposure["user"] as? String ?? "", default: []].insert(exposure["variationId"] as? Int ?? -1)
        }
        return arms
    }
}

extension RolloutFixture {
    /// Every persona comes back twice, 15 to 45 minutes apart, so returning users cross updates.
    func returningUsers() throws {
        let file = folder.appendingPathComponent("population.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
            .replacingOccurrences(of: "\n    weight: ", with: "\n    visits: 3\n    daysBetweenVisits: [0.01, 0.03]\n    weight: ")
        try text.write(to: file, atomically: true, encoding: .utf8)
    }

    /// Simulates with a sticky-bucket file.
    func simulate(users: Int, jobs: Int, sticky: String) async throws -> [[String: Any]] {
        var simulate = Simulate()
        simulate.users = users
        simulate.jobs = jobs
        simulate.experiments = folder.path
        simulate.log = log
        simulate.sticky = sticky
        simulate.report = false
        _ = try await simulate.run(NoticeLog().context(cores: 4))
        return try Self.lines(log)
    }
}
