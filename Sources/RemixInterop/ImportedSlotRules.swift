import RemixExperiments
import RemixKit
import RemixYAML

/// A force rule read from a GrowthBook feature (an override or a percentage rollout), with the
/// fields a slot rules file's force rule holds (docs/experiments.md#rules).
package struct ImportedForceRule: Sendable, Equatable {
    package var id: String
    /// The registered feature that fills the slot, and its parameters.
    package var feature: String
    package var parameters: [String: ParameterValue]
    package var condition: AttributeValue?
    package var coverage: Double?
    package var range: BucketRange?
    package var hashAttribute: String?
    package var fallbackAttribute: String?
    /// Nil when it is the rules file's default (`<app>.<slot>`).
    package var seed: String?
    package var hashVersion: Int?
    package var filters: [Experiment.Filter]?
}

/// A slot's rules as a GrowthBook feature orders them: force rules and experiment rules (by key).
package enum ImportedRule: Sendable, Equatable {
    case force(ImportedForceRule)
    case experiment(String)
}

extension GrowthBookRuleReader {
    /// Fields a force rule is read from.
    static let forceFields: Set<String> = [
        "id", "force", "condition", "coverage", "range", "hashAttribute", "fallbackAttribute", "seed", "hashVersion",
        "filters", "parentConditions",
    ]

    /// Reads a force rule (`fields` has `force`) as a rules file's force rule.
    func readForce(_ fields: [String: AttributeValue], notes: inout [String]) -> Outcome {
        var problems: [String] = []
        if case .array(let parents)? = fields["parentConditions"], !parents.isEmpty {
            problems.append("has prerequisites ('parentConditions'), which rules files cannot express; "
                            + "remove them in GrowthBook or leave this rule out")
        }
        let unknown = fields.keys.filter { !Self.forceFields.contains($0) && $0 != "tracks" }.sorted()
        if !unknown.isEmpty { notes.append("ignores unknown field(s) \(unknown.joined(separator: ", "))") }
        let value = slotValue(fields["force"] ?? .null, label: "its forced value", &problems)
        let condition = fields["condition"].flatMap { $0.isNull ? nil : $0 }
        if let condition, condition.objectValue == nil {
            problems.append("has a condition that is not an object: \(PayloadJSON.compact(condition))")
        }
        let coverage = number(fields["coverage"], "coverage", &problems)
        if let coverage, !(0...1).contains(coverage) { problems.append("has coverage \(PayloadJSON.compact(.number(coverage))), not from 0 to 1") }
        var range: BucketRange?
        if let given = fields["range"], !given.isNull {
            if let pair = given.arrayValue, pair.count == 2, let start = pair[0].numberValue, let end = pair[1].numberValue,
               (0...1).contains(start), (0...1).contains(end), start <= end {
                range = BucketRange(start: start, end: end)
            } else {
                problems.append("has a range that is not [start, end] within 0–1: \(PayloadJSON.compact(given))")
            }
        }
        let hashVersion = number(fields["hashVersion"], "hashVersion", &problems).map { Int(exactly: $0) ?? -1 }
        if let hashVersion, ![1, 2].contains(hashVersion) {
            problems.append("has hashVersion \(PayloadJSON.compact(fields["hashVersion"] ?? .null)); Remix knows 1 and 2")
        }
        let seed = string(fields["seed"], "seed", &problems).flatMap { $0.isEmpty ? nil : $0 }
        let defaultSeed = GrowthBookExport.featureKey(app: app.name, slot: slot.name)
        let rule = ImportedForceRule(
            id: string(fields["id"], "id", &problems) ?? "", feature: value?.feature ?? "", parameters: value?.parameters ?? [:],
            condition: condition, coverage: coverage, range: range,
            hashAttribute: string(fields["hashAttribute"], "hashAttribute", &problems).flatMap { $0.isEmpty ? nil : $0 },
            fallbackAttribute: string(fields["fallbackAttribute"], "fallbackAttribute", &problems).flatMap { $0.isEmpty ? nil : $0 },
            // GrowthBook hashes a rollout with the feature key when the rule has no seed.
            seed: (seed ?? featureKey) == defaultSeed ? nil : seed ?? featureKey,
            hashVersion: hashVersion, filters: filters(fields["filters"], &problems))
        return problems.isEmpty ? .force(rule) : .problems(problems)
    }
}

/// Writes a slot rules file as people write them.
enum SlotRulesFileWriter {
    /// The rules file of `app`'s `slot` holding `rules` in order, opening with a comment saying
    /// where it came from.
    static func text(_ rules: [ImportedRule], app: String, slot: String, origin: String) -> String {
        var lines = ["# \(origin)", "app: \(YAMLText.scalar(app))", "slot: \(YAMLText.scalar(slot))", "rules:"]
        for rule in rules {
            switch rule {
            case .experiment(let key): lines.append("  - experiment: \(YAMLText.scalar(key))")
            case .force(let force): lines += forceLines(force)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func forceLines(_ rule: ImportedForceRule) -> [String] {
        var value = ["feature: \(YAMLText.scalar(rule.feature))"]
        if !rule.parameters.isEmpty { value.append("params: \(ExperimentFileWriter.parameters(rule.parameters))") }
        var lines = ["  - id: \(YAMLText.scalar(rule.id))", "    force: {\(value.joined(separator: ", "))}"]
        if let condition = rule.condition {
            if case .object(let members) = condition, members.isEmpty {
                lines.append("    condition: {}")
            } else {
                lines.append("    condition:")
                lines += ExperimentFileWriter.block(condition, indent: "      ")
            }
        }
        if let coverage = rule.coverage { lines.append("    coverage: \(ExperimentFileWriter.number(coverage))") }
        if let range = rule.range {
            lines.append("    range: [\(ExperimentFileWriter.number(range.start)), \(ExperimentFileWriter.number(range.end))]")
        }
        if let attribute = rule.hashAttribute { lines.append("    hashAttribute: \(YAMLText.scalar(attribute))") }
        if let attribute = rule.fallbackAttribute { lines.append("    fallbackAttribute: \(YAMLText.scalar(attribute))") }
        if let seed = rule.seed { lines.append("    seed: \(YAMLText.scalar(seed))") }
        if let version = rule.hashVersion { lines.append("    hashVersion: \(version)") }
        if let filters = rule.filters { lines += ExperimentFileWriter.filterLines(filters, indent: "    ") }
        return lines
    }
}
