import Foundation
import RemixExperiments
import RemixInterop
import RemixKit
import RemixTestSupport
import Testing

/// `remix import growthbook` keeps a feature's force rules and order in a slot rules file: the
/// imported folder fills the slot as the payload does (GrowthBook's Python SDK on both), and
/// exporting it again gives the rules in the same order.
@Suite(.serialized) struct ImportSlotRulesTests {
    static let payload: AttributeValue = ["features": ["marketplace.insertion": ["defaultValue": "AlternatingInsertion", "rules": [
        ["id": "gb-staff", "force": "ManualGroupInsertion", "condition": ["country": "GB"]],
        ["id": "b-half", "key": "b-half", "hashVersion": 2, "coverage": 0.5,
         "variations": ["ManualGroupInsertion", "AutoGroupInsertion"]],
        ["id": "ramp", "force": ["feature": "AutoGroupInsertion", "params": ["loadingMessage": "Ramp"]], "coverage": 0.4,
         "hashVersion": 2, "fallbackAttribute": "deviceId"],
        ["id": "band", "force": "ManualGroupInsertion", "range": [0.2, 0.6], "seed": "band",
         "filters": [["seed": "f", "ranges": [[0, 0.7]]]]],
        ["id": "a-all", "key": "a-all", "hashVersion": 2, "variations": ["ManualGroupInsertion", "AlternatingInsertion"]],
    ]]]]

    /// A slot value as an object: a GrowthBook string feature's value names the feature.
    static func object(_ value: AttributeValue?) -> AttributeValue? {
        guard case .string(let name)? = value else { return value }
        return ["feature": .string(name), "params": [:]]
    }

    static func options(_ folder: TemporaryFolder, overwrite: Bool = false, feature: String? = nil) -> GrowthBookImport.Options {
        .init(payloadFile: "payload.json", app: "marketplace", slot: "insertion", feature: feature,
              outputFolder: folder.path("experiments"), overwrite: overwrite)
    }

    @Test func forceRulesAndTheOrderGoIntoARulesFile() throws {
        let registry = try Fixtures.registry()
        let folder = try TemporaryFolder()
        let plan = try GrowthBookImport.plan(Self.payload, options: Self.options(folder), registry: registry)
        try plan.write()
        #expect(plan.experiments.map(\.key) == ["b-half", "a-all"])
        #expect(plan.files.map { ($0.path as NSString).lastPathComponent } == ["b-half.yaml", "a-all.yaml", "marketplace.insertion.rules.yaml"])
        let text = try String(contentsOfFile: folder.path("experiments/marketplace.insertion.rules.yaml"), encoding: .utf8)
        #expect(text.contains("""
            rules:
              - id: gb-staff
                force: {feature: ManualGroupInsertion}
                condition:
                  country: GB
              - experiment: b-half
              - id: ramp
                force: {feature: AutoGroupInsertion, params: {loadingMessage: Ramp}}
                coverage: 0.4
                fallbackAttribute: deviceId
                hashVersion: 2
            """), "\(text)")
        let validation = ExperimentValidation.run(paths: [folder.path("experiments")], registry: registry)
        #expect(validation.errorCount == 0, "\(validation.diagnostics)")
        let exported = try GrowthBookExport.make(validation.experiments, registry: registry, app: "marketplace", at: Date())
        let rules = try #require(exported.payload["features"]?["marketplace.insertion"]?["rules"]?.arrayValue)
        #expect(rules.map { $0["id"]?.stringValue ?? "" } == ["gb-staff", "b-half", "ramp", "band", "a-all"])
        #expect(rules[3]["range"] == [0.2, 0.6] && rules[3]["seed"] == "band" && rules[3]["filters"] == [["seed": "f", "ranges": [[0, 0.7]]]])
        // The imported folder fills the slot exactly as the payload does.
        guard GrowthBookPython.path != nil else { return }
        let cases = AttributeSets.make(count: 2000)
        let (_, results) = try GrowthBookPython.evaluate(.object([
            "payloads": .object(["given": Self.payload, "again": exported.payload]), "cases": .array(cases.map(\.json)),
        ]))
        let given = try #require(results["given"]?["marketplace.insertion"]?.arrayValue)
        let again = try #require(results["again"]?["marketplace.insertion"]?.arrayValue)
        var byRule: [String: Int] = [:]
        for index in cases.indices {
            byRule[given[index]["ruleId"]?.stringValue ?? "", default: 0] += 1
            #expect(given[index]["ruleId"] == again[index]["ruleId"], "\(cases[index].attributes)")
            #expect(Self.object(given[index]["value"]) == again[index]["value"], "\(cases[index].attributes)")
        }
        for rule in ["gb-staff", "b-half", "ramp", "band", "a-all"] { #expect(byRule[rule, default: 0] > 20, "\(byRule)") }
    }

    @Test func aRolloutWithoutSeedKeepsTheFeatureKeyItWasHashedWith() throws {
        let payload: AttributeValue = ["features": ["checkout-flow": ["rules": [["id": "r", "force": "ManualGroupInsertion", "coverage": 0.3]]]]]
        let folder = try TemporaryFolder()
        let plan = try GrowthBookImport.plan(payload, options: Self.options(folder), registry: try Fixtures.registry())
        #expect(plan.experiments.isEmpty && plan.rules.count == 1)
        let text = try #require(plan.files.first?.text)
        #expect(text.contains("    coverage: 0.3\n    seed: checkout-flow\n"), "\(text)")
    }

    @Test func anotherRulesFileOfTheSlotIsNeverReplaced() throws {
        let registry = try Fixtures.registry()
        let folder = try TemporaryFolder()
        try folder.write("experiments/mine.rules.yaml", "app: marketplace\nslot: insertion\nrules: []\n")
        #expect(throws: InteropError.self) { try GrowthBookImport.plan(Self.payload, options: Self.options(folder), registry: registry) }
        do {
            _ = try GrowthBookImport.plan(Self.payload, options: Self.options(folder, overwrite: true), registry: registry)
            Issue.record("imported beside another rules file of the slot")
        } catch {
            #expect("\(error)".contains("the rules of marketplace/insertion are in \(folder.path("experiments/mine.rules.yaml")) already"))
        }
        let fresh = try TemporaryFolder()
        try GrowthBookImport.plan(Self.payload, options: Self.options(fresh), registry: registry).write()
        do {
            _ = try GrowthBookImport.plan(Self.payload, options: Self.options(fresh), registry: registry)
            Issue.record("replaced the files without --overwrite")
        } catch {
            #expect("\(error)".contains("marketplace.insertion.rules.yaml already exists; pass --overwrite to replace it"))
        }
        let replaced = try GrowthBookImport.plan(Self.payload, options: Self.options(fresh, overwrite: true), registry: registry)
        let replacesAll = replaced.files.allSatisfy { $0.replaces }
        #expect(replacesAll)
    }
}
