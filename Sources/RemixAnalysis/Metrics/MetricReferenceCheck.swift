import RemixExperiments
import RemixKit
import RemixYAML

/// Checks that every metric an experiment names means something: a key of the metrics file, or
/// the name of an event some registered feature (or the host) declares or a population's `check`
/// logs — so that a typo such as `advert_publish` is an error where it is written, not a report
/// of zeros later.
package struct MetricReferenceCheck {
    /// The metric definitions the experiments may name by key.
    package let catalog: MetricCatalog
    /// The events the registered features and the host declare.
    package let events: [String]
    /// The fields each declared event carries, where known: a metric's `value` must be one.
    package let eventFields: [String: [String]]
    /// Each event simulated users log by a population file's `check`, with the files whose checks
    /// log it: it exists, though no feature declares it.
    package let populationEvents: [String: [String]]

    /// Makes the check.
    package init(catalog: MetricCatalog, events: [String], eventFields: [String: [String]] = [:],
                 populationEvents: [String: [String]] = [:]) {
        self.catalog = catalog
        self.events = events
        self.eventFields = eventFields
        self.populationEvents = populationEvents
    }

    /// Whether `event` is logged by anyone: a feature, the host or a population.
    private func exists(_ event: String) -> Bool { events.contains(event) || populationEvents[event] != nil }

    /// The metrics `experiments` name that count an event only population files log — and not
    /// `population`, the run's, whose checks log `logged` — as warnings: in that run the metric
    /// counts nothing, because of the population, not of a missing feature.
    package func populationGaps(in experiments: [ExperimentDefinition], population: String, logged: [String]) -> [Diagnostic] {
        var gaps: [Diagnostic] = []
        for definition in experiments {
            for name in definition.metrics.all {
                let counted = catalog[name].map { eventNames(of: $0) } ?? [name]
                for event in counted where !events.contains(event) && !logged.contains(event) {
                    guard let files = populationEvents[event] else { continue }
                    gaps.append(Diagnostic(definition.location(ofMetric: name), .warning,
                        "metric '\(name)' counts the event '\(event)', which only a population's check logs "
                            + "(\(files.joined(separator: ", "))), and this run's population \(population) has no check that logs "
                            + "it: the metric counts nothing in this run"))
                }
            }
        }
        return gaps
    }

    /// The problems of `experiments`' metrics (errors) and of metrics-file events nobody declares
    /// (warnings: the file is shared, and a plugin that emits them may not be loaded).
    package func problems(in experiments: [ExperimentDefinition]) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        for definition in experiments {
            for name in definition.metrics.all {
                if let metric = catalog[name] {
                    if let bandit = definition.bandit, bandit.metric == name, let problem = Self.banditProblem(metric) {
                        problems.append(Diagnostic(bandit.metricLocation, .error, problem))
                    }
                    for event in eventNames(of: metric) where !exists(event) {
                        problems.append(Diagnostic(definition.location(ofMetric: name), .error,
                            "metric '\(name)' counts the event '\(event)', which no registered feature emits"
                                + suggestion(for: event)))
                    }
                    for (part, event, field) in unknownFields(of: metric) {
                        problems.append(Diagnostic(definition.location(ofMetric: name), .error,
                            "metric '\(name)' sums the field '\(field)' of '\(event)'\(part), which it does not carry"
                                + fieldSuggestion(field, of: event)))
                    }
                } else if exists(name), definition.rollout?.guardrails.contains(name) == true {
                    // A rollout tests each guardrail on its worse side only (docs/rollouts.md).
                    problems.append(Diagnostic(definition.location(ofMetric: name), .warning,
                        "guardrail '\(name)' is an event with no declared direction, so the rollout rolls back only on a "
                            + "significant fall of it; define it in metrics.yaml (inverse: true when a rise is worse)"))
                } else if !exists(name) {
                    problems.append(Diagnostic(definition.location(ofMetric: name), .error,
                        "unknown metric '\(name)': " + (catalog.file.map { "not a key of \($0)" } ?? "not a metric key (no metrics.yaml)")
                            + " and not an event any "
                            + "registered feature emits" + suggestion(for: name, keys: catalog.keys)))
                }
            }
        }
        for metric in catalog.definitions {
            if let location = metric.location, let event = metric.event, let field = metric.value,
               let known = eventFields[event], !known.contains(field) {
                problems.append(Diagnostic(location, .warning, "metric '\(metric.key)' sums the field '\(field)' of '\(event)', "
                    + "which it does not carry" + fieldSuggestion(field, of: event)))
            }
            guard let event = metric.event, !exists(event), let location = metric.location else { continue }
            problems.append(Diagnostic(location, .warning,
                "metric '\(metric.key)' counts the event '\(event)', which no registered feature emits"
                    + suggestion(for: event) + "; load the plugin that emits it, or fix the name"))
        }
        return problems
    }

    /// Why a bandit cannot learn `metric`, or nil: it learns the mean of a proportion or mean metric
    /// per unit (GrowthBook's Gaussian Thompson sampling), without a percentile cap or CUPED.
    static func banditProblem(_ metric: MetricDefinition) -> String? {
        let what: String
        switch metric.kind {
        case .proportion, .mean:
            if metric.capPercentile != nil { what = "a percentile cap (capPercentile)" }
            else if metric.cuped { what = "CUPED" }
            else { return nil }
        default: what = "type \(metric.kind.rawValue)"
        }
        return "a bandit learns a proportion or mean metric per unit; '\(metric.key)' has \(what), which it cannot learn — "
            + "choose another metric, or define one without it in metrics.yaml"
    }

    /// The events a metric counts, following a ratio to its parts.
    private func eventNames(of metric: MetricDefinition) -> [String] {
        if let event = metric.event { return [event] }
        return [metric.numerator, metric.denominator].compactMap { $0 }.compactMap { catalog[$0]?.event ?? $0 }
    }

    /// The `value` fields of `metric` (or of a ratio's parts) that their declared event lacks.
    private func unknownFields(of metric: MetricDefinition) -> [(part: String, event: String, field: String)] {
        let parts = metric.kind == .ratio
            ? [metric.numerator, metric.denominator].compactMap { $0.flatMap { catalog[$0] } }.map { (" (its part '\($0.key)')", $0) }
            : [("", metric)]
        return parts.compactMap { part, definition in
            guard let event = definition.event, let field = definition.value, let known = eventFields[event],
                  !known.contains(field) else { return nil }
            return (part, event, field)
        }
    }

    private func fieldSuggestion(_ field: String, of event: String) -> String {
        let known = eventFields[event] ?? []
        let hint = NameSuggestion.nearest(to: field, among: known).map { "; did you mean '\($0)'?" } ?? ""
        return hint + " ('\(event)' carries: \(known.isEmpty ? "no fields" : known.joined(separator: ", ")))"
    }

    private func suggestion(for name: String, keys: [String] = []) -> String {
        guard let nearest = NameSuggestion.nearest(to: name, among: keys + events + populationEvents.keys.sorted()) else {
            return " ('remix features' lists the events)"
        }
        return "; did you mean '\(nearest)'? ('remix features' lists the events)"
    }
}
