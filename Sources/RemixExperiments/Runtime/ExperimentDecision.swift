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
    package var hashValue: String {
        get { hashText.string }
        set { hashText = HashText(newValue) }
    }
    /// `hashValue` as the assignment gave it: a string only when read (a simulation never reads it).
    package var hashText: HashText
    /// The rule that decided: `assigned`, `condition`, `namespace`, `coverage`, `schedule`, …
    package var rule: String
    /// The decision in words.
    package var reason: String
    /// The phase in force (numbered from 0, as GrowthBook does), when the experiment has phases;
    /// nil before its first phase starts and for an experiment without phases.
    package var phase: Int? = nil
    /// Whether the experiment has phases: then its exposures carry `phase` (null before the first).
    package var hasPhases = false
    /// Whether a stored sticky bucket decided; nil when no sticky-bucket store is in use.
    package var stickyBucketUsed: Bool? = nil
    /// For a rollout: the step in force (1-based) and its share of traffic.
    package var rolloutStep: Int? = nil
    package var rolloutShare: Double? = nil

    /// The same decision with the session left out because an earlier rule (`winner`, e.g.
    /// "experiment 'x'") took the slot.
    func outranked(by winner: String) -> ExperimentDecision {
        var copy = self
        copy.inExperiment = false
        copy.hashUsed = false
        copy.bucket = nil
        copy.variationId = nil
        copy.variation = nil
        copy.feature = nil
        copy.parameters = [:]
        copy.stickyBucketUsed = stickyBucketUsed.map { _ in false }
        copy.rule = "slotTaken"
        copy.reason = "not in experiment: \(winner) already fills \(app)/\(slot) for this session"
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

    /// ``context(for:)`` for attributes as a list (of attributes with one name, the last counts).
    package func context(forList attributes: [Attribute]) -> AssignmentContext {
        AssignmentContext(attributeList: attributes, savedGroups: savedGroups)
    }

    /// The decision for a session whose attributes are in `context` (made by ``context(for:)``).
    package func decide(
        _ definition: ExperimentDefinition, context: AssignmentContext, now: Date, forcedVariation: Int? = nil
    ) -> ExperimentDecision {
        var off: StickyBuckets?
        return decide(key: definition.key, app: definition.app, slot: definition.slot, experiment: definition.experiment,
                      schedule: definition.schedule, phases: definition.phases, variations: definition.variations,
                      context: context, now: now, forcedVariation: forcedVariation, stickyBuckets: &off,
                      rollout: definition.rollout?.state)
    }

    /// The decision with sticky bucketing: `stickyBuckets` (the user's documents) is read, and
    /// updated when the session is in the experiment.
    package func decide(
        _ definition: ExperimentDefinition, context: AssignmentContext, now: Date, forcedVariation: Int? = nil,
        stickyBuckets: inout StickyBuckets
    ) -> ExperimentDecision {
        var sticky: StickyBuckets? = stickyBuckets
        let decision = decide(
            key: definition.key, app: definition.app, slot: definition.slot, experiment: definition.experiment,
            schedule: definition.schedule, phases: definition.phases, variations: definition.variations,
            context: context, now: now, forcedVariation: forcedVariation, stickyBuckets: &sticky,
            rollout: definition.rollout?.state)
        if let sticky { stickyBuckets = sticky }
        return decision
    }

    /// ``decide(_:context:now:forcedVariation:)`` from the parts of a definition it reads, so that
    /// a caller holding definitions in an array passes each part in place instead of copying the
    /// whole definition (a large struct) for every decision. With `stickyBuckets` (sticky
    /// bucketing on), the documents are updated only when the session ends up in the experiment.
    func decide(
        key: String, app: String, slot: String, experiment: Experiment, schedule: ExperimentDefinition.Schedule?,
        phases: [ExperimentDefinition.Phase] = [], variations: [ExperimentDefinition.Variation],
        context: AssignmentContext, now: Date, forcedVariation: Int?, stickyBuckets: inout StickyBuckets?,
        rollout: Rollout.State? = nil
    ) -> ExperimentDecision {
        var context = context
        if let forcedVariation { context.forceVariation(forcedVariation, forExperiment: key) }
        // The phase in force decides with its own coverage and weights; before the first phase
        // starts, the first one's bucketing is computed (for the report) but nobody is in.
        let phase = phases.lastIndex { $0.start <= now }
        let inForce = phases.isEmpty ? experiment : phases[phase ?? 0].experiment
        var updated = stickyBuckets
        let result: AssignmentResult
        if var trial = updated {
            result = engine.run(inForce, context: context, stickyBuckets: &trial)
            updated = trial
        } else {
            result = engine.run(inForce, context: context)
        }
        var rule = result.reason.rawValue
        var reason = result.reason.description
        var inExperiment = result.inExperiment
        if inExperiment, result.reason != .forcedByContext, let schedule, !schedule.contains(now) {
            inExperiment = false
            rule = "schedule"
            reason = "not in experiment: the session's time is outside its schedule"
        } else if inExperiment, result.reason != .forcedByContext, !phases.isEmpty, phase == nil {
            inExperiment = false
            rule = "phase"
            reason = "not in experiment: the session's time is before its first phase starts"
        }
        // Rolled back, its coverage is 0 too; the rule says why.
        if let rollout, rollout.rolledBack {
            inExperiment = false
            rule = "rolledBack"
            reason = "not in experiment: the rollout was rolled back, so the slot default fills the slot"
        }
        let variation = inExperiment && variations.indices.contains(result.variationId) ? variations[result.variationId] : nil
        if variation != nil { stickyBuckets = updated }
        var decision = ExperimentDecision(
            experiment: key, app: app, slot: slot, inExperiment: variation != nil,
            hashUsed: variation != nil && result.hashUsed, variationId: variation.map { _ in result.variationId },
            variation: variation?.key, feature: variation.flatMap { $0.feature == Rollout.slotDefaultFeature ? nil : $0.feature },
            parameters: variation?.parameters ?? [:], bucket: rule == "rolledBack" ? nil : result.bucket,
            hashAttribute: result.hashAttribute, hashText: result.hashText, rule: rule, reason: reason,
            phase: phase.map { phases[$0].number }, hasPhases: !phases.isEmpty,
            stickyBucketUsed: stickyBuckets.map { _ in result.stickyBucketUsed })
        if let rollout {
            decision.rolloutStep = rollout.step + 1
            decision.rolloutShare = rollout.share
        }
        return decision
    }
}
