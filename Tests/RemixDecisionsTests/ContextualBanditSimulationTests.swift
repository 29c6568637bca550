import Foundation
import RemixApp
import Testing

/// A contextual bandit in the loop (docs/bandits.md): leaves by platform, each learning its own
/// weights from its own users; a session meets its leaf's weights.
@Suite struct ContextualBanditSimulationTests {
    static let bandit = BanditSimulationTests.bandit + """

          leaves:
            - {leafId: 1, condition: {platform: tablet}}
            - {leafId: 2}
        """

    @Test func eachLeafLearnsItsOwnWeightsAndItsSessionsFollowThem() async throws {
        let fixture = try RolloutFixture(effects: BanditSimulationTests.autoHarms, rollout: Self.bandit)
        defer { fixture.remove() }
        let lines = try await fixture.simulate(users: 5_000, jobs: 2)
        let updates = lines.of("bandit_update")
        let byLeaf = Dictionary(grouping: updates) { $0["leaf"] as? String ?? "" }
        #expect(Set(byLeaf.keys) == ["1", "2"])
        let platforms = Dictionary(lines.of("session_started").map { line in
            (line["user"] as? String ?? "", (line["attributes"] as? [String: Any])?["platform"] as? String ?? "")
        }, uniquingKeysWith: { first, _ in first })
        let exposures = lines.of("exposure").filter { $0["experiment"] as? String == "insertion-bandit" && $0["inExperiment"] as? Bool == true }
        var firstArm: [String: Int] = [:]
        for exposure in exposures where firstArm[exposure["user"] as? String ?? ""] == nil {
            firstArm[exposure["user"] as? String ?? ""] = exposure["variationId"] as? Int ?? -1
        }
        // Each leaf's last update counts exactly its own users' first exposures.
        for (leaf, platform) in [("1", true), ("2", false)] {
            let last = try #require(byLeaf[leaf]?.last?["arms"] as? [[String: Any]])
            let units = last.map { $0["units"] as? Int ?? 0 }.reduce(0, +)
            let own = firstArm.keys.filter { (platforms[$0] == "tablet") == platform }.count
            #expect(units <= own && units > own * 9 / 10, "leaf \(leaf): \(units) units of \(own) users")
            let weights = last.map { $0["weight"] as? Double ?? -1 }
            #expect(weights[0] == weights.max(), "leaf \(leaf) learns that manual is best: \(weights)")
        }
        // The leaves' weights differ (each learned from its own users), and after the first update of
        // leaf 2 its phone sessions follow it, not leaf 1's.
        let phoneLeaf = try #require(byLeaf["2"]?.map { ($0["arms"] as? [[String: Any]] ?? []).map { $0["weight"] as? Double ?? -1 } })
        let tabletLeaf = try #require(byLeaf["1"]?.map { ($0["arms"] as? [[String: Any]] ?? []).map { $0["weight"] as? Double ?? -1 } })
        #expect(phoneLeaf != tabletLeaf)
        let times = try #require(byLeaf["2"]?.map { $0["ts"] as? String ?? "" })
        for period in 1..<times.count {
            let within = exposures.filter { exposure in
                let time = exposure["ts"] as? String ?? ""
                return platforms[exposure["user"] as? String ?? ""] != "tablet" && time >= times[period - 1] && time < times[period]
            }
            guard within.count >= 100 else { continue }
            var counts = [0, 0, 0]
            for exposure in within { counts[exposure["variationId"] as? Int ?? 0] += 1 }
            let statistic = phoneLeaf[period - 1].indices.reduce(0.0) { sum, arm in
                let expected = Double(within.count) * phoneLeaf[period - 1][arm]
                return sum + pow(Double(counts[arm]) - expected, 2) / expected
            }
            #expect(statistic < 13.8, "period \(period): \(counts) against \(phoneLeaf[period - 1])")
        }
    }
}
