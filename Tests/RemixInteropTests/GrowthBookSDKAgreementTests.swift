import Foundation
import RemixExperiments
import RemixInterop
import RemixKit
import RemixTestSupport
import Testing

/// The proof: GrowthBook's own Python SDK, loading the exported payload, picks the same slot filler,
/// from the same experiment and variation, as Remix does, for thousands of attribute sets.
@Suite(.serialized) struct GrowthBookSDKAgreementTests {
    /// One payload to check: experiments exported at a time.
    struct Scenario {
        let name: String
        let set: ExperimentSet
        let registry: FeatureRegistry
        let date: Date
        let export: GrowthBookExport

        /// The keys exported as experiment rules (not force rules).
        var experimentRuleKeys: Set<String> {
            let features: [AttributeValue] = export.payload["features"]?.objectValue.map { Array($0.values) } ?? []
            let rules: [AttributeValue] = features.flatMap { (feature: AttributeValue) -> [AttributeValue] in
                feature["rules"]?.arrayValue ?? []
            }
            let experimentRules: [AttributeValue] = rules.filter { (rule: AttributeValue) -> Bool in rule["variations"] != nil }
            return Set(experimentRules.compactMap { (rule: AttributeValue) -> String? in rule["key"]?.stringValue })
        }
    }

    static func scenarios(tricky: TemporaryFolder) throws -> [Scenario] {
        let plain = try Fixtures.registry()
        let withPlugin = try Fixtures.registry(withPlugin: true)
        let sets = [
            ("shipped", Fixtures.load([Paths.experiments], registry: plain), plain),
            ("plugins", Fixtures.load([Paths.pluginExperiments], registry: withPlugin), withPlugin),
            ("tricky", Fixtures.load([tricky.location], registry: plain), plain),
        ]
        return try sets.flatMap { name, set, registry in
            try [("november", Fixtures.november), ("december", Fixtures.december)].map { time, date in
                Scenario(name: "\(name)-\(time)", set: set, registry: registry, date: date,
                         export: try GrowthBookExport.make(set, registry: registry, at: date))
            }
        }
    }

