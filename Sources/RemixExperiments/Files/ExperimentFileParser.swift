import Foundation
import RemixFormats
import RemixKit
import RemixYAML

/// Reads one experiment file, collecting every problem it can find in one pass.
package enum ExperimentFileParser {
    /// Every top-level key an experiment file may have.
    package static let knownKeys = [
        "key", "description", "app", "slot", "variations", "weights", "coverage", "seed", "hashVersion",
        "hashAttribute", "fallbackAttribute", "condition", "namespace", "filters", "force", "status", "active",
        "schedule", "metrics", "phases", "bucketVersion", "minBucketVersion", "disableStickyBucketing", "rollout",
        "type", "bandit",
    ]

    /// Parses `text` read from `file`. The definition is nil when a problem prevents building it.
    package static func parse(_ text: String, file: String) -> (ExperimentDefinition?, [Diagnostic]) {
        var problems: [Diagnostic] = []
        let root: YAMLMapping
        do {
            root = try YAMLValue.parse(text, file: file).mapping("an experiment file")
        } catch {
            return (nil, [error])
        }
        problems += root.unknownKeys(allowed: knownKeys, in: "an experiment", nearest: NameSuggestion.nearest)
        var reader = FieldReader(root: root, file: file)
        let key = reader.required("key") { try $0.string("key") }
        let app = reader.required("app") { try $0.string("app") }
        let slot = reader.required("slot") { try $0.string("slot") }
        // A rollout holds its two arms itself (docs/rollouts.md); anything else needs variations.
        let rollout = root["rollout"] == nil ? nil : reader.required("rollout") { try parseRollout($0) }
        if root["rollout"] != nil, let written = root["variations"] {
            reader.report(Diagnostic(written.location, .error, "a rollout experiment has no variations: its arms are the slot "
                                     + "default and rollout.feature; remove 'variations' or 'rollout'"))
        }
        if root["rollout"] != nil, let written = root["metrics"] {
            reader.report(Diagnostic(written.location, .error, "a rollout's metrics are rollout.guardrails and rollout.signals; "
                                     + "move them there and remove 'metrics'"))
        }
        let variations = root["rollout"] != nil ? rollout.map { rolloutVariations($0, at: root["rollout"]?.location ?? root.location) }
            : reader.required("variations") { try parseVariations($0) }
        let bandit = readBandit(root, arms: variations?.count, into: &reader)
        let summary = reader.optional("description") { try $0.string("description") }
        let weights = reader.optional("weights") { value throws(Diagnostic) in
            try value.sequence("weights").map { item throws(Diagnostic) in try item.double("a weight") }
        }
        let coverage = reader.optional("coverage") { try $0.double("coverage") }
        let seed = reader.optional("seed") { try $0.string("seed") }
        let hashVersion = reader.optional("hashVersion") { try $0.int("hashVersion") }
        let hashAttribute = reader.optional("hashAttribute") { try $0.string("hashAttribute") }
        let fallbackAttribute = reader.optional("fallbackAttribute") { try $0.string("fallbackAttribute") }
        let condition = reader.optional("condition") { value throws(Diagnostic) in
            _ = try value.mapping("condition")
            return try value.attributeValue()
        }
        let namespace = reader.optional("namespace") { try parseNamespace($0) }
        let filters = reader.optional("filters") { try Self.filters($0) }
        let force = reader.optional("force") { try $0.int("force") }
        let status = reader.optional("status") { value throws(Diagnostic) in
            let text = try value.string("status")
            guard let status = Experiment.Status(rawValue: text) else {
                throw Diagnostic(value.location, .error, "status must be draft, running or stopped, not '\(text)'")
            }
            return status
        }
        let active = reader.optional("active") { try $0.bool("active") }
        let schedule = reader.optional("schedule") { try parseSchedule($0) }
        let metrics = reader.optional("metrics") { try parseMetrics($0) }
        let stickyBucketing = reader.stickyBucketing()
        problems += reader.problems
        guard let key, let app, let slot, let variations else { return (nil, problems) }
        let experiment = Experiment(
            key: key, variations: variations.map { .string($0.key) },
            weights: rollout != nil ? [0.5, 0.5] : bandit != nil ? Array(repeating: 1 / Double(variations.count), count: variations.count) : weights,
            coverage: rollout.map(\.share) ?? coverage,
            condition: condition, namespace: namespace, hashAttribute: hashAttribute,
            fallbackAttribute: fallbackAttribute, hashVersion: hashVersion ?? (rollout == nil ? nil : 2), seed: seed, filters: filters,
            force: force, active: active ?? true, status: status ?? .running,
            meta: variations.map { Experiment.VariationMeta(key: $0.key) }, stickyBucketing: stickyBucketing)
        let rolloutMetrics = rollout.map { ExperimentDefinition.Metrics(primary: nil, guardrails: $0.guardrails, secondary: $0.signals) }
        let banditMetrics = bandit.map { ExperimentDefinition.Metrics(primary: $0.metric, guardrails: []) }
        let definitionMetrics = rolloutMetrics ?? banditMetrics ?? metrics ?? ExperimentDefinition.Metrics(primary: nil, guardrails: [])
        var locations: [(String, SourceLocation)] = root.entries.map { ($0.key, $0.value.location) }
        locations += metricLocations(root["metrics"]) + rolloutMetricLocations(root["rollout"])
        if let bandit { locations.append((ExperimentDefinition.metricLocationKey(bandit.metric), bandit.metricLocation)) }
        let definition = ExperimentDefinition(
            key: key, file: file, summary: summary, app: app, slot: slot, variations: variations,
            schedule: schedule,
            metrics: definitionMetrics, experiment: experiment,
            locations: Dictionary(locations, uniquingKeysWith: { a, _ in a }),
            conditionNode: condition == nil ? nil : root["condition"], rollout: rollout, bandit: bandit,
            attributeNames: AttributeName.named(in: root))
        guard let phases = root["phases"], !phases.isNull else { return (definition, problems) }
        var phased = definition
        let (read, phaseProblems) = PhaseParser.parse(phases, experiment: experiment, variations: variations)
        phased.phases = read
        return (phased, problems + phaseProblems)
    }

    /// The most variations an experiment may have.
    package static let maxVariations = 1_000

    private static func parseVariations(_ value: YAMLValue) throws(Diagnostic) -> [ExperimentDefinition.Variation] {
        var variations: [ExperimentDefinition.Variation] = []
        var firstLines: [String: Int] = [:]
        let items = try value.sequence("variations")
        guard items.count <= maxVariations else {
            throw Diagnostic(value.location, .error, "an experiment may have at most \(maxVariations) variations, "
                             + "not \(items.count); split it into several experiments")
        }
        for item in items {
            let fields = try item.mapping("a variation")
            if let problem = fields.unknownKeys(allowed: ["key", "feature", "params"], in: "a variation",
                                                nearest: NameSuggestion.nearest).first {
                throw problem
            }
            let key = try fields.required("key", in: "a variation").string("key")
            if let first = firstLines.updateValue(item.location.line, forKey: key) {
                throw Diagnostic(item.location, .error, "variation key '\(key)' is used twice (first at line \(first))")
            }
            let feature = try fields.required("feature", in: "a variation")
            var parameters: [String: ParameterValue] = [:]
            var parameterLocations: [String: SourceLocation] = [:]
            for entry in try fields["params"]?.mapping("params").entries ?? [] {
                parameters[entry.key] = try entry.value.parameterValue()
                parameterLocations[entry.key] = entry.keyLocation
            }
            variations.append(.init(key: key, feature: try feature.string("feature"), parameters: parameters,
                                    location: item.location, featureLocation: feature.location,
                                    parameterLocations: parameterLocations))
        }
        return variations
    }

    private static func parseNamespace(_ value: YAMLValue) throws(Diagnostic) -> Namespace {
        let items = try value.sequence("namespace")
        guard items.count == 3 else {
            throw Diagnostic(value.location, .error, "namespace must be [id, start, end], e.g. [insertion, 0, 0.5]")
        }
        return Namespace(id: try items[0].string("the namespace id"), start: try items[1].double("the namespace start"),
                         end: try items[2].double("the namespace end"))
    }

    /// Hash filters as experiment files (and slot rules files) write them.
    static func filters(_ value: YAMLValue) throws(Diagnostic) -> [Experiment.Filter] {
        var filters: [Experiment.Filter] = []
        for item in try value.sequence("filters") {
            let fields = try item.mapping("a filter")
            if let problem = fields.unknownKeys(allowed: ["seed", "ranges", "hashVersion", "attribute"], in: "a filter",
                                                nearest: NameSuggestion.nearest).first {
                throw problem
            }
            var ranges: [BucketRange] = []
            let written = try fields.required("ranges", in: "a filter")
            for range in try written.sequence("ranges") {
                ranges.append(try HashFields.range(range, shape: "a range must be [start, end]"))
            }
            // A filter without a range lets nobody in.
            if ranges.isEmpty { throw Diagnostic(written.location, .error, "a filter needs at least one range, e.g. ranges: [[0, 0.5]]") }
            filters.append(Experiment.Filter(
                seed: try fields.required("seed", in: "a filter").string("seed"), ranges: ranges,
                hashVersion: try fields["hashVersion"].map { value throws(Diagnostic) in try HashFields.version(value) },
                attribute: try fields["attribute"]?.string("attribute")))
        }
        return filters
    }

    private static func parseSchedule(_ value: YAMLValue) throws(Diagnostic) -> ExperimentDefinition.Schedule {
        let fields = try value.mapping("schedule")
        if let problem = fields.unknownKeys(allowed: ["start", "end"], in: "schedule", nearest: NameSuggestion.nearest).first {
            throw problem
        }
        let schedule = ExperimentDefinition.Schedule(
            start: try fields["start"].map { v throws(Diagnostic) in try parseDate(v) },
            end: try fields["end"].map { v throws(Diagnostic) in try parseDate(v) })
        if let start = schedule.start, let end = schedule.end, end <= start {
            throw Diagnostic(value.location, .error, "the schedule ends before it starts")
        }
        return schedule
    }

    /// Parses an RFC 3339 timestamp or a `YYYY-MM-DD` date (midnight UTC).
    static func parseDate(_ value: YAMLValue) throws(Diagnostic) -> Date {
        let text = try value.string("a date")
        if let date = DateParsing.parse(text) { return date }
        throw Diagnostic(value.location, .error,
                         "'\(text)' is not a date; write 2026-12-01 or 2026-12-01T09:00:00Z")
    }

    /// Where each metric name is written, as ``ExperimentDefinition/metricLocationKey(_:)`` keys (the first place a
    /// name stands), so that a problem with one points at it rather than at `metrics:`.
    private static func metricLocations(_ value: YAMLValue?) -> [(String, SourceLocation)] {
        guard let value, let fields = try? value.mapping("metrics") else { return [] }
        var found: [(String, SourceLocation)] = []
        for key in ["primary", "secondary", "guardrails"] {
            guard let entry = fields[key] else { continue }
            let items = (try? entry.sequence(key)) ?? [entry]
            for item in items {
                if let name = try? item.string("a metric") { found.append((ExperimentDefinition.metricLocationKey(name), item.location)) }
            }
        }
        return found
    }

    private static func parseMetrics(_ value: YAMLValue) throws(Diagnostic) -> ExperimentDefinition.Metrics {
        let fields = try value.mapping("metrics")
        if let problem = fields.unknownKeys(allowed: ["primary", "secondary", "guardrails"], in: "metrics",
                                            nearest: NameSuggestion.nearest).first {
            throw problem
        }
        return .init(
            primary: try fields["primary"]?.string("the primary metric"),
            guardrails: try fields["guardrails"]?.sequence("guardrails").map { item throws(Diagnostic) in
                try item.string("a guardrail metric")
            } ?? [],
            secondary: try fields["secondary"]?.sequence("secondary").map { item throws(Diagnostic) in
                try item.string("a secondary metric")
            } ?? [])
    }
}

