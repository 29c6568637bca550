import Foundation
import GrowthBookAssignment
import RemixApp
import RemixExperiments
import RemixKit
import Testing

/// Issue 52, item 26: a contextual bandit's leaves in every report format and in the GrowthBook
/// payload export writes; a plain bandit's updates in the CSV report.
@Suite struct ContextualBanditReportTests {
    /// The rows of a CSV report split at commas (the rows checked hold no quoted comma), by header name.
    static func csvRows(_ text: String) -> (header: [String], rows: [[String: String]]) {
        let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = lines.first ?? []
        let rows = lines.dropFirst().filter { $0.count == header.count }.map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
        return (header, rows)
    }

    @Test func everyReportGivesEachLeafItsUpdatesAndArms() async throws {
        let fixture = try RolloutFixture(effects: BanditSimulationTests.autoHarms, rollout: ContextualBanditSimulationTests.bandit)
        defer { fixture.remove() }
        let lines = try await fixture.simulate(users: 4_000, jobs: 2)
        let byLeaf = Dictionary(grouping: lines.of("bandit_update")) { $0["leaf"] as? String ?? "" }
        #expect(Set(byLeaf.keys) == ["1", "2"])

        let json = try #require(try JSONSerialization.jsonObject(with: Data(try await fixture.report(.json).utf8)) as? [String: Any])
        let experiment = try #require((json["experiments"] as? [[String: Any]])?.first { $0["key"] as? String == "insertion-bandit" })
        let leaves = try #require((experiment["bandit"] as? [String: Any])?["leaves"] as? [[String: Any]])
        #expect(leaves.map { $0["leaf"] as? String } == ["1", "2"])
        for leaf in leaves {
            let logged = byLeaf[leaf["leaf"] as? String ?? ""] ?? []
            #expect((leaf["updates"] as? [[String: Any]])?.count == logged.count)
            let latest = (logged.last?["arms"] as? [[String: Any]])?.map { $0["units"] as? Int ?? -1 }
            #expect((leaf["arms"] as? [[String: Any]])?.map { $0["units"] as? Int ?? -2 } == latest)
        }

        // Traffic follows each leaf's weights: the SRM is the leaves' own, not a false alarm against equal weights.
        let leafSRM = try ["1", "2"].map { try #require(byLeaf[$0]?.last?["srmPValue"] as? Double) }
        let srm = try #require(experiment["srmPValue"] as? Double)
        #expect(abs(srm - min(1, 2 * (leafSRM.min() ?? 0))) < 1e-12 && srm > 0.001, "\(srm) from \(leafSRM)")
        #expect(leaves.map { $0["srmPValue"] as? Double } == leafSRM)

        let table = try await fixture.report(.table)
        let markdown = try await fixture.report(.markdown)
        for text in [table, markdown] {
            #expect(text.contains("leaf 1 of the contextual bandit: its arms at its latest update"))
            #expect(text.contains("leaf 2 weights (in force for its users from each update on"))
        }
        let html = try await fixture.report(.html)
        #expect(html.contains("<h4>Leaf 1</h4>") && html.contains("<h4>Leaf 2</h4>"))

        let (header, rows) = Self.csvRows(try await fixture.report(.csv))
        #expect(header.suffix(5) == ["bandit_update", "bandit_leaf", "bandit_time", "bandit_weight", "bandit_best_probability"])
        for leaf in ["1", "2"] {
            let leafRows = rows.filter { $0["bandit_leaf"] == leaf }
            #expect(leafRows.count == (byLeaf[leaf]?.count ?? 0) * 3, "one row per update per arm")
            let last = try #require(byLeaf[leaf]?.last)
            let lastRows = leafRows.filter { $0["bandit_update"] == String(last["update"] as? Int ?? -1) }
            #expect(lastRows.map { $0["variation"] } == ["manual", "auto", "alternating"])
            #expect(lastRows.map { Double($0["bandit_weight"] ?? "") } == (last["arms"] as? [[String: Any]])?.map { $0["weight"] as? Double })
            #expect(lastRows.allSatisfy { $0["experiment"] == "insertion-bandit" && $0["metric"] == "" && $0["bandit_time"]?.hasSuffix("Z") == true })
        }
    }

    @Test func aPlainBanditsUpdatesAreCSVRowsWithTheirArmsNamesNeutralised() async throws {
        // An arm named like a formula: a spreadsheet must not run it.
        let file = BanditSimulationTests.bandit.replacingOccurrences(of: "key: alternating", with: "key: \"=1+2\"")
        let fixture = try RolloutFixture(effects: BanditSimulationTests.autoHarms, rollout: file)
        defer { fixture.remove() }
        let lines = try await fixture.simulate(users: 3_000, jobs: 2)
        let updates = lines.of("bandit_update")
        try #require(updates.count >= 2)
        let text = try await fixture.report(.csv)
        let (_, rows) = Self.csvRows(text)
        let updateRows = rows.filter { !($0["bandit_update"] ?? "").isEmpty }
        #expect(updateRows.count == updates.count * 3, "one row per update per arm")
        #expect(updateRows.allSatisfy { $0["bandit_leaf"] == "" })
        let first = try #require(updates.first)
        let firstRows = updateRows.filter { $0["bandit_update"] == "1" }
        #expect(firstRows.map { $0["variation"] } == ["manual", "auto", "\"'=1+2\""])
        #expect(firstRows.map { Int($0["units"] ?? "") } == (first["arms"] as? [[String: Any]])?.map { $0["units"] as? Int })
        #expect(firstRows.map { Double($0["bandit_weight"] ?? "") } == (first["arms"] as? [[String: Any]])?.map { $0["weight"] as? Double })
        let srm = try #require(first["srmPValue"] as? Double)
        #expect(firstRows.allSatisfy { abs((Double($0["srm_p_value"] ?? "") ?? -1) - srm) < 1e-12 }, "\(firstRows.map { $0["srm_p_value"] })")
        #expect(text.contains("\"'=1+2\""), "the formula-like arm is quoted behind a '")
        #expect(!text.contains(",=1+2"))
    }

    @Test func exportWritesTheLeavesAsGrowthBookReadsThemAndTheSDKAssignsAsRemixDoes() async throws {
        let fixture = try RolloutFixture(effects: BanditSimulationTests.autoHarms, rollout: ContextualBanditSimulationTests.bandit)
        defer { fixture.remove() }
        let lines = try await fixture.simulate(users: 4_000, jobs: 2)
        let latest = Dictionary(lines.of("bandit_update").map { line in
            (line["leaf"] as? String ?? "", (line["arms"] as? [[String: Any]] ?? []).map { $0["weight"] as? Double ?? -1 })
        }, uniquingKeysWith: { _, last in last })

        var export = ExportGrowthBook()
        export.folder = fixture.folder.path
        export.app = "marketplace"
        export.banditLog = fixture.log
        let payload = try AttributeValue.parse(json: try #require(try await export.run(NoticeLog().context())))
        let rule = try #require(payload["features"]?["marketplace.insertion"]?["rules"]?.arrayValue?.first)
        #expect(rule["contextualBanditRef"] == "insertion-bandit" && rule["variations"] == nil)
        #expect(rule["contextualVariations"]?.arrayValue?.count == 3)
        let entry = try #require(payload["contextualBandits"]?["insertion-bandit"])
        #expect(entry["contexts"]?.arrayValue?.map { $0["weights"]?.arrayValue?.compactMap(\.numberValue) } == [latest["1"], latest["2"]])

        // Read back as GrowthBook's SDKs read it: the file's leaves, in order, with the weights in force.
        let (set, _) = ExperimentSet.load(paths: [fixture.folder.path])
        var definitions = set.definitions
        let index = try #require(definitions.firstIndex { $0.key == "insertion-bandit" })
        for leaf in try #require(definitions[index].bandit?.leaves).indices {
            definitions[index].bandit?.leaves[leaf].weights = latest[String(leaf + 1)]
        }
        let file = try #require(definitions[index].bandit)
        let read = try #require(ContextualBandit.bandits(json: payload["contextualBandits"] ?? [:])["insertion-bandit"])
        #expect(read.contexts.map(\.leafId) == file.leaves.map(\.leafId))
        #expect(read.contexts.map { $0.condition?.source ?? [:] } == file.leaves.map { $0.condition?.source ?? [:] })
        #expect(read.contexts.map(\.weights) == file.leaves.map { $0.weights ?? [] })

        // And the SDK's evaluation of the payload gives each session the arm Remix gives it, by its leaf.
        let evaluator = FeatureEvaluator(features: Feature.features(json: payload["features"] ?? [:]),
                                         contextualBandits: ContextualBandit.bandits(json: payload["contextualBandits"] ?? [:]))
        let running = ExperimentSet(definitions: definitions, savedGroups: set.savedGroups, slotRules: set.slotRules)
        for user in 0..<300 {
            let platform = ["tablet", "phone", "desktop"][user % 3]
            let attributes: [String: AttributeValue] = ["id": .string("u\(user)"), "platform": .string(platform)]
            let result = evaluator.evaluate("marketplace.insertion", context: AssignmentContext(attributes: attributes))
            #expect(result.contextualBandit?.leafId == (platform == "tablet" ? 1 : 2))
            let chooser = ExperimentSlotChooser(experiments: running, attributes: attributes, now: Date(), events: EventRecorder())
            let fill = try #require(chooser.fill(app: "marketplace", slot: "insertion", defaultFeature: "ManualGroupInsertion"))
            #expect((result.value.stringValue ?? result.value["feature"]?.stringValue) == fill.feature, "user \(user) on a \(platform)")
        }
    }
}