    @Test(.enabled(if: GrowthBookPython.shouldRun, GrowthBookPython.skipReason))
    func theSDKAssignsEverySessionAsRemixDoes() throws {
        let tricky = try TrickyExperiments.folder()
        let scenarios = try Self.scenarios(tricky: tricky)
        // QA forcing only of experiments that every payload of their folder holds as experiment
        // rules (forcing one that is left out, or a force rule, is not expressible).
        var forcible: Set<String> = []
        for scenario in scenarios {
            let others = scenarios.filter { $0.set.definitions.map(\.key) == scenario.set.definitions.map(\.key) }
            forcible.formUnion(others.map(\.experimentRuleKeys).reduce(scenario.experimentRuleKeys) { $0.intersection($1) })
        }
        let cases = AttributeSets.forcing(AttributeSets.make(count: 3000), keys: forcible.sorted())
        let payloads = Dictionary(uniqueKeysWithValues: scenarios.map { ($0.name, $0.export.payload) })
        let (sdk, results) = try GrowthBookPython.evaluate(.object([
            "payloads": .object(payloads), "cases": .array(cases.map(\.json)),
        ]))
        var compared = 0
        var forcedReached = 0
        var mismatches: [String] = []
        for scenario in scenarios {
            let app = try scenario.registry.app(named: "marketplace")
            let slot = try #require(app.slot(named: "insertion"))
            let key = GrowthBookExport.featureKey(app: app.name, slot: slot.name)
            let evaluated = try #require(results[scenario.name]?[key]?.arrayValue, "no SDK results for \(scenario.name)")
            try #require(evaluated.count == cases.count)
            for (index, item) in cases.enumerated() {
                let forced = item.forced.filter { Self.forcingReaches($0.key, item, scenario) }
                forcedReached += forced.keys.filter { scenario.set.definition(key: $0) != nil }.count
                let chooser = ExperimentSlotChooser(experiments: scenario.set, attributes: item.attributes,
                                                    now: scenario.date, events: EventRecorder(), forcedVariations: forced)
                let assignment = chooser.choose(slot: slot, app: app)
                let decisions = chooser.decisions[slot.name] ?? []
                let winner = decisions.first { $0.inExperiment }
                let got = evaluated[index]
                let expectedValue = SlotValue(feature: assignment?.feature ?? slot.defaultFeature,
                                              parameters: assignment?.parameters ?? [:]).json
                let expectedSource = winner == nil ? "defaultValue" : winner?.rule == "forcedByExperiment" ? "force" : "experiment"
                var problems: [String] = []
                if got["value"] != expectedValue { problems.append("value \(PayloadJSON.compact(got["value"] ?? .null))") }
                if got["source"]?.stringValue != expectedSource { problems.append("source \(got["source"] ?? .null)") }
                if got["ruleId"]?.stringValue != winner?.experiment { problems.append("rule \(got["ruleId"] ?? .null)") }
                if expectedSource == "experiment", let winner {
                    if got["variationId"]?.numberValue != winner.variationId.map(Double.init) {
                        problems.append("variation \(got["variationId"] ?? .null) for \(winner.variationId ?? -1)")
                    }
                    if got["hashUsed"]?.boolValue != winner.hashUsed { problems.append("hashUsed \(got["hashUsed"] ?? .null)") }
                }
                for decision in decisions {
                    compared += 1
                    if decision.inExperiment != (got["ruleId"]?.stringValue == decision.experiment) {
                        problems.append("\(decision.experiment): Remix \(decision.rule)")
                    }
                }
                if !problems.isEmpty {
                    mismatches.append("\(scenario.name) case \(index) \(PayloadJSON.compact(item.json)): "
                                      + "Remix \(winner.map { "\($0.experiment)/\($0.variation ?? "?") (\($0.rule))" } ?? "default"); "
                                      + "SDK \(problems.joined(separator: ", "))")
                }
            }
            try expectCoverage(scenario, cases: cases)
        }
        #expect(forcedReached >= 50, "too few sessions exercise QA forcing: \(forcedReached)")
        #expect(mismatches.isEmpty, "\(mismatches.count) disagreements, first: \(mismatches.prefix(8).joined(separator: "\n"))")
        print("GrowthBook Python SDK \(sdk): \(cases.count) attribute sets × \(scenarios.count) payloads, "
              + "\(compared) experiment decisions compared (\(forcedReached) with QA forcing), \(mismatches.count) disagreements")
    }

    /// Whether QA forcing of `key` reaches the session in a GrowthBook SDK: feature evaluation checks
    /// a rule's condition and filters before it runs the experiment (where forcing happens), so
    /// forcing reaches only sessions that pass them (docs/growthbook.md). They are tested here with
    /// the engine on the experiment without its namespace, coverage, status and force.
    static func forcingReaches(_ key: String, _ item: EvaluationCase, _ scenario: Scenario) -> Bool {
        guard var definition = scenario.set.definition(key: key) else { return true }
        definition.schedule = nil
        definition.experiment.namespace = nil
        definition.experiment.coverage = 1
        definition.experiment.weights = nil
        definition.experiment.force = nil
        definition.experiment.status = .running
        definition.experiment.active = true
        let rule = ExperimentEvaluator(savedGroups: scenario.set.savedGroups)
            .decide(definition, attributes: item.attributes, now: scenario.date).rule
        let filtered = !(definition.experiment.filters ?? []).isEmpty
        return rule != "condition" && rule != "filtered" && !(filtered && rule == "missingHashAttribute")
    }