/// Reads top-level fields, turning each field's problem into a diagnostic and going on.
struct FieldReader {
    let root: YAMLMapping
    let file: String
    private(set) var problems: [Diagnostic] = []

    init(root: YAMLMapping, file: String) {
        self.root = root
        self.file = file
    }

    mutating func required<T>(_ key: String, _ read: (YAMLValue) throws -> T) -> T? {
        guard let value = root[key] else {
            problems.append(Diagnostic(root.location, .error, "an experiment needs '\(key)'"))
            return nil
        }
        // `variations:` with nothing after it is null: as missing as no key at all (found by FuzzExperimentFile).
        guard !value.isNull else {
            problems.append(Diagnostic(value.location, .error, "'\(key)' is empty; an experiment needs it"))
            return nil
        }
        return optional(key, read)
    }

    /// `bucketVersion`, `minBucketVersion` (whole numbers from 0, the minimum at most the
    /// version) and `disableStickyBucketing`.
    mutating func stickyBucketing() -> Experiment.StickyBucketing {
        let version = optional("bucketVersion") { value throws(Diagnostic) in try Self.version(value, "bucketVersion") }
        let minimum = optional("minBucketVersion") { value throws(Diagnostic) in try Self.version(value, "minBucketVersion") }
        let disabled = optional("disableStickyBucketing") { try $0.bool("disableStickyBucketing") }
        if let minimum, minimum > (version ?? 0), let value = root["minBucketVersion"] {
            problems.append(Diagnostic(value.location, .error, "minBucketVersion \(minimum) is above bucketVersion \(version ?? 0): "
                                       + "it would keep out the users bucketed now too; raise bucketVersion to at least \(minimum)"))
        }
        return Experiment.StickyBucketing(bucketVersion: version ?? 0, minBucketVersion: minimum ?? 0, disabled: disabled ?? false)
    }

    private static func version(_ value: YAMLValue, _ name: String) throws(Diagnostic) -> Int {
        let number = try value.int(name)
        guard number >= 0 else { throw Diagnostic(value.location, .error, "\(name) must be 0 or more, not \(number)") }
        return number
    }

    /// Adds a problem found outside one field's reading.
    mutating func report(_ problem: Diagnostic) {
        problems.append(problem)
    }

    mutating func optional<T>(_ key: String, _ read: (YAMLValue) throws -> T) -> T? {
        guard let value = root[key], !value.isNull else { return nil }
        do {
            return try read(value)
        } catch let diagnostic as Diagnostic {
            problems.append(diagnostic)
        } catch {
            problems.append(Diagnostic(value.location, .error, String(describing: error)))
        }
        return nil
    }
}

/// Dates in experiment files and on the command line.
package enum DateParsing {
    /// An RFC 3339 timestamp (with or without fractional seconds) or a `YYYY-MM-DD` date at 00:00 UTC,
    /// read strictly (``CivilTime``): a date that does not exist, or a year outside 0001–9999, is nil.
    package static func parse(_ text: String) -> Date? {
        CivilTime.parseMilliseconds(text).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }
}
