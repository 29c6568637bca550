import Foundation
import RemixKit

/// The outcome of evaluating one experiment for one session, and why.
package struct ExperimentDecision: Sendable, Equatable {
    /// The experiment's key.
    package var experiment: String
    /// The app and slot it fills.
    package var app: String
    package var slot: String
    /// Whether the session takes part.
    package var inExperiment: Bool
    /// Whether the variation came from the hash (false when forced).
    package var hashUsed: Bool
    /// The variation's index, when in the experiment.
    package var variationId: Int?
    /// The variation's key, when in the experiment.
    package var variation: String?
    /// The feature that fills the slot for this variation, when in the experiment.
    package var feature: String?
    /// That feature's parameters.
    package var parameters: [String: ParameterValue]
    /// The session's hash in [0, 1), when it was computed.
    package var bucket: Double?
    /// The attribute hashed and its value.
    package var hashAttribute: String
    package var hashValue: String
    /// The rule that decided: `assigned`, `condition`, `namespace`, `coverage`, `schedule`, …
    package var rule: String
    /// The decision in words.
    package var reason: String
    /// For a rollout: the step in force (1-based) and its share of traffic.
    package var rolloutStep: Int? = nil
    package var rolloutShare: Double? = nil

    /// The same decision with the session left out because another experiment took the slot.
    func outranked(by winner: String) -> ExperimentDecision {
        var copy = self
        copy.inExperiment = false
        copy.hashUsed = false
        copy.bucket = nil
        copy.variationId = nil
        copy.variation = nil
        copy.feature = nil
        copy.parameters = [:]
        copy.rule = "slotTaken"
        copy.reason = "not in experiment: experiment '\(winner)' already fills \(app)/\(slot) for this session"
        return copy
    }
}

/// Evaluates experiment definitions for sessions: the GrowthBook engine plus our schedule.
package struct ExperimentEvaluator: Sendable {
    private let engine = AssignmentEngine()
    /// Saved groups for `$inGroup` conditions.
    package let savedGroups: [String: AttributeValue]

    /// Makes an evaluator.
    package init(savedGroups: [String: AttributeValue] = [:]) {
        self.savedGroups = savedGroups
    }

    /// The decision for a session with `attributes` at `now`; `forcedVariation` is QA forcing.
    package func decide(
        _ definition: ExperimentDefinition, attributes: [String: AttributeValue], now: Date,
        forcedVariation: Int? = nil
    ) -> ExperimentDecision {
        decide(definition, context: context(for: attributes), now: now, forcedVariation: forcedVariation)
    }

    /// A context for `attributes` with the saved groups: make it once per session and pass it to
    /// ``decide(_:context:now:forcedVariation:)`` for each experiment, so attributes are indexed once.
    package func context(for attributes: [String: AttributeValue]) -> AssignmentContext {
        AssignmentContext(attributes: attributes, savedGroups: savedGroups)
    }

    /// The decision for a session whose attributes are in `context` (made by ``context(for:)``).
    package func decide(
        _ definition: ExperimentDefinition, context: AssignmentContext, now: Date, forcedVariation: Int? = nil
    ) -> ExperimentDecision {
        decide(key: definition.key, app: definition.app, slot: definition.slot, experiment: definition.experiment,
               schedule: definition.schedule, variations: definition.variations, context: context, now: now,
               forcedVariation: forcedVariation, rollout: definition.rollout)
    }

    /// ``decide(_:context:now:forcedVariation:)`` from the parts of a definition it reads, so that
    /// a caller holding definitions in an array passes each part in place instead of copying the
    /// whole definition (a large struct) for every decision.
    func decide(
        key: String, app: String, slot: String, experiment: Experiment, schedule: ExperimentDefinition.Schedule?,
        variations: [ExperimentDefinition.Variation], context: AssignmentContext, now: Date, forcedVariation: Int?,
        rollout: Rollout? = nil
    ) -> ExperimentDecision {
        var context = context
        if let forcedVariation { context.forceVariation(forcedVariation, forExperiment: key) }
        let result = engine.run(experiment, context: context)
        var rule = result.reason.rawValue
        var reason = result.reason.description
        var inExperiment = result.inExperiment
        if inExperiment, result.reason != .forcedByContext, let schedule, !schedule.contains(now) {
            inExperiment = false
            rule = "schedule"
            reason = "not in experiment: the session's time is outside its schedule"
        }
        // Rolled back, its coverage is 0 too; the rule says why.
        if let rollout, rollout.rolledBack {
            inExperiment = false
            rule = "rolledBack"
            reason = "not in experiment: the rollout was rolled back, so the slot default fills the slot"
        }
        let variation = inExperiment && variations.indices.contains(result.variationId) ? variations[result.variationId] : nil
        var decision = ExperimentDecision(
            experiment: key, app: app, slot: slot, inExperiment: variation != nil,
            hashUsed: variation != nil && result.hashUsed, variationId: variation.map { _ in result.variationId },
            variation: variation?.key, feature: variation.flatMap { $0.feature == Rollout.slotDefaultFeature ? nil : $0.feature },
            parameters: variation?.parameters ?? [:], bucket: rule == "rolledBack" ? nil : result.bucket,
            hashAttribute: result.hashAttribute, hashValue: result.hashValue, rule: rule, reason: reason)
        if let rollout {
            decision.rolloutStep = rollout.step + 1
            decision.rolloutShare = rollout.share
        }
        return decision
    }
}
