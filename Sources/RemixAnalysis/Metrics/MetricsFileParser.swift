import RemixKit
import RemixStatistics
import RemixYAML

/// Reads `metrics.yaml`: a top-level `metrics:` list of metric definitions. Every problem is a
/// positioned diagnostic; a metric with a problem is left out.
package enum MetricsFileParser {
    /// The file's name in an experiments folder.
    package static let fileName = "metrics.yaml"
    /// Every key a metric may have.
    package static let knownKeys = ["key", "type", "description", "event", "value", "numerator", "denominator",
                                   "inverse", "window", "cap", "quantile", "level", "cuped", "preWindow", "prior"]
    /// Event fields the log scanner reads for itself, which cannot be a metric's value.
    static let readFields = ["ts", "type", "user", "experiment", "variation", "variationId", "inExperiment", "hashUsed",
                             "screen", "feature", "phase"]

    /// Reads and parses the file at `path`.
    package static func load(_ path: String) -> (MetricCatalog, [Diagnostic]) {
        do throws(Diagnostic) {
            return parse(try YAMLFile.read(path), file: path)
        } catch {
            return (MetricCatalog(file: path), [error])
        }
    }

    /// The problem that stops the file at `path` from being read at all — it cannot be read, its
    /// YAML does not parse, or it is not a `metrics:` list — or nil. Every metric that experiments
    /// name from such a file would look unknown, so that problem is reported alone.
    package static func fileProblem(_ path: String) -> Diagnostic? {
        do throws(Diagnostic) {
            _ = try metricItems(try YAMLFile.read(path), file: path)
            return nil
        } catch {
            return error
        }
    }

    /// The items of the top-level `metrics:` list.
    private static func metricItems(_ text: String, file: String) throws(Diagnostic) -> [YAMLValue] {
        let root = try YAMLValue.parse(text, file: file).mapping("a metrics file")
        if let problem = root.unknownKeys(allowed: ["metrics"], in: "a metrics file", nearest: NameSuggestion.nearest).first {
            throw problem
        }
        return try root.required("metrics", in: "a metrics file").sequence("metrics")
    }

    /// Parses `text` read from `file`.
    package static func parse(_ text: String, file: String) -> (MetricCatalog, [Diagnostic]) {
        var problems: [Diagnostic] = []
        let items: [YAMLValue]
        do throws(Diagnostic) {
            items = try metricItems(text, file: file)
        } catch {
            return (MetricCatalog(file: file), [error])
        }
        var definitions: [MetricDefinition] = []
        var firstLine: [String: Int] = [:]
        var ratios: [(MetricDefinition, YAMLMapping)] = []
        for item in items {
            do throws(Diagnostic) {
                let (definition, fields) = try metric(item)
                if let line = firstLine[definition.key] {
                    throw Diagnostic(fields["key"]?.location ?? item.location, .error,
                                     "metric '\(definition.key)' is defined twice (first at line \(line))")
                }
                firstLine[definition.key] = definition.location?.line ?? 0
                if definition.kind == .ratio { ratios.append((definition, fields)) }
                definitions.append(definition)
            } catch {
                problems.append(error)
            }
        }
        // A ratio's parts must be metrics of the file, and not ratios themselves.
        var refused = Set<String>()
        for (ratio, fields) in ratios {
            for part in ["numerator", "denominator"] {
                let name = part == "numerator" ? ratio.numerator ?? "" : ratio.denominator ?? ""
                let location = fields[part]?.location ?? fields.location
                guard let target = definitions.first(where: { $0.key == name }) else {
                    let keys = definitions.filter { $0.kind == .proportion || $0.kind == .mean }.map(\.key)
                    problems.append(Diagnostic(location, .error, "the \(part) '\(name)' is not a metric of this file"
                        + NameSuggestion.hint(for: name, among: keys, noun: "metric")))
                    refused.insert(ratio.key)
                    continue
                }
                if target.kind == .ratio || target.kind == .quantile {
                    problems.append(Diagnostic(location, .error, "the \(part) '\(name)' is a \(target.kind.rawValue); "
                                               + "a ratio's parts are proportion or mean metrics"))
                    refused.insert(ratio.key)
                }
            }
        }
        return (MetricCatalog(definitions.filter { !refused.contains($0.key) }, file: file), problems)
    }

    private static func metric(_ item: YAMLValue) throws(Diagnostic) -> (MetricDefinition, YAMLMapping) {
        let fields = try item.mapping("a metric")
        if let problem = fields.unknownKeys(allowed: knownKeys, in: "a metric", nearest: NameSuggestion.nearest).first {
            throw problem
        }
        let keyValue = try fields.required("key", in: "a metric")
        let key = try keyValue.string("a metric's key")
        guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
            throw Diagnostic(keyValue.location, .error, "a metric's key is letters, digits, '-', '_' or '.', not '\(key)'")
        }
        let typeValue = try fields.required("type", in: "metric '\(key)'")
        let typeName = try typeValue.string("a metric's type")
        guard let kind = MetricDefinition.Kind(rawValue: typeName) else {
            let names = MetricDefinition.Kind.allCases.map(\.rawValue)
            throw Diagnostic(typeValue.location, .error, "unknown metric type '\(typeName)'"
                + NameSuggestion.hint(for: typeName, among: names, noun: "type"))
        }
        var definition = MetricDefinition(key: key, kind: kind, location: keyValue.location)
        definition.summary = try fields["description"]?.string("a description")
        definition.inverse = try fields["inverse"]?.bool("inverse") ?? false
        func refuse(_ names: [String], _ why: String) throws(Diagnostic) {
            for name in names {
                if let entry = fields.entries.first(where: { $0.key == name }) {
                    throw Diagnostic(entry.keyLocation, .error, "a \(kind.rawValue) metric has no '\(name)': \(why)")
                }
            }
        }
        switch kind {
        case .proportion, .mean, .quantile:
            definition.event = try fields.required("event", in: "metric '\(key)'").string("an event type")
            try refuse(["numerator", "denominator"], "those are for ratio metrics")
            if kind == .proportion {
                try refuse(["value"], "it counts units with the event; sum a field with type: mean")
                try refuse(["cap"], "its per-unit values are 0 or 1")
            }
            if kind == .quantile { _ = try fields.required("value", in: "quantile '\(key)'") }
            if let value = fields["value"] {
                let name = try value.string("a numeric field's name")
                guard !readFields.contains(name) else {
                    throw Diagnostic(value.location, .error,
                                     "value '\(name)' is a field the analysis reads itself; name a numeric field of the event")
                }
                definition.value = name
            }
        case .ratio:
            definition.numerator = try fields.required("numerator", in: "ratio '\(key)'").string("a metric key")
            definition.denominator = try fields.required("denominator", in: "ratio '\(key)'").string("a metric key")
            try refuse(["event", "value"], "it divides its numerator metric by its denominator metric")
            try refuse(["window", "cap"], "set them on its numerator and denominator metrics")
            try refuse(["cuped", "preWindow"], "CUPED adjusts proportion and mean metrics (gbstats' RegressionAdjustedStatistic)")
        }
        if kind == .quantile {
            try parseQuantile(fields, into: &definition)
            try refuse(["cap"], "a quantile is not moved by a few extreme values; capping is for means")
            try refuse(["cuped", "preWindow"], "CUPED adjusts proportion and mean metrics (gbstats' RegressionAdjustedStatistic)")
        } else {
            try refuse(["quantile", "level"], "those are for quantile metrics")
        }
        try parseCuped(fields, into: &definition)
        if let window = fields["window"] {
            let hours = try window.double("window (hours after first exposure)")
            guard hours > 0, hours.isFinite else {
                throw Diagnostic(window.location, .error, "window is hours after the first exposure, above 0, not \(hours)")
            }
            definition.windowHours = hours
        }
        if let cap = fields["cap"] { try parseCap(cap, into: &definition) }
        if let prior = fields["prior"] { definition.prior = try parsePrior(prior) }
        return (definition, fields)
    }

    /// `prior: {mean: M, stddev: S}`, a proper prior on the relative effect; either key may be left
    /// out for GrowthBook's default (mean 0, stddev 0.1).
    private static func parsePrior(_ value: YAMLValue) throws(Diagnostic) -> BayesianPrior {
        let prior = try value.mapping("prior")
        if let problem = prior.unknownKeys(allowed: ["mean", "stddev"], in: "prior", nearest: NameSuggestion.nearest).first {
            throw problem
        }
        let mean = try prior["mean"]?.double("prior's mean (on the relative effect)") ?? 0
        guard mean.isFinite else { throw Diagnostic(prior["mean"]?.location ?? value.location, .error, "prior's mean must be finite") }
        let stddev = try prior["stddev"]?.double("prior's stddev") ?? 0.1
        guard stddev > 0, stddev.isFinite else {
            throw Diagnostic(prior["stddev"]?.location ?? value.location, .error,
                             "prior's stddev must be a number above 0 (e.g. 0.1 for ±10 %), not \(stddev)")
        }
        return BayesianPrior(mean: mean, standardDeviation: stddev)
    }

    private static func parseQuantile(_ fields: YAMLMapping, into definition: inout MetricDefinition) throws(Diagnostic) {
        let value = try fields.required("quantile", in: "quantile '\(definition.key)'")
        let level = try value.double("quantile (a level such as 0.9)")
        guard level > 0, level < 1 else {
            throw Diagnostic(value.location, .error, "quantile is a level between 0 and 1 such as 0.9 (p90), not \(level)")
        }
        definition.quantile = level
        guard let levelValue = fields["level"] else { return }
        let name = try levelValue.string("a quantile's level")
        guard let parsed = MetricDefinition.Level(rawValue: name) else {
            throw Diagnostic(levelValue.location, .error, "level is 'unit' (each unit's sum) or 'event' (each event's value), not '\(name)'"
                + NameSuggestion.hint(for: name, among: MetricDefinition.Level.allCases.map(\.rawValue), noun: "level"))
        }
        definition.level = parsed
    }

    private static func parseCuped(_ fields: YAMLMapping, into definition: inout MetricDefinition) throws(Diagnostic) {
        definition.cuped = try fields["cuped"]?.bool("cuped") ?? false
        guard let window = fields["preWindow"] else { return }
        guard definition.cuped else {
            throw Diagnostic(window.location, .error, "preWindow is the hours before exposure that CUPED reads; add cuped: true")
        }
        let hours = try window.double("preWindow (hours before first exposure)")
        guard hours > 0, hours.isFinite else {
            throw Diagnostic(window.location, .error, "preWindow is hours before the first exposure, above 0, not \(hours)")
        }
        definition.preWindowHours = hours
    }

    private static func parseCap(_ value: YAMLValue, into definition: inout MetricDefinition) throws(Diagnostic) {
        let cap = try value.mapping("cap")
        if let problem = cap.unknownKeys(allowed: ["absolute", "percentile"], in: "cap", nearest: NameSuggestion.nearest).first {
            throw problem
        }
        guard cap.entries.count == 1, let entry = cap.entries.first else {
            throw Diagnostic(value.location, .error, "cap is {absolute: X} or {percentile: P}, one of them")
        }
        let limit = try entry.value.double(entry.key == "absolute" ? "cap's absolute limit" : "cap's percentile")
        if entry.key == "absolute" {
            guard limit > 0, limit.isFinite else {
                throw Diagnostic(entry.value.location, .error, "cap's absolute limit must be a number above 0, not \(limit)")
            }
            definition.capAbsolute = limit
        } else {
            guard limit > 0, limit < 1 else {
                throw Diagnostic(entry.value.location, .error,
                                 "cap's percentile is a level between 0 and 1 such as 0.99 (the 99th percentile of units), not \(limit)")
            }
            definition.capPercentile = limit
        }
    }
}
