import Foundation
import RemixApp
import RemixTestSupport
import Testing

/// `remix validate`, `remix analyze` and `remix export growthbook` on a bandit (docs/bandits.md).
@Suite struct BanditReportTests {
    static let header = "key: b\napp: marketplace\nslot: insertion\nhashVersion: 2\n"
        + "variations:\n  - {key: manual, feature: ManualGroupInsertion}\n  - {key: auto, feature: AutoGroupInsertion}\n"

    /// The diagnostics of one bandit file with `body` after the header.
    static func problems(_ body: String) async throws -> [String] {
        try await ValidationFixture.problems(file: "b.yaml", header + body)
    }

    @Test func aGoodBanditHasNoProblem() async throws {
        #expect(try await Self.problems("type: bandit\nbandit: {metric: published, exploreHours: 1, updateHours: 0.5, minWeight: 0.05}\n") == [])
    }

    @Test func eachMistakeIsAnErrorAtItsPosition() async throws {
        #expect(try await Self.problems("type: bandit\nbandit: {metric: published, exploreHours: 0, updateHours: 1}\n")
                    == ["b.yaml:9:43: error: exploreHours must be at least one minute (1/60 hour = 0.0167) and at most a year (8784 hours), not 0"])
        #expect(try await Self.problems("type: bandit\nbandit: {metric: published, exploreHours: 1, updateHours: 1, minWeight: 0.6}\n")
                    == ["b.yaml:9:73: error: minWeight must be in [0, 0.5] (1 ÷ the number of arms), not 0.6"])
        #expect(try await Self.problems("bandit: {metric: published, exploreHours: 1, updateHours: 1}\n")
                    == ["b.yaml:8:9: error: 'bandit' belongs to a bandit: add type: bandit, or remove 'bandit'"])
        #expect(try await Self.problems("type: bandit\n") == ["b.yaml:8:7: error: a bandit needs bandit: {metric, exploreHours, updateHours, minWeight}"])
        let weights = try await Self.problems("type: bandit\nweights: [0.9, 0.1]\nbandit: {metric: published, exploreHours: 1, updateHours: 1}\n")
        #expect(weights.contains("b.yaml:9:10: error: a bandit sets its own weights at each update (equal until exploreHours); remove 'weights'"))
        let unknown = try await Self.problems("type: bandit\nbandit: {metric: publishd, exploreHours: 1, updateHours: 1}\n")
        #expect(unknown.contains { $0.hasPrefix("b.yaml:9:18: error: unknown metric 'publishd'") }, "\(unknown)")
        let ratio = try await Self.problems("type: bandit\nbandit: {metric: session-duration, exploreHours: 1, updateHours: 1}\n")
        #expect(ratio.contains { $0.hasPrefix("b.yaml:9:18: error: a bandit learns a proportion or mean metric per unit; "
                                                 + "'session-duration' has type ratio") }, "\(ratio)")
    }

    @Test func analyzeReportsArmsWeightsAndBanditSRMAndExportGivesTheWeightsInForce() async throws {
        let fixture = try RolloutFixture(effects: BanditSimulationTests.autoHarms, rollout: BanditSimulationTests.bandit)
        defer { fixture.remove() }
        let lines = try await fixture.simulate(users: 3_000, jobs: 2)
        let updates = lines.of("bandit_update")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try await fixture.report(.json).utf8)) as? [String: Any])
        let experiment = try #require((json["experiments"] as? [[String: Any]])?.first { $0["key"] as? String == "insertion-bandit" })
        let bandit = try #require(experiment["bandit"] as? [String: Any])
        #expect((bandit["updates"] as? [[String: Any]])?.count == updates.count)
        #expect((bandit["arms"] as? [[String: Any]])?.map { $0["variation"] as? String } == ["manual", "auto", "alternating"])
        #expect((bandit["srmPValue"] as? Double).map { $0 > 0.001 } == true, "the bandit's own SRM: no alarm by design")
        #expect(experiment["srmPValue"] as? Double == bandit["srmPValue"] as? Double)
        #expect((bandit["regret"] as? Double ?? .infinity) < (bandit["equalSplitRegret"] as? Double ?? 0))
        let table = try await fixture.report(.table)
        #expect(table.contains("bandit weights (in force from each update on"))
        let html = try await fixture.report(.html)
        #expect(html.contains("<h3>Bandit</h3>"))
        #expect(html.contains("weight after each update"))

        var export = ExportGrowthBook()
        export.folder = fixture.folder.path
        export.app = "marketplace"
        export.banditLog = fixture.log
        let latest = try #require((updates.last?["arms"] as? [[String: Any]])?.map { $0["weight"] as? Double ?? -1 })
        #expect(try await Self.exportedWeights(export) == latest)
        export.banditLog = nil
        #expect(try await Self.exportedWeights(export)?.allSatisfy { abs($0 - 1.0 / 3) < 1e-9 } == true)
    }

    /// The weights of the first rule on Marketplace's insertion slot in the payload `export` writes.
    static func exportedWeights(_ export: ExportGrowthBook) async throws -> [Double]? {
        let json = try #require(try await export.run(NoticeLog().context()))
        let payload = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let slot = (payload?["features"] as? [String: Any])?["marketplace.insertion"] as? [String: Any]
        return (slot?["rules"] as? [[String: Any]])?.first?["weights"] as? [Double]
    }
}
