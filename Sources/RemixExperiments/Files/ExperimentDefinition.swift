import Foundation
import RemixKit
import RemixYAML

/// One experiment file: which features fill an app slot, for whom, and how the result is measured.
/// It wraps the GrowthBook-style ``Experiment`` the assignment engine runs.
public struct ExperimentDefinition: Sendable {
    /// One arm: its key, the feature that fills the slot and that feature's parameters.
    public struct Variation: Sendable {
        public var key: String
        public var feature: String
        public var parameters: [String: ParameterValue]
        /// Where the variation, its feature name and each parameter are in the file.
        public var location: SourceLocation
        public var featureLocation: SourceLocation
        public var parameterLocations: [String: SourceLocation]
    }

    /// What the analysis measures: metric keys of `metrics.yaml` or bare event names (the share
    /// of units with that event), the primary first.
    public struct Metrics: Sendable, Equatable {
        public var primary: String?
        public var guardrails: [String]
        /// Reported and tested, but neither the decision nor a guardrail.
        public var secondary: [String] = []

        /// All metrics: primary, secondary, then guardrails.
        public var all: [String] { (primary.map { [$0] } ?? []) + secondary + guardrails }
    }

    /// When the experiment may assign sessions; either end may be open.
    public struct Schedule: Sendable, Equatable {
        public var start: Date?
        public var end: Date?

        /// Whether `date` falls in `[start, end)`.
        public func contains(_ date: Date) -> Bool {
            if let start, date < start { return false }
            if let end, date >= end { return false }
            return true
        }
    }

    /// The experiment's key (GrowthBook `key`).
    public var key: String
    /// The file it was read from.
    public var file: String
    /// What the experiment is about.
    public var summary: String?
    /// The app whose slot it fills.
    public var app: String
    /// The slot it fills.
    public var slot: String
    /// The arms, in order; index = GrowthBook variation id.
    public var variations: [Variation]
    /// When it may assign.
    public var schedule: Schedule?
    /// What the analysis measures.
    public var metrics: Metrics
    /// The engine's form of the experiment.
    public var experiment: Experiment
    /// Where each top-level key's value starts, for diagnostics.
    public var locations: [String: SourceLocation]
    /// The condition as written, for positioned checks.
    public var conditionNode: YAMLValue?

    /// Whether it can assign sessions: running and active.
    public var isLive: Bool { experiment.status == .running && experiment.active }

    /// Where `field` is, or the start of the file.
    public func location(of field: String) -> SourceLocation {
        locations[field] ?? SourceLocation(file: file, line: 1, column: 1)
    }

    /// Where the metric `name` is written under `metrics:` (else where `metrics:` is).
    public func location(ofMetric name: String) -> SourceLocation {
        locations[Self.metricLocationKey(name)] ?? location(of: "metrics")
    }

    /// The ``locations`` key of a metric name.
    static func metricLocationKey(_ name: String) -> String { "metrics/" + name }
}
