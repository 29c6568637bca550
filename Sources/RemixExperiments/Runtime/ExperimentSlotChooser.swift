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
    /// Where exposures go instead of `events`, when the sink takes them as decisions.
    private let exposures: (any ExposureSink)?
    private let forced: [String: Int]
    /// The decisions made so far, by slot, in key order.
    package var decisions: [String: [ExperimentDecision]] {
        var bySlot = firstSlot.map { [$0] } ?? []
        bySlot += laterSlots
        return Dictionary(bySlot.map { ($0.slot, $0.decisions) }, uniquingKeysWith: { $1 })
    }
    /// The decisions by slot as they were made: a session fills a slot or two, so no table is
    /// built for them unless someone asks, and the first is kept without a list.
    private var firstSlot: (slot: String, decisions: [ExperimentDecision])?
    private var laterSlots: [(slot: String, decisions: [ExperimentDecision])] = []
    /// The session's sticky-bucket documents, when sticky bucketing is on; updated as slots fill.
    package private(set) var stickyBuckets: StickyBuckets?

    /// Makes a chooser for one session.
    package convenience init(experiments: ExperimentSet, attributes: [String: AttributeValue], now: Date,
                             events: any EventSink, forcedVariations: [String: Int] = [:],
                             stickyBuckets: StickyBuckets? = nil) {
        self.init(experiments: experiments, context: { $0.context(for: attributes) }, now: now, events: events,
                  forcedVariations: forcedVariations, stickyBuckets: stickyBuckets)
    }

    /// Makes a chooser for one session whose attributes are a list (of attributes with one name,
    /// the last counts): no dictionary is built for them. With `exposures`, the exposures go
    /// there as decisions rather than to `events` as events.
    package convenience init(experiments: ExperimentSet, attributeList: [Attribute], now: Date,
                             events: any EventSink, exposures: (any ExposureSink)? = nil,
                             stickyBuckets: StickyBuckets? = nil) {
        self.init(experiments: experiments, context: { $0.context(forList: attributeList) }, now: now, events: events,
                  exposures: exposures, forcedVariations: [:], stickyBuckets: stickyBuckets)
    }

    private init(experiments: ExperimentSet, context: (ExperimentEvaluator) -> AssignmentContext, now: Date,
                 events: any EventSink, exposures: (any ExposureSink)? = nil, forcedVariations: [String: Int],
                 stickyBuckets: StickyBuckets?) {
        self.stickyBuckets = stickyBuckets
        self.experiments = experiments
        self.evaluator = ExperimentEvaluator(savedGroups: experiments.savedGroups)
        self.context = context(evaluator)
        self.now = now
        self.events = events
        self.exposures = exposures
        self.forced = forcedVariations
    }

    /// The experiment as it runs for `context`: a contextual bandit's leaf weights when the session
    /// falls in a leaf that has learned some (docs/bandits.md), else as written. Given a
    /// definition's parts, not the definition: one read whole out of an array is copied.
    private static func inForce(_ experiment: Experiment, bandit: Bandit?, context: AssignmentContext) -> Experiment {
        guard let bandit, !bandit.leaves.isEmpty, let leaf = bandit.leaf(for: context),
              let weights = bandit.leaves[leaf].weights else { return experiment }
        var experiment = experiment
        experiment.weights = weights
        return experiment
    }

    /// Whether `candidates[index]` is a bandit, told by the optional's case in place: comparing
    /// it with nil copies the bandit (its strings and leaves) to destroy it again.
    @inline(__always)
    private static func hasBandit(_ candidates: [ExperimentDefinition], _ index: Int) -> Bool {
        if case .some = candidates[index].bandit { return true }
        return false
    }

    package func choose(slot: SlotDefinition, app: AppDefinition) -> SlotAssignment? {
        guard let fill = fill(app: app.name, slot: slot.name, defaultFeature: slot.defaultFeature) else { return nil }
        let made = fill.decisions
        if firstSlot == nil {
            firstSlot = (slot.name, made)
        } else {
            laterSlots.append((slot.name, made))
        }
        let feature = fill.feature
        let events = self.events
        guard let exposures else {
            return SlotAssignment(feature: feature, parameters: fill.parameters) {
                for index in made.indices { events.record(ExposureEvent.make(made, index, filledBy: feature)) }
            }
        }
        return SlotAssignment(feature: feature, parameters: fill.parameters) {
            for index in made.indices { exposures.recordExposure(made, index, filledBy: feature) }
        }
    }

    /// How this session's `slot` of `app` is filled — the one evaluation of a slot that `remix
    /// run`, `simulate` and `assign` share: the slot's rules in ``SlotRuleOrder``, the first that
    /// includes the session deciding, every experiment on the slot decided (those after the winner
    /// as `slotTaken`), `defaultFeature` when no rule applies; nil when no experiment or rules file
    /// is about the slot. Updates the sticky-bucket documents with the winner's. Records nothing:
    /// ``choose(slot:app:)`` does.
    package func fill(app: String, slot: String, defaultFeature: String) -> SlotFill? {
        let candidates = experiments.definitions(app: app, slot: slot)
        let rules = experiments.rules(app: app, slot: slot)
        guard !candidates.isEmpty || rules != nil else { return nil }
        // The winner by its place in `made`: holding a copy would count each of its strings.
        var winner: Int?
        var forceWinner: (feature: String, parameters: [String: ParameterValue], id: String)?
        var made: [ExperimentDecision] = []
        made.reserveCapacity(candidates.count)
        // Without a rules file the steps are the experiments in key order, taken without an array.
        let steps = rules.map { SlotRuleOrder.steps($0, experiments: candidates) }
        for position in 0..<(steps?.count ?? candidates.count) {
            // Without rules the step is the experiment at `position`, taken without making a step.
            let index: Int
            if let steps {
                guard case .experiment(let listed) = steps[position] else {
                    if winner == nil, forceWinner == nil, case .force(let feature, let parameters, let rule) = steps[position],
                       FeatureEvaluator.forceRuleApplies(rule, featureKey: "\(app).\(slot)", context: context) {
                        forceWinner = (feature, parameters, rule.id)
                    }
                    continue
                }
                index = listed
            } else {
                index = position
            }
            // Part by part from the array: a whole definition would be copied for each decision.
            // Sticky documents change only for the winner: GrowthBook evaluates no rule after it.
            let taken = winner != nil || forceWinner != nil
            var sticky = taken ? nil : stickyBuckets
            var decision = evaluator.decide(
                key: candidates[index].key, app: candidates[index].app, slot: candidates[index].slot,
                experiment: Self.hasBandit(candidates, index)
                    ? Self.inForce(candidates[index].experiment, bandit: candidates[index].bandit, context: context)
                    : candidates[index].experiment,
                schedule: candidates[index].schedule,
                phases: candidates[index].phases, variations: candidates[index].variations, context: context, now: now,
                forcedVariation: forced.isEmpty ? nil : forced[candidates[index].key], stickyBuckets: &sticky,
                rollout: candidates[index].rollout?.state)
            if !taken, let sticky { stickyBuckets = sticky }
            if decision.inExperiment {
                if let winner {
                    decision = decision.outranked(by: "experiment '\(made[winner].experiment)'")
                } else if let forceWinner {
                    decision = decision.outranked(by: forceWinner.id.isEmpty ? "a force rule" : "force rule '\(forceWinner.id)'")
                } else {
                    winner = made.count
                }
            }
            made.append(decision)
        }
        if let winner {
            return SlotFill(feature: made[winner].feature ?? defaultFeature, parameters: made[winner].parameters,
                            source: .experiment(winner), decisions: made)
        }
        if let forceWinner {
            return SlotFill(feature: forceWinner.feature, parameters: forceWinner.parameters, source: .forceRule(forceWinner.id),
                            decisions: made)
        }
        return SlotFill(feature: defaultFeature, parameters: [:], source: .slotDefault, decisions: made)
    }
}

