import Foundation
import RemixBuiltIns
import RemixExperiments
import RemixHost
import RemixKit
import Testing

/// Slots as GrowthBook features: a slot rules file orders force rules (with a condition, a
/// percentage rollout) and experiment rules; experiments it does not list follow in key order;
/// `remix validate` checks the file with positions.
@Suite struct SlotRulesTests {
    static let variations = SlotChooserTests.variations

    static func folder(rules: String) throws -> ExperimentFolder {
        let folder = try ExperimentFolder()
        try folder.write("flow.yaml", Fixture.experiment("flow", variations: variations, "namespace: [n, 0, 0.5]"))
        try folder.write("other.yaml", Fixture.experiment("other", variations: variations, "namespace: [n, 0.5, 1]"))
        try folder.write("insertion.rules.yaml", rules)
        return folder
    }

    static func choose(_ set: ExperimentSet, _ attributes: [String: AttributeValue]) throws -> (String?, [ExperimentDecision]) {
        let chooser = ExperimentSlotChooser(experiments: set, attributes: attributes, now: SlotChooserTests.june, events: EventRecorder())
        let (app, slot) = try SlotChooserTests.slot()
        let feature = chooser.choose(slot: slot, app: app)?.feature
        return (feature, chooser.decisions["insertion"] ?? [])
    }

    @Test func aForceRuleWithAConditionComesBeforeTheExperimentsItPrecedes() throws {
        let folder = try Self.folder(rules: """
            app: marketplace
            slot: insertion
            rules:
              - experiment: other
              - {id: uk, force: {feature: AlternatingInsertion}, condition: {country: GB}}
            """)
        let (set, problems) = folder.load()
        #expect(problems.isEmpty && set.slotRules.count == 1)
        #expect(try folder.validate().diagnostics.isEmpty)
        var forcedCount = 0
        for index in 0..<200 {
            let id = AttributeValue.string("u\(index)")
            let (feature, decisions) = try Self.choose(set, ["id": id, "country": "GB"])
            let plain = try Self.choose(set, ["id": id, "country": "FR"])
            // Order: other (listed), the force rule, then flow (not listed).
            #expect(decisions.map(\.experiment) == ["other", "flow"] && plain.1.map(\.experiment) == ["other", "flow"])
            if decisions[0].inExperiment {
                #expect(feature == decisions[0].feature && decisions[1].rule != "assigned")
            } else {
                forcedCount += 1
                #expect(feature == "AlternatingInsertion")
                #expect(!decisions[1].inExperiment)
                if plain.1[1].inExperiment {
                    #expect(decisions[1].rule == "slotTaken" && decisions[1].reason.contains("force rule 'uk' already fills"))
                }
                #expect(plain.0 == (plain.1[1].feature ?? "AlternatingInsertion"))
            }
        }
        #expect(forcedCount > 50)
    }

    @Test func aPercentageRolloutForcesTheShareGrowthBookWould() throws {
        let folder = try Self.folder(rules: """
            app: marketplace
            slot: insertion
            rules:
              - {force: {feature: ManualGroupInsertion}, coverage: 0.3, hashVersion: 2, seed: ramp}
            """)
        let (set, problems) = folder.load()
        #expect(problems.isEmpty)
        var rule = FeatureRule()
        rule.force = "ManualGroupInsertion"
        rule.coverage = 0.3
        rule.hashVersion = 2
        rule.seed = "ramp"
        let evaluator = FeatureEvaluator(features: [Feature(key: "marketplace.insertion", defaultValue: "none", rules: [rule])])
        var rolledOut = 0
        for index in 0..<1000 {
            let attributes: [String: AttributeValue] = ["id": .string("user-\(index)")]
            let (feature, decisions) = try Self.choose(set, attributes)
            let growthBook = evaluator.evaluate("marketplace.insertion", context: AssignmentContext(attributes: attributes))
            #expect((growthBook.source == .force) == (feature == "ManualGroupInsertion" && decisions.allSatisfy { !$0.inExperiment }))
            if growthBook.source == .force { rolledOut += 1 }
        }
        #expect((250...350).contains(rolledOut), "\(rolledOut) of 1000 at coverage 0.3")
    }

    @Test func validateNamesEveryProblemOfARulesFileAtItsPosition() throws {
        let folder = try Self.folder(rules: """
            app: marketplace
            slot: insertion
            rules:
              - experiment: nope
              - {force: {feature: NoSuchFeature}}
              - {force: {feature: ManualGroupInsertion}, coverag: 0.2}
              - {experiment: flow, coverage: 0.5}
              - {force: {feature: ManualGroupInsertion}, coverage: 2}
            """)
        let messages = try folder.validate().diagnostics.map(\.description)
        let file = "insertion.rules.yaml"
        #expect(messages.contains { $0.contains("\(file):4:17: error: no experiment 'nope'") }, "\(messages)")
        #expect(messages.contains { $0.contains("\(file):5:5: error: ") && $0.contains("NoSuchFeature") }, "\(messages)")
        #expect(messages.contains { $0.contains("\(file):6:46: error: unknown key 'coverag' in a rule; did you mean 'coverage'?") },
                "\(messages)")
        #expect(messages.contains { $0.contains("\(file):7:24: error: an experiment rule has only 'experiment: KEY'") }, "\(messages)")
        #expect(messages.contains { $0.contains("\(file):8:56: error: coverage must be between 0 and 1, not 2.0") }, "\(messages)")
    }

    /// A rule whose range or filter lets nobody in, or whose hash GrowthBook does not have, is an
    /// error where it is written, as in an experiment file.
    @Test func rangesAndHashVersionsThatCannotWorkAreErrors() throws {
        let folder = try Self.folder(rules: """
            app: marketplace
            slot: insertion
            rules:
              - {force: {feature: ManualGroupInsertion}, range: [0.9, 0.1]}
              - {force: {feature: ManualGroupInsertion}, range: [0.2, 0.2]}
              - {force: {feature: ManualGroupInsertion}, filters: [{seed: s, ranges: [[0, 0.5]], hashVersion: 7}]}
              - {force: {feature: ManualGroupInsertion}, hashVersion: 7}
              - {force: {feature: ManualGroupInsertion}, range: [.nan, 0.5]}
              - {force: {feature: ManualGroupInsertion}, filters: [{seed: s, ranges: [[0.6, 0.4]]}]}
            """)
        let report = try folder.validate()
        #expect(folder.rendered(report.diagnostics) == [
            "insertion.rules.yaml:4:53: error: a range needs 0 ≤ start < end ≤ 1, not [0.9, 0.1]",
            "insertion.rules.yaml:5:53: error: a range needs 0 ≤ start < end ≤ 1, not [0.2, 0.2]",
            "insertion.rules.yaml:6:99: error: hashVersion must be 1 or 2, not 7",
            "insertion.rules.yaml:7:59: error: hashVersion must be 1 or 2, not 7",
            "insertion.rules.yaml:8:53: error: a range needs 0 ≤ start < end ≤ 1, not [nan, 0.5]",
            "insertion.rules.yaml:9:75: error: a range needs 0 ≤ start < end ≤ 1, not [0.6, 0.4]",
        ])
    }
}
