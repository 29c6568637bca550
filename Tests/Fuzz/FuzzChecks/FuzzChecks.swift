import Foundation
import RemixAnalysis
import RemixBuiltIns
import RemixExperiments
import RemixHost
import RemixKit
import RemixLogReader
import RemixSimulation

/// What each fuzz target checks on one input, as plain functions: a finding's message, or nil.
/// The libFuzzer targets abort on a message (so libFuzzer keeps the input); `FuzzCorpusTests`
/// runs every committed seed and finding through the same checks on every `swift test`, so an
/// input that ever failed stays a regression test with no step by hand.
public enum FuzzChecks {
    /// The checks by fuzz target name.
    public static let byTarget: [String: @Sendable (UnsafeBufferPointer<UInt8>) -> String?] = [
        "FuzzLogLine": logLine, "FuzzExperimentFile": experimentFile, "FuzzCondition": condition,
        "FuzzPopulationFile": populationFile, "FuzzAttributes": attributes, "FuzzMetricsFile": metricsFile,
        "FuzzStoreURL": storeURL,
    ]

    /// The event-log reader: the whole input through the line splitter (a short line limit, so
    /// over-long lines are exercised too), then every line through ``LineScanner`` and Foundation's
    /// `JSONSerialization`, which must agree on whether it is a JSON object and on every field the
    /// analysis keeps. Documented differences (Tests/Fuzz/README.md) are excused.
    public static func logLine(_ input: UnsafeBufferPointer<UInt8>) -> String? {
        _ = LineSplitter.tally(input.span, maxLineLength: 4096, tracked: ["m", "purchase"], timed: ["m"])
        var start = 0
        for index in 0...input.count where index == input.count || input[index] == 0x0A {
            if let message = LogLineCheck.compare(UnsafeBufferPointer(rebasing: input[start..<index])) { return message }
            start = index + 1
        }
        return nil
    }

    /// Experiment files: parsed, validated against the built-in modules, and a file that reads is
    /// run through the assignment engine for a few sessions; a failed file has a diagnostic.
    public static func experimentFile(_ input: UnsafeBufferPointer<UInt8>) -> String? {
        guard let text = String(validating: input, as: UTF8.self) else { return nil }
        let (definition, problems) = ExperimentFileParser.parse(text, file: "fuzz.yaml")
        guard let definition else { return problems.isEmpty ? "an experiment file that fails gives no reason" : nil }
        if let registry = builtIn {
            _ = ExperimentValidator(registry: registry).validate(ExperimentSet(definitions: [definition]))
        }
        let engine = AssignmentEngine()
        for (id, platform) in [("u1", "phone"), ("u2", "tablet"), ("", "phone")] {
            let context = AssignmentContext(attributes: ["id": .string(id), "platform": .string(platform), "country": "GB"])
            _ = engine.run(definition.experiment, context: context)
            // Each phase's experiment, and the evaluator at each phase's start and just before the first.
            for phase in definition.phases {
                _ = engine.run(phase.experiment, context: context)
                _ = ExperimentEvaluator().decide(definition, context: context, now: phase.start)
            }
            if let first = definition.phases.first {
                _ = ExperimentEvaluator().decide(definition, context: context, now: first.start.addingTimeInterval(-1))
            }
        }
        return nil
    }

    /// Targeting conditions, JSON `[condition, attributes, savedGroups]`: the `ConditionNode` tree
    /// over the attributes (GrowthBook's `evalCondition` step by step), the flat fast path over an
    /// `AssignmentContext`, and compiling-and-evaluating at once must agree.
    public static func condition(_ input: UnsafeBufferPointer<UInt8>) -> String? {
        guard let value = try? AttributeValue.parse(jsonData: Data(input)) else { return nil }
        let parts = value.arrayValue ?? [value]
        guard let condition = parts.first else { return nil }
        let attributes = parts.count > 1 ? parts[1] : .object([:])
        let groups = parts.count > 2 ? parts[2].objectValue ?? [:] : [:]
        let compiled = Condition(parsing: condition)
        guard case .object(let members) = attributes else {
            _ = compiled.evaluate(value: attributes, savedGroups: groups)
            return nil
        }
        let tree = compiled.evaluate(members, savedGroups: groups)
        let indexed = compiled.evaluate(in: AssignmentContext(attributes: members, savedGroups: groups))
        if tree != indexed { return "tree \(tree), indexed \(indexed)\ninput: \(value)" }
        if Condition.evaluate(condition, attributes: members, savedGroups: groups) != tree {
            return "evalCondition differs\ninput: \(value)"
        }
        return nil
    }

    /// Population files: a problem must be a diagnostic.
    public static func populationFile(_ input: UnsafeBufferPointer<UInt8>) -> String? {
        guard let text = String(validating: input, as: UTF8.self) else { return nil }
        let (population, problems) = PopulationFile.parse(text, file: "fuzz.yaml")
        return population == nil && problems.isEmpty ? "a population file that fails gives no reason" : nil
    }

    /// `--attributes` JSON as `remix assign` reads it, then the repository's experiments assigned
    /// with those attributes.
    public static func attributes(_ input: UnsafeBufferPointer<UInt8>) -> String? {
        let text = String(decoding: input, as: UTF8.self)
        guard let value = try? AttributeValue.parse(json: text), case .object(let attributes) = value else { return nil }
        let context = AssignmentContext(attributes: attributes, savedGroups: repositoryExperiments.savedGroups)
        let engine = AssignmentEngine()
        for definition in repositoryExperiments.definitions { _ = engine.run(definition.experiment, context: context) }
        return nil
    }

    /// Metric files: every key of what parses resolves, and a ratio's parts are keys.
    public static func metricsFile(_ input: UnsafeBufferPointer<UInt8>) -> String? {
        guard let text = String(validating: input, as: UTF8.self) else { return nil }
        let (catalog, problems) = MetricsFileParser.parse(text, file: "fuzz.yaml")
        guard problems.isEmpty else { return nil }
        for metric in catalog.definitions {
            if catalog[metric.key] == nil { return "metric '\(metric.key)' does not resolve" }
            for part in [metric.numerator, metric.denominator].compactMap({ $0 }) where catalog[part] == nil {
                return "ratio '\(metric.key)' names '\(part)', which is not a key"
            }
        }
        return nil
    }

    /// The repository root (three levels above this file).
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private static let builtIn: FeatureRegistry? = try? BuiltInModules.registry()
    private static let repositoryExperiments: ExperimentSet =
        ExperimentSet.load(paths: [repository.appendingPathComponent("experiments").path]).0
}