/// How a session's slot is filled (``ExperimentSlotChooser/fill(app:slot:defaultFeature:)``).
package struct SlotFill: Sendable {
    /// The rule that filled the slot.
    package enum Source: Sendable, Equatable {
        /// The experiment of `decisions[index]`, which includes the session.
        case experiment(Int)
        /// A force rule of the slot's rules file, by its `id` (empty when it has none).
        case forceRule(String)
        /// No rule applied: the slot's default feature.
        case slotDefault
    }

    /// The feature that fills the slot and its parameters.
    package var feature: String
    package var parameters: [String: ParameterValue]
    /// The rule that decided.
    package var source: Source
    /// Every experiment on the slot, decided, in rule order.
    package var decisions: [ExperimentDecision]

    /// The id of the rule that filled the slot as GrowthBook reports it (an experiment rule's id is
    /// its key), or nil for the default.
    package var ruleID: String? {
        switch source {
        case .experiment(let index): decisions[index].experiment
        case .forceRule(let id): id
        case .slotDefault: nil
        }
    }

    /// The rule that filled the slot, in words: "experiment 'k'", "force rule 'id'", "the slot's default".
    package var ruleDescription: String {
        switch source {
        case .experiment(let index): "experiment '\(decisions[index].experiment)'"
        case .forceRule(let id): id.isEmpty ? "a force rule" : "force rule '\(id)'"
        case .slotDefault: "the slot's default"
        }
    }
}

