import Foundation
import RemixCLITestSupport
import RemixExperiments
import RemixInterop
import RemixKit
import RemixTestSupport
import Testing

/// One evaluation of a slot everywhere: for the users of a simulation of a slot with a rules file
/// (force rules with a condition and as a rollout, two experiments it orders that overlap), `remix
/// assign --json` gives each experiment's decision and the slot's filler as the simulation logged
/// them, and GrowthBook's Python SDK, loading `remix export growthbook`'s payload, fills the slot
/// with the same feature by the same rule.
@Suite(.serialized) struct SlotEvaluationAgreementTests {
    static let rules = """
        app: marketplace
        slot: insertion
        rules:
          - {id: gb-staff, force: {feature: ManualGroupInsertion}, condition: {country: GB}}
          - experiment: b-half
          - {id: ramp, force: {feature: AutoGroupInsertion, params: {loadingMessage: Ramp}}, coverage: 0.4, hashVersion: 2, seed: ramp}
          - experiment: a-all
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
          - {key: alternating, feature: AlternatingInsertion}
        \(extra)
        """
    }

    /// A simulated session that used the slot: its attributes, start and exposures by experiment.
    struct Session {
        var attributes: AttributeValue
        var start: String
        var exposures: [String: AttributeValue] = [:]

        /// The feature that filled the slot, as the exposures say.
        var filler: String? { exposures.values.first?["feature"]?.stringValue }
    }

    static func sessions(inLog path: String) throws -> [Session] {
        var byID: [String: Session] = [:]
        var order: [String] = []
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let event = try AttributeValue.parse(json: String(line))
            guard let id = event["session"]?.stringValue, !id.isEmpty else { continue }
            switch event["type"]?.stringValue {
            case "session_started":
                byID[id] = Session(attributes: event["attributes"] ?? [:], start: event["ts"]?.stringValue ?? "")
                order.append(id)
            case "exposure":
                if let key = event["experiment"]?.stringValue { byID[id]?.exposures[key] = event }
            default: break
            }
        }
        return order.compactMap { byID[$0] }.filter { !$0.exposures.isEmpty }
    }

    @Test(.enabled(if: GrowthBookPython.shouldRun, GrowthBookPython.skipReason))
    func assignTheSimulationAndTheSDKFillTheSlotAlike() async throws {
        let folder = try TemporaryFolder()
        try folder.write("experiments/insertion.rules.yaml", Self.rules)
        try folder.write("experiments/a-all.yaml", Self.experiment("a-all", ""))
        try folder.write("experiments/b-half.yaml", Self.experiment("b-half", "coverage: 0.5"))
        try folder.write("experiments/population.yaml",
                         try String(contentsOfFile: Paths.experiments + "/population.yaml", encoding: .utf8))
        let experiments = folder.path("experiments")
        let log = folder.path("events.jsonl")
        let simulated = await RemixInProcess.run(["simulate", "--experiments", experiments, "--users", "300", "--seed", "5",
                                                  "--jobs", "1", "--log", log, "--no-report"])
        try #require(simulated.status == 0, "\(simulated.stderr)")
        let sessions = try Self.sessions(inLog: log)
        try #require(sessions.count > 100)

        let registry = try Fixtures.registry()
        let export = try GrowthBookExport.make(Fixtures.load([experiments], registry: registry), registry: registry,
                                               app: "marketplace", at: Fixtures.november)
        let key = GrowthBookExport.featureKey(app: "marketplace", slot: "insertion")
        let ruleIds = export.payload["features"]?[key]?["rules"]?.arrayValue?.map { $0["id"]?.stringValue ?? "" }
        #expect(ruleIds == ["gb-staff", "b-half", "ramp", "a-all"])
        let cases = sessions.map { EvaluationCase(attributes: $0.attributes.objectValue ?? [:]) }
        let (_, results) = try GrowthBookPython.evaluate(.object([
            "payloads": .object(["rules": export.payload]), "cases": .array(cases.map(\.json)),
        ]))
        let evaluated = try #require(results["rules"]?[key]?.arrayValue)
        try #require(evaluated.count == sessions.count)

        var byRule: [String: Int] = [:]
        var mismatches: [String] = []
        // Every session against the SDK; `remix assign` for the first sessions each rule decides.
        for (index, session) in sessions.enumerated() {
            let sdk = evaluated[index]
            let rule = sdk["ruleId"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? "default"
            byRule[rule, default: 0] += 1
            if sdk["value"]?["feature"]?.stringValue != session.filler {
                mismatches.append("\(session.attributes): simulated \(session.filler ?? "-"), SDK \(PayloadJSON.compact(sdk))")
            }
            guard byRule[rule, default: 0] <= 6 else { continue }
            let attributes = PayloadJSON.compact(session.attributes)
            for (experiment, exposure) in session.exposures {
                let result = try RemixProcess.run(["assign", experiment, "--experiments", experiments, "--attributes", attributes,
                                                   "--at", session.start, "--json"])
                try #require(result.status == 0, "\(result.stderr)")
                let assigned = try AttributeValue.parse(json: result.stdout)
                for field in ["inExperiment", "variation", "variationId"] where assigned[field] != exposure[field] {
                    mismatches.append("\(attributes) \(experiment) \(field): assign \(assigned[field] ?? .null), simulated \(exposure[field] ?? .null)")
                }
                if assigned["slotFeature"]?.stringValue != session.filler || assigned["slotParameters"] != sdk["value"]?["params"] {
                    mismatches.append("\(attributes) \(experiment): assign fills with \(result.stdout), simulated \(session.filler ?? "-")")
                }
                if (assigned["slotRule"]?.stringValue ?? "default") != rule {
                    mismatches.append("\(attributes) \(experiment): assign's rule \(assigned["slotRule"] ?? .null), SDK's \(rule)")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) disagreements: \(mismatches.prefix(6).joined(separator: "\n"))")
        // Every rule fills the slot for some sessions, and the overlapping experiments both take some.
        for rule in ["gb-staff", "b-half", "ramp", "a-all"] { #expect(byRule[rule, default: 0] > 5, "\(rule): \(byRule)") }
    }
}
