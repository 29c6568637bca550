import Foundation
import RemixFormats
import RemixKit
import RemixYAML

/// A slot's ordered rules, as a GrowthBook feature's (`*.rules.yaml` in the experiments folder):
/// force rules (a feature for the sessions a condition, hash filters and a rollout let in) and
/// experiment rules (an experiment file on the slot, by key). Experiments on the slot the file does
/// not list follow as experiment rules in key order; the slot's default feature comes last.
///
/// ```yaml
/// app: marketplace
/// slot: insertion
/// rules:
///   - {id: staff, force: {feature: ManualGroupInsertion}, condition: {id: {$inGroup: staff}}}
///   - experiment: insertion-flow
///   - {id: auto-ramp, force: {feature: AutoGroupInsertion}, coverage: 0.2, hashVersion: 2}
/// ```
package struct SlotRules: Sendable {
    /// One rule.
    package enum Rule: Sendable {
        /// A force rule: `feature` with `parameters` fills the slot when `rule` applies
        /// (condition, filters, and `coverage` or `range` by hash).
        case force(feature: String, parameters: [String: ParameterValue], rule: FeatureRule, location: SourceLocation)
        /// The experiment with this key.
        case experiment(key: String, location: SourceLocation)
    }

    /// The file it was read from.
    package var file: String
    /// The app and slot.
    package var app: String
    package var slot: String
    /// The rules, in order.
    package var rules: [Rule]
    /// The session attributes the rules name, where they name them (``AttributeNameCheck``).
    package var attributeNames: [AttributeName] = []

    /// The experiment keys the rules name.
    package var experimentKeys: [String] {
        rules.compactMap { if case .experiment(let key, _) = $0 { return key } else { return nil } }
    }

    /// Files ending so hold a slot's rules.
    package static let suffix = ".rules.yaml"

    private static let ruleKeys = ["id", "force", "experiment", "condition", "coverage", "range", "hashAttribute",
                                   "fallbackAttribute", "seed", "hashVersion", "filters"]

    /// Parses a rules file; nil with the problems when it cannot be built.
    package static func parse(_ text: String, file: String) -> (SlotRules?, [Diagnostic]) {
        do throws(Diagnostic) {
            let root = try YAMLValue.parse(text, file: file).mapping("a slot rules file")
            var problems = root.unknownKeys(allowed: ["app", "slot", "rules"], in: "a slot rules file", nearest: NameSuggestion.nearest)
            let app = try root.required("app", in: "a slot rules file").string("app")
            let slot = try root.required("slot", in: "a slot rules file").string("slot")
            var rules: [Rule] = []
            var attributeNames: [AttributeName] = []
            for item in try root.required("rules", in: "a slot rules file").sequence("rules") {
                do throws(Diagnostic) {
                    rules.append(try rule(item, app: app, slot: slot))
                    attributeNames += (try? item.mapping()).map(AttributeName.named) ?? []
                } catch {
                    problems.append(error)
                }
            }
            return (SlotRules(file: file, app: app, slot: slot, rules: rules, attributeNames: attributeNames), problems)
        } catch {
            return (nil, [error])
        }
    }

    private static func rule(_ item: YAMLValue, app: String, slot: String) throws(Diagnostic) -> Rule {
        let fields = try item.mapping("a rule")
        if let problem = fields.unknownKeys(allowed: ruleKeys, in: "a rule", nearest: NameSuggestion.nearest).first { throw problem }
        if let experiment = fields["experiment"] {
            if let other = fields.entries.first(where: { $0.key != "experiment" }) {
                throw Diagnostic(other.keyLocation, .error, "an experiment rule has only 'experiment: KEY'; '\(other.key)' "
                                 + "belongs in the experiment's file")
            }
            return .experiment(key: try experiment.string("experiment"), location: experiment.location)
        }
        guard let force = fields["force"] else {
            throw Diagnostic(item.location, .error, "a rule needs 'force: {feature: …}' or 'experiment: KEY'")
        }
        let forced = try force.mapping("force")
        if let problem = forced.unknownKeys(allowed: ["feature", "params"], in: "force", nearest: NameSuggestion.nearest).first {
            throw problem
        }
        var parameters: [String: ParameterValue] = [:]
        for entry in try forced["params"]?.mapping("params").entries ?? [] { parameters[entry.key] = try entry.value.parameterValue() }
        var rule = FeatureRule()
        rule.id = try fields["id"]?.string("id") ?? ""
        rule.force = .string(try forced.required("feature", in: "force").string("feature"))
        if let condition = fields["condition"] {
            _ = try condition.mapping("condition")
            rule.condition = Condition(parsing: try condition.attributeValue())
        }
        rule.coverage = try fields["coverage"].map { value throws(Diagnostic) in try fraction(value, "coverage") }
        if let range = fields["range"] {
            rule.range = try HashFields.range(range, shape: "range must be [start, end], e.g. [0, 0.2]")
        }
        rule.hashAttribute = try fields["hashAttribute"]?.string("hashAttribute")
        rule.fallbackAttribute = try fields["fallbackAttribute"]?.string("fallbackAttribute")
        rule.seed = try fields["seed"]?.string("seed") ?? "\(app).\(slot)"
        if let version = fields["hashVersion"] { rule.hashVersion = try HashFields.version(version) }
        if let filters = fields["filters"] { rule.filters = try ExperimentFileParser.filters(filters) }
        return .force(feature: try forced.required("feature", in: "force").string("feature"), parameters: parameters, rule: rule,
                      location: item.location)
    }

    private static func fraction(_ value: YAMLValue, _ name: String) throws(Diagnostic) -> Double {
        let number = try value.double(name)
        guard number >= 0 && number <= 1 else { throw Diagnostic(value.location, .error, "\(name) must be between 0 and 1, not \(number)") }
        return number
    }
}