/// Takes a session's exposures as the decisions they report, not as events: a sink that writes
/// them straight into lines builds no event for them (``ExposureEvent/forEachField(_:_:filledBy:_:)``).
package protocol ExposureSink: AnyObject {
    /// Records the exposure for `decisions[index]`, whose slot `feature` fills — the event
    /// ``ExposureEvent/make(_:filledBy:)`` would make.
    func recordExposure(_ decisions: [ExperimentDecision], _ index: Int, filledBy feature: String)
}

/// The `exposure` domain event: which experiment variation a session used when the slot was
/// first used.
package enum ExposureEvent {
    /// The event's type.
    package static let name = "exposure"

    /// The exposure for `decision`; `feature` is what actually fills the slot.
    package static func make(_ decision: ExperimentDecision, filledBy feature: String) -> DomainEvent {
        make([decision], 0, filledBy: feature)
    }

    /// The exposure for `decisions[index]` (see ``forEachField(_:_:filledBy:_:)``).
    static func make(_ decisions: [ExperimentDecision], _ index: Int, filledBy feature: String) -> DomainEvent {
        var fields: [EventField] = []
        fields.reserveCapacity(13)
        forEachField(decisions, index, filledBy: feature) { fields.append(EventField($0.description, $1)) }
        return DomainEvent(name, fields)
    }

    /// Calls `body` with each field of the exposure for `decisions[index]` in order, its name a
    /// literal JSON needs no escape for, read in place (a decision copied out of its array counts
    /// every string it holds): what ``make`` puts in the event, and what a sink that writes the
    /// event straight into a line writes.
    package static func forEachField(_ decisions: [ExperimentDecision], _ index: Int, filledBy feature: String,
                                     _ body: (StaticString, EventValue) -> Void) {
        body("experiment", .string(decisions[index].experiment))
        body("variation", decisions[index].variation.map(EventValue.string) ?? .null)
        body("variationId", decisions[index].variationId.map(EventValue.int) ?? .null)
        body("feature", .string(decisions[index].feature ?? feature))
        body("app", .string(decisions[index].app))
        body("slot", .string(decisions[index].slot))
        body("bucket", decisions[index].bucket.map(EventValue.double) ?? .null)
        body("hashUsed", .bool(decisions[index].hashUsed))
        body("inExperiment", .bool(decisions[index].inExperiment))
        // Only an experiment with phases says which, only a run with a sticky-bucket store whether a
        // stored bucket decided, and only a rollout its step and share (docs/rollouts.md): the logs of
        // others stay as they were.
        if decisions[index].hasPhases { body("phase", decisions[index].phase.map(EventValue.int) ?? .null) }
        if let used = decisions[index].stickyBucketUsed { body("stickyBucketUsed", .bool(used)) }
        if let step = decisions[index].rolloutStep, let share = decisions[index].rolloutShare {
            body("step", .int(step))
            body("share", .double(share))
        }
    }

    /// The experiment, variation and feature of an exposure that put the user in its experiment;
    /// nil for any other event. Reads the fields where ``make(_:_:filledBy:)`` puts them, so a
    /// sink that counts exposures does not search each one by name.
    package static func entered(_ event: DomainEvent) -> (experiment: String, variation: String, feature: String?)? {
        guard event.name == name else { return nil }
        let fields = event.fields
        if fields.count >= 9, fields[0].name == "experiment", fields[1].name == "variation",
           fields[3].name == "feature", fields[8].name == "inExperiment" {
            guard fields[8].value == .bool(true), case .string(let experiment) = fields[0].value,
                  case .string(let variation) = fields[1].value else { return nil }
            guard case .string(let feature) = fields[3].value else { return (experiment, variation, nil) }
            return (experiment, variation, feature)
        }
        guard event["inExperiment"] == .bool(true), case .string(let experiment)? = event["experiment"],
              case .string(let variation)? = event["variation"] else { return nil }
        guard case .string(let feature)? = event["feature"] else { return (experiment, variation, nil) }
        return (experiment, variation, feature)
    }
}
