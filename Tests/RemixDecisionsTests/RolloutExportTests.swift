import Foundation
import RemixApp
import RemixTestSupport
import Testing

/// `remix export growthbook` on a rollout: GrowthBook's safe-rollout SDK rule at the first step.
@Suite struct RolloutExportTests {
    @Test func aRolloutIsExportedAsGrowthBooksSafeRolloutRule() async throws {
        var export = ExportGrowthBook()
        export.folder = Repository.root.appendingPathComponent("docs/examples/rollout").path
        export.app = "marketplace"
        let json = try #require(try await export.run(NoticeLog().context()))
        let payload = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let slot = try #require((payload["features"] as? [String: Any])?["marketplace.insertion"] as? [String: Any])
        let rule = try #require((slot["rules"] as? [[String: Any]])?.first)
        // Control (the slot default) and the feature, 50/50, with coverage the first step's share and hashVersion 2.
        let variations = try #require(rule["variations"] as? [[String: Any]])
        let defaultFeature = (slot["defaultValue"] as? [String: Any])?["feature"] as? String
        #expect(variations.map { $0["feature"] as? String } == [defaultFeature, "AutoGroupInsertion"])
        #expect(rule["weights"] as? [Double] == [0.5, 0.5])
        #expect(rule["coverage"] as? Double == 0.05)
        #expect(rule["hashVersion"] as? Int == 2)
    }
}
