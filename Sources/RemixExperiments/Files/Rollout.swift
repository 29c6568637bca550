import Foundation
import RemixKit
import RemixYAML

/// A safe rollout: one feature released to a growing share of an app slot's sessions, step by
/// step, while a controller watches guardrail metrics (docs/rollouts.md). As GrowthBook's safe
/// rollout rule, it is an experiment of two arms split 50/50 — the slot default (`control`) and
/// the rolled-out feature (`rollout`) — whose coverage is the step's share, so a session that got
/// the feature keeps it as the share grows; rolled back, no session is in it.
package struct Rollout: Sendable, Equatable {
    /// The feature rolled out; the other arm, and every session outside the share, gets the slot default.
    package var feature: String
    /// The shares of traffic in the rollout at each step, ascending in (0, 1].
    package var steps: [Double]
    /// Hours between step boundaries, counted from time zero.
    package var stepHours: Double
    /// Metrics (keys of metrics.yaml or events) that roll the feature back when significantly worse.
    package var guardrails: [String]
    /// Metrics reported beside the guardrails that decide nothing.
    package var signals: [String]
    /// Where `feature` is written.
    package var featureLocation: SourceLocation
    /// The step in force (0-based), as the controller moves it.
    package var step = 0
    /// Whether the controller rolled it back: from then on no session is in it.
    package var rolledBack = false

    /// The share of sessions in the rollout now (half of them get the feature).
    package var share: Double { rolledBack ? 0 : steps[min(step, steps.count - 1)] }

    /// What a decision reads of the rollout: whether it was rolled back, and its step and share.
    package var state: State { State(rolledBack: rolledBack, step: step, share: share) }

    /// What a decision reads of a rollout, without its strings and lists.
    package struct State: Sendable, Equatable {
        package var rolledBack: Bool
        package var step: Int
        package var share: Double
    }

    /// The variation keys of the two arms.
    package static let controlKey = "control"
    package static let rolloutKey = "rollout"
    /// The feature name of the control arm: the slot's default fills the slot.
    package static let slotDefaultFeature = ""
}

extension ExperimentFileParser {
    /// Reads `rollout:`; every problem is at its position.
    static func parseRollout(_ value: YAMLValue) throws(Diagnostic) -> Rollout {
        let fields = try value.mapping("rollout")
        if let problem = fields.unknownKeys(allowed: ["feature", "steps", "stepHours", "guardrails", "signals"], in: "rollout",
                                            nearest: NameSuggestion.nearest).first {
            throw problem
        }
        let feature = try fields.required("feature", in: "a rollout")
        let stepsValue = try fields.required("steps", in: "a rollout")
        let steps = try stepsValue.sequence("steps").map { item throws(Diagnostic) in try item.double("a step's share") }
        guard !steps.isEmpty else {
            throw Diagnostic(stepsValue.location, .error, "a rollout needs at least one step, e.g. steps: [0.05, 0.25, 0.5, 1.0]")
        }
        let items = try stepsValue.sequence("steps")
        for (index, share) in steps.enumerated() {
            guard share.isFinite, share > 0, share <= 1 else {
                throw Diagnostic(items[index].location, .error, "a step's share must be in (0, 1], not \(share)")
            }
            if index > 0, share <= steps[index - 1] {
                throw Diagnostic(items[index].location, .error, "steps must ascend: \(share) follows \(steps[index - 1]); "
                                 + "give each step a larger share than the one before")
            }
        }
        let stepHours = try hours("stepHours", of: fields, in: "a rollout")
        let guardrailsValue = try fields.required("guardrails", in: "a rollout")
        let guardrails = try guardrailsValue.sequence("guardrails").map { item throws(Diagnostic) in try item.string("a guardrail metric") }
        guard !guardrails.isEmpty else {
            throw Diagnostic(guardrailsValue.location, .error,
                             "a rollout needs at least one guardrail, e.g. guardrails: [cancelled]; it is what decides a rollback")
        }
        let signals = try fields["signals"]?.sequence("signals").map { item throws(Diagnostic) in try item.string("a signal metric") } ?? []
        return Rollout(feature: try feature.string("feature"), steps: steps, stepHours: stepHours, guardrails: guardrails,
                       signals: signals, featureLocation: feature.location)
    }

    /// The two arms of a rollout: the slot default, then the feature.
    static func rolloutVariations(_ rollout: Rollout, at location: SourceLocation) -> [ExperimentDefinition.Variation] {
        [Rollout.controlKey, Rollout.rolloutKey].map { key in
            ExperimentDefinition.Variation(
                key: key, feature: key == Rollout.rolloutKey ? rollout.feature : Rollout.slotDefaultFeature, parameters: [:],
                location: location, featureLocation: key == Rollout.rolloutKey ? rollout.featureLocation : location,
                parameterLocations: [:])
        }
    }

    /// Where each guardrail and signal of `rollout:` is written, as metric location keys.
    static func rolloutMetricLocations(_ value: YAMLValue?) -> [(String, SourceLocation)] {
        guard let value, let fields = try? value.mapping("rollout") else { return [] }
        return ["guardrails", "signals"].flatMap { key -> [(String, SourceLocation)] in
            let items = (fields[key]).flatMap { try? $0.sequence(key) } ?? []
            return items.compactMap { item in
                (try? item.string("a metric")).map { (ExperimentDefinition.metricLocationKey($0), item.location) }
            }
        }
    }
}
