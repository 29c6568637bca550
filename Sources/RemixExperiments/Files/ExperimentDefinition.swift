import Foundation
import RemixKit
import RemixYAML

/// One experiment file: which features fill an app slot, for whom, and how the result is measured.
/// It wraps the GrowthBook-style ``Experiment`` the assignment engine runs.
package struct ExperimentDefinition: Sendable {
    /// One arm: its key, the feature that fills the slot and that feature's parameters.
    package struct Variation: Sendable {
        package var key: String
        package var feature: String
        package var parameters: [String: ParameterValue]
        /// Where the variation, its feature name and each parameter are in the file.
        package var location: SourceLocation
        package var featureLocation: SourceLocation
        package var parameterLocations: [String: SourceLocation]
    }

    /// What the analysis measures: metric keys of `metrics.yaml` or bare event names (the share
    /// of units with that event), the primary first.
    package struct Metrics: Sendable, Equatable {
        package var primary: String?
        package var guardrails: [String]
        /// Reported and tested, but neither the decision nor a guardrail.
        package var secondary: [String] = []

        /// All metrics: primary, secondary, then guardrails.
        package var all: [String] { (primary.map { [$0] } ?? []) + secondary + guardrails }
    }

    /// When the experiment may assign sessions; either end may be open.
    package struct Schedule: Sendable, Equatable {
        package var start: Date?
        package var end: Date?

        /// Whether `date` falls in `[start, end)`.
        package func contains(_ date: Date) -> Bool {
            if let start, date < start { return false }
            if let end, date >= end { return false }
            return true
        }
    }

    /// The experiment's key (GrowthBook `key`).
    package var key: String
    /// The file it was read from.
    package var file: String
    /// What the experiment is about.
    package var summary: String?
    /// The app whose slot it fills.
    package var app: String
    /// The slot it fills.
    package var slot: String
    /// The arms, in order; index = GrowthBook variation id.
    package var variations: [Variation]
    /// When it may assign.
    package var schedule: Schedule?
    /// Its phases, in start order (empty: one phase-less experiment, as GrowthBook's payload
    /// without `phase`).
    package var phases: [Phase] = []
    /// What the analysis measures.
    package var metrics: Metrics
    /// The engine's form of the experiment.
    package var experiment: Experiment
    /// Where each top-level key's value starts, for diagnostics.
    package var locations: [String: SourceLocation]
    /// The condition as written, for positioned checks.
    package var conditionNode: YAMLValue?
    /// The rollout, when the file holds `rollout:` instead of variations (docs/rollouts.md).
    package var rollout: Rollout? = nil
    /// The bandit, when the file is `type: bandit` (docs/bandits.md); its weights move by updates.
    package var bandit: Bandit? = nil
    /// The session attributes the file names, where it names them (``AttributeNameCheck``).
    package var attributeNames: [AttributeName] = []

    /// Whether it can assign sessions: running and active.
    package var isLive: Bool { experiment.status == .running && experiment.active }

    /// Where `field` is, or the start of the file.
    package func location(of field: String) -> SourceLocation {
        locations[field] ?? SourceLocation(file: file, line: 1, column: 1)
    }

    /// Where the metric `name` is written under `metrics:` (else where `metrics:` is).
    package func location(ofMetric name: String) -> SourceLocation {
        locations[Self.metricLocationKey(name)] ?? location(of: "metrics")
    }

    /// The ``locations`` key of a metric name.
    static func metricLocationKey(_ name: String) -> String { "metrics/" + name }
}
