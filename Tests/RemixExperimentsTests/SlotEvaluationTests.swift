import Foundation
import RemixExperiments
import RemixKit
import RemixTestSupport
import Testing

/// One evaluation of a slot everywhere: `remix assign` decides an experiment as the slot chooser of
/// `run` and `simulate` does — the slot's rules file and the experiments before it first — and a
/// rules file that orders two experiments lets them overlap.
@Suite struct SlotEvaluationTests {
    static let rules = """
        app: marketplace
        slot: insertion
        rules:
          - {id: gb-staff, force: {feature: AlternatingInsertion}, condition: {country: GB}}
          - experiment: flow
        """

    /// `flow` takes everyone (no namespace); `other` is not listed, so it comes after `flow`.
    static func folder(rules: String = SlotEvaluationTests.rules) throws -> ExperimentFolder {
        let folder = try ExperimentFolder()
        try folder.write("flow.yaml", Fixture.experiment("flow", variations: SlotChooserTests.variations, "namespace: [n, 0, 0.5]"))
        try folder.write("other.yaml", Fixture.experiment("other", variations: SlotChooserTests.variations, "namespace: [n, 0.5, 1]"))
        try folder.write("insertion.rules.yaml", rules)
        return folder
    }

    /// `remix assign KEY --json` as the built binary answers it.
    static func assign(_ key: String, _ attributes: String, in folder: ExperimentFolder) async throws -> AttributeValue {
        let result = try RemixProcess.run(["assign", key, "--experiments", folder.path, "--attributes", attributes, "--json"])
        try #require(result.status == 0, "\(result.stderr)")
        return try AttributeValue.parse(json: result.stdout)
    }

    @Test func assignPutsTheRulesFilesForceRuleBeforeTheExperiment() async throws {
        let folder = try Self.folder()
        #expect(try folder.validate().diagnostics.isEmpty)
        let (set, _) = folder.load()
        let flow = try #require(set.definition(key: "flow"))
        let id = try Fixture.userID { ExperimentEvaluator().decide(flow, attributes: ["id": .string($0)], now: Date()).inExperiment }
        // In Great Britain the force rule fills the slot first: flow does not get the session.
        let british = try await Self.assign("flow", "{\"id\":\"\(id)\",\"country\":\"GB\"}", in: folder)
        #expect(british["inExperiment"] == false && british["rule"] == "slotTaken", "\(british)")
        #expect(british["reason"]?.stringValue?.contains("force rule 'gb-staff' already fills marketplace/insertion") == true)
        #expect(british["slotFeature"] == "AlternatingInsertion" && british["slotRule"] == "gb-staff")
        // Elsewhere flow decides, and the slot is filled by its variation.
        let french = try await Self.assign("flow", "{\"id\":\"\(id)\",\"country\":\"FR\"}", in: folder)
        #expect(french["inExperiment"] == true && french["rule"] == "assigned")
        #expect(french["slotFeature"] == french["feature"] && french["slotRule"] == "flow")
        // A file named alone is decided with its slot's rules beside it, and the text says what fills the slot.
        let text = try RemixProcess.run(["assign", folder.path + "/flow.yaml", "--attributes", "{\"id\":\"\(id)\",\"country\":\"GB\"}"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("rule          slotTaken: not in experiment: force rule 'gb-staff' already fills"))
        #expect(text.stdout.contains("slot filled   AlternatingInsertion by force rule 'gb-staff'"))
    }

    @Test func assignGivesWhatTheSlotChooserGivesForEveryExperiment() async throws {
        let folder = try Self.folder()
        let (set, _) = folder.load()
        let (app, slot) = try SlotChooserTests.slot()
        for index in 0..<30 {
            let country = ["GB", "FR", "IE"][index % 3]
            let attributes: [String: AttributeValue] = ["id": .string("user-\(index)"), "country": .string(country)]
            let chooser = ExperimentSlotChooser(experiments: set, attributes: attributes, now: Date(), events: EventRecorder())
            let fill = try #require(chooser.fill(app: app.name, slot: slot.name, defaultFeature: slot.defaultFeature))
            for decision in fill.decisions {
                let json = try await Self.assign(decision.experiment, "{\"id\":\"user-\(index)\",\"country\":\"\(country)\"}", in: folder)
                #expect(json["inExperiment"]?.boolValue == decision.inExperiment && json["rule"]?.stringValue == decision.rule)
                #expect(json["variation"]?.stringValue == decision.variation && json["slotFeature"]?.stringValue == fill.feature)
                #expect(json["slotRule"]?.stringValue == fill.ruleID)
            }
        }
    }

    @Test func experimentsARulesFileOrdersMayOverlap() throws {
        // Both take everyone: without an order it is an error; listed in the rules file, the first wins.
        let overlapping = try ExperimentFolder()
        try overlapping.write("flow.yaml", Fixture.experiment("flow", variations: SlotChooserTests.variations))
        try overlapping.write("other.yaml", Fixture.experiment("other", variations: SlotChooserTests.variations))
        let errors = try overlapping.validate().diagnostics.filter { $0.severity == .error }.map(\.message)
        #expect(errors.count == 1 && errors[0].contains("can assign the same session"), "\(errors)")
        #expect(errors.first?.contains("or list both in a rules file of the slot") == true)
        try overlapping.write("insertion.rules.yaml", """
            app: marketplace
            slot: insertion
            rules:
              - experiment: other
              - experiment: flow
            """)
        #expect(try overlapping.validate().diagnostics.isEmpty)
        let (set, _) = overlapping.load()
        let (app, slot) = try SlotChooserTests.slot()
        let chooser = ExperimentSlotChooser(experiments: set, attributes: ["id": "u1"], now: Date(), events: EventRecorder())
        let fill = try #require(chooser.fill(app: app.name, slot: slot.name, defaultFeature: slot.defaultFeature))
        #expect(fill.decisions.map(\.experiment) == ["other", "flow"] && fill.ruleID == "other")
        #expect(fill.decisions[1].rule == "slotTaken")
        // One listed and one not: the unlisted one's place is implied, so they must still exclude each other.
        try overlapping.write("insertion.rules.yaml", "app: marketplace\nslot: insertion\nrules:\n  - experiment: other\n")
        #expect(try overlapping.validate().diagnostics.filter { $0.severity == .error }.count == 1)
    }
}
