import RemixExperiments
import RemixKit
import RemixYAML

/// Checks that every metric an experiment names means something: a key of the metrics file, or
/// the name of an event some registered feature (or the host) declares — so that a typo such as
/// `advert_publish` is an error where it is written, not a report of zeros later.
public struct MetricReferenceCheck {
    /// The metric definitions the experiments may name by key.
    public let catalog: MetricCatalog
    /// The events that exist: what the registered features and the host declare.
    public let events: [String]

    /// Makes the check.
    public init(catalog: MetricCatalog, events: [String]) {
        self.catalog = catalog
        self.events = events
    }

    /// The problems of `experiments`' metrics (errors) and of metrics-file events nobody declares
    /// (warnings: the file is shared, and a plugin that emits them may not be loaded).
    public func problems(in experiments: [ExperimentDefinition]) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        for definition in experiments {
            for name in definition.metrics.all {
                if let metric = catalog[name] {
                    for event in eventNames(of: metric) where !events.contains(event) {
                        problems.append(Diagnostic(definition.location(of: "metrics"), .error,
                            "metric '\(name)' counts the event '\(event)', which no registered feature emits"
                                + suggestion(for: event)))
                    }
                } else if !events.contains(name) {
                    problems.append(Diagnostic(definition.location(of: "metrics"), .error,
                        "unknown metric '\(name)': " + (catalog.file.map { "not a key of \($0)" } ?? "not a metric key (no metrics.yaml)")
                            + " and not an event any "
                            + "registered feature emits" + suggestion(for: name, keys: catalog.keys)))
                }
            }
        }
        for metric in catalog.definitions {
            guard let event = metric.event, !events.contains(event), let location = metric.location else { continue }
            problems.append(Diagnostic(location, .warning,
                "metric '\(metric.key)' counts the event '\(event)', which no registered feature emits"
                    + suggestion(for: event) + "; load the plugin that emits it, or fix the name"))
        }
        return problems
    }

    /// The events a metric counts, following a ratio to its parts.
    private func eventNames(of metric: MetricDefinition) -> [String] {
        if let event = metric.event { return [event] }
        return [metric.numerator, metric.denominator].compactMap { $0 }.compactMap { catalog[$0]?.event ?? $0 }
    }

    private func suggestion(for name: String, keys: [String] = []) -> String {
        guard let nearest = NameSuggestion.nearest(to: name, among: keys + events) else {
            return " ('remix features' lists the events)"
        }
        return "; did you mean '\(nearest)'? ('remix features' lists the events)"
    }
}
