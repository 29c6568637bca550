import Foundation
import RemixExperiments
import RemixInterop
import RemixKit
import RemixTestSupport
import Testing

/// Slots as GrowthBook features: a slot rules file (force rules with a condition and with a
/// rollout, an experiment rule, an unlisted experiment after them) is exported as the feature's
/// rules in the same order, and GrowthBook's Python SDK fills the slot as Remix's slot chooser does.
@Suite(.serialized) struct SlotRulesSDKAgreementTests {
    static let rules = """
        app: marketplace
        slot: insertion
        rules:
          - {id: ie, force: {feature: ManualGroupInsertion}, condition: {country: IE}}
          - experiment: b-listed
          - {id: ramp, force: {feature: AutoGroupInsertion, params: {loadingMessage: Ramp}}, coverage: 0.3, hashVersion: 2,
             seed: ramp, fallbackAttribute: deviceId}
          - {id: band, force: {feature: ManualGroupInsertion}, range: [0.2, 0.6], filters: [{seed: f, ranges: [[0, 0.7]]}]}
        """

    static func experiment(_ key: String, _ extra: String) -> String {
        """
        key: \(key)
        app: marketplace
        slot: insertion
        hashVersion: 2
        variations:
          - {key: manual, feature: ManualGroupInsertion}
          - {key: auto, feature: AutoGroupInsertion}
        \(extra)
        """
    }

    @Test(.enabled(if: GrowthBookPython.shouldRun, GrowthBookPython.skipReason))
    func theSDKFillsTheSlotAsTheRulesFileSays() throws {
        let registry = try Fixtures.registry()
        let folder = try TemporaryFolder()
        try folder.write("experiments/insertion.rules.yaml", Self.rules)
        try folder.write("experiments/a-unlisted.yaml", Self.experiment("a-unlisted", "namespace: [n, 0.5, 1]"))
        try folder.write("experiments/b-listed.yaml", Self.experiment("b-listed", "namespace: [n, 0, 0.3]"))
        let set = Fixtures.load([folder.path("experiments")], registry: registry)
        let export = try GrowthBookExport.make(set, registry: registry, app: "marketplace", at: Fixtures.november)
        let key = GrowthBookExport.featureKey(app: "marketplace", slot: "insertion")
        let ruleIds = export.payload["features"]?[key]?["rules"]?.arrayValue?.map { $0["id"]?.stringValue ?? "" }
        #expect(ruleIds == ["ie", "b-listed", "ramp", "band", "a-unlisted"])
        let cases = AttributeSets.make(count: 2000)
        let (_, results) = try GrowthBookPython.evaluate(.object([
            "payloads": .object(["rules": export.payload]), "cases": .array(cases.map(\.json)),
        ]))
        let evaluated = try #require(results["rules"]?[key]?.arrayValue)
        try #require(evaluated.count == cases.count)
        let app = try registry.app(named: "marketplace")
        let slot = try #require(app.slot(named: "insertion"))
        var mismatches: [String] = []
        var byRule: [String: Int] = [:]
        for (index, item) in cases.enumerated() {
            let chooser = ExperimentSlotChooser(experiments: set, attributes: item.attributes, now: Fixtures.november,
                                                events: EventRecorder())
            let assignment = chooser.choose(slot: slot, app: app)
            let expected = SlotValue(feature: assignment?.feature ?? slot.defaultFeature, parameters: assignment?.parameters ?? [:]).json
            let got = evaluated[index]
            byRule[got["ruleId"]?.stringValue ?? "default", default: 0] += 1
            if got["value"] != expected {
                mismatches.append("case \(index) \(PayloadJSON.compact(item.json)): Remix \(PayloadJSON.compact(expected)), "
                                  + "SDK \(PayloadJSON.compact(got))")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) disagreements: \(mismatches.prefix(5).joined(separator: "\n"))")
        // Every rule decides some sessions, so each is compared.
        for rule in ["ie", "b-listed", "ramp", "band", "a-unlisted"] { #expect(byRule[rule, default: 0] > 20, "\(rule): \(byRule)") }
    }
}
