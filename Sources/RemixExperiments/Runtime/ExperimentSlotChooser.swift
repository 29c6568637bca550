import Foundation
import RemixKit

/// Fills a session's slots from experiments: for each slot, the experiments on it are evaluated in
/// key order and the first that assigns the session wins. When the slot is first used, one
/// `exposure` event per experiment on the slot is recorded (the others with inExperiment=false).
package final class ExperimentSlotChooser: SlotChooser {
    private let experiments: ExperimentSet
    private let evaluator: ExperimentEvaluator
    private let context: AssignmentContext
    private let now: Date
    private let events: any EventSink
    private let forced: [String: Int]
    /// The decisions made so far, by slot, in key order.
    package var decisions: [String: [ExperimentDecision]] {
        Dictionary(bySlot.map { ($0.slot, $0.decisions) }, uniquingKeysWith: { $1 })
    }
    /// The decisions by slot as they were made: a session fills a slot or two, so no table is
    /// built for them unless someone asks.
    private var bySlot: [(slot: String, decisions: [ExperimentDecision])] = []

    /// Makes a chooser for one session.
    package init(experiments: ExperimentSet, attributes: [String: AttributeValue], now: Date,
                events: any EventSink, forcedVariations: [String: Int] = [:]) {
        self.experiments = experiments
        self.evaluator = ExperimentEvaluator(savedGroups: experiments.savedGroups)
        self.context = evaluator.context(for: attributes)
        self.now = now
        self.events = events
        self.forced = forcedVariations
    }

    package func choose(slot: SlotDefinition, app: AppDefinition) -> SlotAssignment? {
        let candidates = experiments.definitions(app: app.name, slot: slot.name)
        guard !candidates.isEmpty else { return nil }
        var winner: ExperimentDecision?
        var made: [ExperimentDecision] = []
        made.reserveCapacity(candidates.count)
        for index in candidates.indices {
            // Part by part from the array: a whole definition would be copied for each decision.
            var decision = evaluator.decide(
                key: candidates[index].key, app: candidates[index].app, slot: candidates[index].slot,
                experiment: candidates[index].experiment, schedule: candidates[index].schedule,
                variations: candidates[index].variations, context: context, now: now,
                forcedVariation: forced.isEmpty ? nil : forced[candidates[index].key], rollout: candidates[index].rollout)
            if decision.inExperiment {
                if let winner {
                    decision = decision.outranked(by: winner.experiment)
                } else {
                    winner = decision
                }
            }
            made.append(decision)
        }
        bySlot.append((slot.name, made))
        let feature = winner?.feature ?? slot.defaultFeature
        let events = self.events
        return SlotAssignment(feature: feature, parameters: winner?.parameters ?? [:]) {
            for decision in made { events.record(ExposureEvent.make(decision, filledBy: feature)) }
        }
    }
}

/// The `exposure` domain event: which experiment variation a session used when the slot was
/// first used.
package enum ExposureEvent {
    /// The event's type.
    package static let name = "exposure"

    /// The exposure for `decision`; `feature` is what actually fills the slot.
    package static func make(_ decision: ExperimentDecision, filledBy feature: String) -> DomainEvent {
        let event = DomainEvent(name, [
            EventField("experiment", .string(decision.experiment)),
            EventField("variation", decision.variation.map(EventValue.string) ?? .null),
            EventField("variationId", decision.variationId.map(EventValue.int) ?? .null),
            EventField("feature", .string(decision.feature ?? feature)),
            EventField("app", .string(decision.app)),
            EventField("slot", .string(decision.slot)),
            EventField("bucket", decision.bucket.map(EventValue.double) ?? .null),
            EventField("hashUsed", .bool(decision.hashUsed)),
            EventField("inExperiment", .bool(decision.inExperiment)),
        ])
        guard let step = decision.rolloutStep, let share = decision.rolloutShare else { return event }
        // A rollout's exposures also say its step and share (docs/rollouts.md); other exposures are as they were.
        return DomainEvent(name, event.fields + [EventField("step", .int(step)), EventField("share", .double(share))])
    }
}