    /// The attribute sets reach every variation of every exported experiment several times, and
    /// exercise its targeting: some fail its condition, its namespace or its filters.
    private func expectCoverage(_ scenario: Scenario, cases: [EvaluationCase]) throws {
        let evaluator = ExperimentEvaluator(savedGroups: scenario.set.savedGroups)
        let exported = Set(scenario.export.payload["features"]?.objectValue?.values
            .flatMap { $0["rules"]?.arrayValue ?? [] }.compactMap { $0["id"]?.stringValue } ?? [])
        for definition in scenario.set.definitions where exported.contains(definition.key) {
            var rules: [String: Int] = [:]
            var variations: [Int: Int] = [:]
            for item in cases where item.forced.isEmpty {
                let decision = evaluator.decide(definition, attributes: item.attributes, now: scenario.date)
                rules[decision.rule, default: 0] += 1
                if let id = decision.variationId { variations[id, default: 0] += 1 }
            }
            let context = "\(scenario.name)/\(definition.key): \(rules)"
            if let force = definition.experiment.force {
                #expect(variations[force, default: 0] >= 3, "\(context)")
            } else {
                for index in definition.variations.indices { #expect(variations[index, default: 0] >= 3, "\(context)") }
            }
            if definition.experiment.condition != nil { #expect(rules["condition", default: 0] >= 3, "\(context)") }
            if definition.experiment.filters != nil { #expect(rules["filtered", default: 0] >= 3, "\(context)") }
            if definition.experiment.filters == nil, let slice = definition.experiment.namespace,
               slice.start > 0 || slice.end < 1 {
                #expect(rules["namespace", default: 0] >= 3, "\(context)")
            }
            #expect(rules["missingHashAttribute", default: 0] >= 3, "\(context)")
        }
    }

    /// `remix assign`, run as the built binary, gives the SDK's variation for a sample of sessions.
    @Test(.enabled(if: GrowthBookPython.shouldRun, GrowthBookPython.skipReason))
    func remixAssignAgreesWithTheSDKOnASample() throws {
        let registry = try Fixtures.registry()
        let set = Fixtures.load([Paths.experiments], registry: registry)
        let export = try GrowthBookExport.make(set, registry: registry, at: Fixtures.december)
        let evaluator = ExperimentEvaluator(savedGroups: set.savedGroups)
        // For each experiment, a few sessions it includes and a few it does not.
        var sample: [EvaluationCase] = []
        let all = AttributeSets.make(count: 600, seed: 5)
        for definition in set.definitions {
            let decide = { (item: EvaluationCase) in
                evaluator.decide(definition, attributes: item.attributes, now: Fixtures.december).inExperiment
            }
            sample += all.filter(decide).prefix(4) + all.filter { !decide($0) }.prefix(2)
        }
        let (_, results) = try GrowthBookPython.evaluate(.object([
            "payloads": .object(["shipped": export.payload]), "cases": .array(sample.map(\.json)),
        ]))
        for (index, item) in sample.enumerated() {
            for definition in set.definitions {
                // Each slot is its own feature in the payload: the SDK evaluates the experiment's.
                let feature = "\(definition.app).\(definition.slot)"
                let sdk = try #require(results["shipped"]?[feature]?.arrayValue?[index], "no SDK result for \(feature)")
                let result = try RemixProcess.run(
                    ["assign", definition.key, "--attributes", PayloadJSON.compact(.object(item.attributes)),
                     "--at", "2026-12-15T12:00:00Z", "--json"], in: Paths.root)
                try #require(result.status == 0, "\(result.stderr)")
                let decision = try PayloadJSON.parse(Data(result.stdout.utf8), file: "remix assign")
                let sdkIn = sdk["ruleId"]?.stringValue == definition.key
                #expect(decision["inExperiment"]?.boolValue == sdkIn, "\(definition.key) \(item.attributes)")
                if sdkIn {
                    #expect(decision["variationId"] == sdk["variationId"], "\(definition.key) \(item.attributes)")
                    #expect(decision["feature"] == sdk["value"]?["feature"], "\(definition.key) \(item.attributes)")
                }
            }
        }
    }
}
