import Foundation
import RemixExperiments
import RemixKit
import RemixYAML

/// An experiment read from a GrowthBook rule, with the fields an experiment file holds.
package struct ImportedExperiment: Sendable, Equatable {
    /// One arm: its key, the feature that fills the slot and its parameters.
    package struct Variation: Sendable, Equatable {
        package var key: String
        package var feature: String
        package var parameters: [String: ParameterValue]
    }

    package var key: String
    package var description: String?
    package var app: String
    package var slot: String
    package var hashVersion: Int
    package var hashAttribute: String
    package var fallbackAttribute: String?
    /// Nil when it is the key (the default).
    package var seed: String?
    package var namespace: Namespace?
    package var filters: [Experiment.Filter]?
    package var coverage: Double
    /// Nil when the split is equal (the default).
    package var weights: [Double]?
    package var condition: AttributeValue?
    package var variations: [Variation]
    /// Sticky-bucketing versions and opt-out (GrowthBook's defaults when the rule has none).
    package var stickyBucketing = Experiment.StickyBucketing()
}

/// Writes experiment files as people write them: block YAML, strings quoted only when needed.
enum ExperimentFileWriter {
    /// The file for `experiment`, opening with a comment saying where it came from.
    static func text(_ experiment: ImportedExperiment, origin: String) -> String {
        var lines = ["# \(origin)", "key: \(scalar(experiment.key))"]
        if let description = experiment.description { lines.append("description: \(scalar(description))") }
        lines += ["app: \(scalar(experiment.app))", "slot: \(scalar(experiment.slot))", "status: running",
                  "hashVersion: \(experiment.hashVersion)", "hashAttribute: \(scalar(experiment.hashAttribute))"]
        if let fallback = experiment.fallbackAttribute { lines.append("fallbackAttribute: \(scalar(fallback))") }
        if let seed = experiment.seed { lines.append("seed: \(scalar(seed))") }
        let sticky = experiment.stickyBucketing
        if sticky.bucketVersion != 0 { lines.append("bucketVersion: \(sticky.bucketVersion)") }
        if sticky.minBucketVersion != 0 { lines.append("minBucketVersion: \(sticky.minBucketVersion)") }
        if sticky.disabled { lines.append("disableStickyBucketing: true") }
        if let namespace = experiment.namespace {
            lines.append("namespace: [\(scalar(namespace.id)), \(number(namespace.start)), \(number(namespace.end))]")
        }
        if let filters = experiment.filters { lines += filterLines(filters, indent: "") }
        lines.append("coverage: \(number(experiment.coverage))")
        if let weights = experiment.weights { lines.append("weights: [\(weights.map(number).joined(separator: ", "))]") }
        if let condition = experiment.condition {
            if case .object(let members) = condition, members.isEmpty {
                lines.append("condition: {}")
            } else {
                lines.append("condition:")
                lines += block(condition, indent: "  ")
            }
        }
        lines.append("variations:")
        for variation in experiment.variations {
            var fields = ["key: \(scalar(variation.key))", "feature: \(scalar(variation.feature))"]
            if !variation.parameters.isEmpty { fields.append("params: \(parameters(variation.parameters))") }
            let line = "  - {\(fields.joined(separator: ", "))}"
            lines += line.count <= 100 ? [line] : ["  - " + fields[0]] + fields.dropFirst().map { "    " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `filters:` at `indent`, one filter a line in flow style.
    static func filterLines(_ filters: [Experiment.Filter], indent: String) -> [String] {
        var lines = [indent + (filters.isEmpty ? "filters: []" : "filters:")]
        for filter in filters {
            var fields = ["seed: \(scalar(filter.seed))"]
            if let attribute = filter.attribute { fields.append("attribute: \(scalar(attribute))") }
            fields.append("ranges: [\(filter.ranges.map { "[\(number($0.start)), \(number($0.end))]" }.joined(separator: ", "))]")
            if let version = filter.hashVersion { fields.append("hashVersion: \(version)") }
            lines.append(indent + "  - {\(fields.joined(separator: ", "))}")
        }
        return lines
    }

    /// A feature's parameters in flow style, by name: `{loadingMessage: "…", seconds: 4}`.
    static func parameters(_ parameters: [String: ParameterValue]) -> String {
        "{" + parameters.sorted { $0.key < $1.key }.map { "\(key($0.key)): \(parameter($0.value))" }.joined(separator: ", ") + "}"
    }

    /// Saved groups as `saved-groups.yaml` lines: `name: [values]`.
    static func savedGroupLines(_ groups: [String: AttributeValue]) -> [String] {
        groups.keys.sorted().map { "\(key($0)): \(flow(groups[$0] ?? .array([])))" }
    }

    /// A value in block style at `indent`: mappings one key a line, lists of mappings as `- `
    /// items, lists without mappings in flow style.
    static func block(_ value: AttributeValue, indent: String) -> [String] {
        switch value {
        case .object(let members) where !members.isEmpty:
            var lines: [String] = []
            for name in members.keys.sorted() {
                let member = members[name] ?? .null
                if isBlock(member) {
                    lines.append("\(indent)\(key(name)):")
                    lines += block(member, indent: indent + "  ")
                } else {
                    lines.append("\(indent)\(key(name)): \(flow(member))")
                }
            }
            return lines
        case .array(let items) where isBlock(value):
            var lines: [String] = []
            for item in items {
                let nested = isBlock(item) ? block(item, indent: indent + "  ") : ["\(indent)  \(flow(item))"]
                // The item's first line goes after the dash.
                lines.append(indent + "- " + String(nested[0].dropFirst(indent.count + 2)))
                lines += nested.dropFirst()
            }
            return lines
        default:
            return [indent + flow(value)]
        }
    }

    /// Whether `value` is written in block style: a non-empty mapping, or a list holding one.
    private static func isBlock(_ value: AttributeValue) -> Bool {
        switch value {
        case .object(let members): return !members.isEmpty
        case .array(let items): return items.contains { if case .object(let m) = $0 { !m.isEmpty } else { isBlock($0) } }
        default: return false
        }
    }

    /// A value in flow style.
    static func flow(_ value: AttributeValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let value): return number(value)
        case .string(let text): return YAMLText.scalar(text)
        case .array(let items): return "[" + items.map(flow).joined(separator: ", ") + "]"
        case .object(let members):
            return "{" + members.keys.sorted().map { "\(key($0)): \(flow(members[$0] ?? .null))" }.joined(separator: ", ") + "}"
        }
    }

    private static func parameter(_ value: ParameterValue) -> String {
        switch value {
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .double(let number):
            // Always with a fraction or exponent mark, so the file reads it back as a double.
            let text = number.isFinite ? String(number) : (number.isNaN ? ".nan" : (number > 0 ? ".inf" : "-.inf"))
            return number.isFinite ? YAMLText.float(text) : text
        case .string(let text): return YAMLText.scalar(text)
        }
    }

    /// A number as YAML reads it back (``YAMLText/number(_:)``).
    static func number(_ value: Double) -> String { YAMLText.number(value) }

    /// A string value: plain when it cannot be read as anything else, otherwise double-quoted.
    static func scalar(_ text: String) -> String { YAMLText.scalar(text) }

    /// A mapping key: plain when safe (including `$or`), otherwise double-quoted.
    static func key(_ text: String) -> String { YAMLText.key(text) }
}
