import Foundation
import RemixExperiments
import RemixKit

/// Experiments as the SDK payload GrowthBook's SDKs load: one feature per app slot, named
/// `<app>.<slot>`, whose value names the registered feature that fills the slot (and its
/// parameters). Each experiment on the slot is one rule, in key order, so an SDK evaluating the
/// feature picks the same filler as `remix` does; see docs/growthbook.md for the mapping.
package struct GrowthBookExport: Sendable {
    /// Something about an experiment that the payload expresses differently, or not at all.
    package struct Note: Sendable, Equatable, CustomStringConvertible {
        /// The experiment's file.
        package let file: String
        /// The experiment's key.
        package let experiment: String
        /// What happened to it in the payload.
        package let message: String

        package var description: String { "\(file): experiment '\(experiment)' \(message)" }
    }

    /// The payload: `features`, and `savedGroups` when a condition uses one.
    package let payload: AttributeValue
    /// How experiments that the payload cannot hold as written were mapped.
    package let notes: [Note]

    /// The payload as indented JSON with a final newline.
    package var json: String { PayloadJSON.render(payload) + "\n" }

    /// The GrowthBook feature key of `slot` in `app`.
    package static func featureKey(app: String, slot: String) -> String { "\(app).\(slot)" }

    /// Exports the experiments of `set` for the slots of `app` (every registered app when nil),
    /// as a payload built at `date`: GrowthBook applies schedules when it builds a payload, so an
    /// experiment is in it only while its schedule runs. An experiment with phases is exported in
    /// the phase in force at `phaseDate`, or in its latest phase when that is nil (GrowthBook's
    /// payload holds an experiment's latest phase).
    package static func make(
        _ set: ExperimentSet, registry: FeatureRegistry, app: String? = nil, at date: Date, phaseAt phaseDate: Date? = nil
    ) throws(InteropError) -> GrowthBookExport {
        let apps: [AppDefinition]
        if let app {
            do {
                apps = [try registry.app(named: app)]
            } catch {
                throw InteropError(file: "--app", problems: [error.description])
            }
        } else {
            apps = registry.apps
        }
        var notes: [Note] = []
        var features: [String: AttributeValue] = [:]
        var bandits: [String: AttributeValue] = [:]
        var exported: Set<String> = []
        for app in apps {
            for slot in app.slots {
                var rules: [AttributeValue] = []
                for item in ordered(set, app: app.name, slot: slot.name) {
                    switch item {
                    case .force(let json): rules.append(json)
                    case .experiment(var definition):
                        exported.insert(definition.key)
                        // A rollout's control arm is the slot default; its rule is GrowthBook's safe-rollout rule at
                        // the file's first step (docs/rollouts.md).
                        for index in definition.variations.indices
                        where definition.variations[index].feature == Rollout.slotDefaultFeature {
                            definition.variations[index].feature = slot.defaultFeature
                        }
                        if let rule = rule(for: definition, at: date, phaseAt: phaseDate, notes: &notes) {
                            rules.append(rule)
                            if rule[contextualReference] != nil, let bandit = contextualBandit(definition) {
                                bandits[definition.key] = bandit
                            }
                        }
                    }
                }
                features[featureKey(app: app.name, slot: slot.name)] = .object([
                    "defaultValue": SlotValue(feature: slot.defaultFeature).json, "rules": .array(rules),
                ])
            }
        }
        let known = Set(apps.map(\.name))
        for definition in set.definitions where !exported.contains(definition.key) && (app == nil || known.contains(definition.app)) {
            notes.append(Note(file: definition.file, experiment: definition.key,
                              message: "is left out: app '\(definition.app)' has no slot '\(definition.slot)'"))
        }
        var payload: [String: AttributeValue] = ["features": .object(features)]
        if !bandits.isEmpty { payload["contextualBandits"] = .object(bandits) }
        let groups = usedGroups(in: Array(features.values) + Array(bandits.values)).sorted()
        if !groups.isEmpty {
            var saved: [String: AttributeValue] = [:]
            for name in groups { saved[name] = set.savedGroups[name] ?? .array([]) }
            payload["savedGroups"] = .object(saved)
        }
        return GrowthBookExport(payload: .object(payload), notes: notes)
    }

    private enum Item {
        case force(AttributeValue)
        case experiment(ExperimentDefinition)
    }

    /// A slot's rules in the order every command tries them (``SlotRuleOrder``): its rules file's
    /// (force rules as GrowthBook force rules), then the experiments the file does not list, in
    /// key order — the order GrowthBook's SDKs evaluate a feature's rules in.
    private static func ordered(_ set: ExperimentSet, app: String, slot: String) -> [Item] {
        let definitions = set.definitions(app: app, slot: slot)
        return SlotRuleOrder.steps(set.rules(app: app, slot: slot), experiments: definitions).map { step in
            switch step {
            case .force(let feature, let parameters, let rule):
                .force(forceRule(rule, value: SlotValue(feature: feature, parameters: parameters)))
            case .experiment(let index):
                .experiment(definitions[index])
            }
        }
    }

    /// A slot rules file's force rule, with GrowthBook's fields as written.
    private static func forceRule(_ rule: FeatureRule, value: SlotValue) -> AttributeValue {
        var json: [String: AttributeValue] = ["force": value.json]
        if !rule.id.isEmpty { json["id"] = .string(rule.id) }
        if let condition = rule.condition { json["condition"] = condition.source }
        if let coverage = rule.coverage { json["coverage"] = .number(coverage) }
        if let range = rule.range { json["range"] = .array([.number(range.start), .number(range.end)]) }
        if let attribute = rule.hashAttribute { json["hashAttribute"] = .string(attribute) }
        if let attribute = rule.fallbackAttribute { json["fallbackAttribute"] = .string(attribute) }
        if let seed = rule.seed { json["seed"] = .string(seed) }
        if let version = rule.hashVersion { json["hashVersion"] = .number(Double(version)) }
        if let filters = rule.filters { json["filters"] = .array(filters.map(Self.json)) }
        return .object(json)
    }

    /// The rule for `definition` at `date`, or nil (with a note) when GrowthBook would leave it out.
    static func rule(for definition: ExperimentDefinition, at date: Date, phaseAt phaseDate: Date? = nil,
                     notes: inout [Note]) -> AttributeValue? {
        var experiment = definition.experiment
        func note(_ message: String) {
            notes.append(Note(file: definition.file, experiment: definition.key, message: message))
        }
        if !experiment.active {
            note("is left out: an inactive experiment assigns nobody, so the payload holds no rule for it")
            return nil
        }
        if experiment.status == .draft {
            note("is left out: a draft assigns nobody, so the payload holds no rule for it")
            return nil
        }
        if let schedule = definition.schedule {
            guard schedule.contains(date) else {
                note("is left out: its schedule (\(describe(schedule))) does not include \(timestamp(date)); "
                     + "GrowthBook applies schedules when it builds the payload, so export again when it starts")
                return nil
            }
            note("runs on a schedule (\(describe(schedule))): GrowthBook applies schedules when it builds the "
                 + "payload, so this payload holds its rule until it ends; export again then")
        }
        var phase: ExperimentDefinition.Phase?
        if let last = definition.phases.last {
            let inForce: Int?
            if let phaseDate { inForce = definition.phaseIndex(at: phaseDate) } else { inForce = definition.phases.indices.last }
            guard let index = inForce else {
                note("is left out: its first phase starts at \(timestamp(definition.phases[0].start)), after "
                     + "\(phaseDate.map(timestamp) ?? "")")
                return nil
            }
            phase = definition.phases[index]
            experiment = definition.phases[index].experiment
            note("is exported in phase \(definition.phases[index].number) (from \(timestamp(definition.phases[index].start)))"
                 + (phaseDate == nil && index == definition.phases.count - 1 && last.start > date
                    ? ", its latest, which has not started at \(timestamp(date)); give --at for the phase in force then"
                    : phaseDate == nil ? ", its latest (--at DATE exports the phase in force then)" : ""))
        }
        if let force = experiment.force, definition.variations.indices.contains(force) {
            guard definition.variations.count >= 2 else {
                note("is left out: it has fewer than two variations, so it assigns nobody")
                return nil
            }
            note("forces variation \(force) ('\(definition.variations[force].key)'): exported as a force rule "
                 + "whose filters include exactly the sessions the experiment includes; SDKs report it as a "
                 + "forced value, not an experiment exposure")
            return forceRule(definition, experiment, variation: force)
        }
        if experiment.status == .stopped {
            note("is left out: a stopped experiment assigns nobody, so the payload holds no rule for it")
            return nil
        }
        return experimentRule(definition, experiment, phase: phase?.number)
    }

    /// The experiment rule, with `experiment`'s coverage and weights (a phase's, when it has phases).
    private static func experimentRule(_ definition: ExperimentDefinition, _ experiment: Experiment, phase: Int?) -> AttributeValue {
        var rule = common(definition)
        // GrowthBook writes the phase's index as text.
        if let phase { rule["phase"] = .string(String(phase)) }
        rule["key"] = .string(definition.key)
        let values = AttributeValue.array(definition.variations.map { value(of: $0).json })
        if definition.bandit?.leaves.isEmpty == false {
            // A contextual bandit, as GrowthBook's payload holds one: the leaves are the payload's
            // `contextualBandits` entry of the same key, the rule's weights the marginal ones.
            rule["contextualVariations"] = values
            rule[contextualReference] = .string(definition.key)
        } else {
            rule["variations"] = values
        }
        rule["weights"] = .array((experiment.weights ?? GrowthBookHash.equalWeights(definition.variations.count)).map { .number($0) })
        rule["coverage"] = .number(experiment.coverage ?? 1)
        rule["hashAttribute"] = .string(hashAttribute(experiment))
        if let fallback = experiment.fallbackAttribute, !fallback.isEmpty { rule["fallbackAttribute"] = .string(fallback) }
        rule["hashVersion"] = .number(Double(hashVersion(experiment)))
        let sticky = experiment.stickyBucketing
        if sticky.bucketVersion != 0 { rule["bucketVersion"] = .number(Double(sticky.bucketVersion)) }
        if sticky.minBucketVersion != 0 { rule["minBucketVersion"] = .number(Double(sticky.minBucketVersion)) }
        if sticky.disabled { rule["disableStickyBucketing"] = .bool(true) }
        rule["seed"] = .string(seed(definition))
        rule["meta"] = .array(definition.variations.map { .object(["key": .string($0.key)]) })
        if let name = definition.summary { rule["name"] = .string(name) }
        if let filters = experiment.filters {
            // With filters the namespace is ignored; an empty list filters nobody out (as in
            // GrowthBook's JavaScript SDK), which is the same as no filters and no namespace.
            if !filters.isEmpty { rule["filters"] = .array(filters.map(json)) }
        } else if let namespace = experiment.namespace {
            rule["namespace"] = .array([.string(namespace.id), .number(namespace.start), .number(namespace.end)])
        }
        return .object(rule)
    }

    /// The rule field naming the payload's `contextualBandits` entry that gives a rule its leaves.
    static let contextualReference = "contextualBanditRef"

    /// A contextual bandit's `contextualBandits` entry, as GrowthBook's SDKs read it: `{contexts:
    /// [{leafId, condition, weights}]}` in the file's order (first match wins), a leaf without a
    /// condition as `{}` (everyone), a leaf without weights of its own with the experiment's.
    static func contextualBandit(_ definition: ExperimentDefinition) -> AttributeValue? {
        guard let bandit = definition.bandit, !bandit.leaves.isEmpty else { return nil }
        let marginal = definition.experiment.weights ?? GrowthBookHash.equalWeights(definition.variations.count)
        return .object(["contexts": .array(bandit.leaves.map { leaf in
            .object([
                "leafId": .number(Double(leaf.leafId)),
                "condition": leaf.condition?.source ?? .object([:]),
                "weights": .array((leaf.weights ?? marginal).map { .number($0) }),
            ])
        })])
    }

    /// A forced experiment includes a session when its filters (or namespace), condition and
    /// bucket ranges do; the rule's filters say exactly that, the ranges as a filter of their own.
    private static func forceRule(_ definition: ExperimentDefinition, _ experiment: Experiment, variation: Int) -> AttributeValue {
        var filters: [AttributeValue] = []
        if let given = experiment.filters {
            filters = given.map(json)
        } else if let namespace = experiment.namespace {
            filters.append(json(Experiment.Filter(
                seed: "__" + namespace.id, ranges: [BucketRange(start: namespace.start, end: namespace.end)],
                hashVersion: 1, attribute: hashAttribute(experiment))))
        }
        let ranges = GrowthBookHash.bucketRanges(count: definition.variations.count, coverage: experiment.coverage,
                                                 weights: experiment.weights)
        filters.append(json(Experiment.Filter(seed: seed(definition), ranges: ranges,
                                              hashVersion: hashVersion(experiment), attribute: hashAttribute(experiment))))
        var rule = common(definition)
        rule["force"] = value(of: definition.variations[variation]).json
        rule["filters"] = .array(filters)
        return .object(rule)
    }

    private static func common(_ definition: ExperimentDefinition) -> [String: AttributeValue] {
        var rule: [String: AttributeValue] = ["id": .string(definition.key)]
        if let condition = definition.experiment.condition { rule["condition"] = condition.source }
        return rule
    }

    private static func value(of variation: ExperimentDefinition.Variation) -> SlotValue {
        SlotValue(feature: variation.feature, parameters: variation.parameters)
    }

    private static func json(_ filter: Experiment.Filter) -> AttributeValue {
        var object: [String: AttributeValue] = [
            "seed": .string(filter.seed),
            "ranges": .array(filter.ranges.map { .array([.number($0.start), .number($0.end)]) }),
        ]
        if let version = filter.hashVersion { object["hashVersion"] = .number(Double(version)) }
        if let attribute = filter.attribute { object["attribute"] = .string(attribute) }
        return .object(object)
    }

    static func hashAttribute(_ experiment: Experiment) -> String {
        experiment.hashAttribute.flatMap { $0.isEmpty ? nil : $0 } ?? "id"
    }

    static func hashVersion(_ experiment: Experiment) -> Int {
        experiment.hashVersion.flatMap { $0 == 0 ? nil : $0 } ?? 1
    }

    static func seed(_ definition: ExperimentDefinition) -> String {
        definition.experiment.seed.flatMap { $0.isEmpty ? nil : $0 } ?? definition.key
    }

    /// The saved groups that `$inGroup` and `$notInGroup` name anywhere in `values`.
    static func usedGroups<S: Sequence>(in values: S) -> Set<String> where S.Element == AttributeValue {
        var names: Set<String> = []
        func walk(_ value: AttributeValue) {
            switch value {
            case .array(let items): items.forEach(walk)
            case .object(let members):
                for (key, member) in members {
                    if key == "$inGroup" || key == "$notInGroup", case .string(let name) = member { names.insert(name) }
                    walk(member)
                }
            default: break
            }
        }
        values.forEach(walk)
        return names
    }

    private static func describe(_ schedule: ExperimentDefinition.Schedule) -> String {
        "\(schedule.start.map(timestamp) ?? "any time") to \(schedule.end.map(timestamp) ?? "no end")"
    }

    static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}
