import Foundation
import RemixExperiments
import RemixKit
import RemixLogReader

/// One bandit update, logged as a `bandit_update` event at its time (docs/bandits.md): each arm's
/// units so far, its weight in force from then on, its probability of being best and its posterior.
package struct BanditUpdate: Sendable, Equatable {
    /// One arm at the update.
    package struct Arm: Sendable, Equatable {
        package var variation: String
        package var units: Int
        package var weight: Double
        package var bestProbability: Double?
        package var posterior: BanditPosterior?

        package init(variation: String, units: Int, weight: Double, bestProbability: Double?, posterior: BanditPosterior?) {
            self.variation = variation
            self.units = units
            self.weight = weight
            self.bestProbability = bestProbability
            self.posterior = posterior
        }
    }

    package static let eventType = "bandit_update"

    package var experiment: String
    /// 1-based count of the bandit's updates.
    package var update: Int
    /// The leaf (contextual bandit), nil for a plain bandit.
    package var leaf: String?
    /// Whether every arm had enough units for the weights to move (else they stay).
    package var enoughUnits: Bool
    /// The bandit SRM p-value over the periods so far, nil without units.
    package var srmPValue: Double?
    package var arms: [Arm]

    /// The event's fields after `experiment`.
    package var fields: [EventField] {
        var fields = [EventField("experiment", .string(experiment))]
        if let leaf { fields.append(EventField("leaf", .string(leaf))) }
        fields += [
            EventField("update", .int(update)),
            EventField("enoughUnits", .bool(enoughUnits)),
            EventField("srmPValue", Figure.value(srmPValue)),
            EventField("arms", .array(arms.map { arm in
                .object([
                    EventField("variation", .string(arm.variation)),
                    EventField("units", .int(arm.units)),
                    EventField("weight", .double(arm.weight)),
                    EventField("bestProbability", Figure.value(arm.bestProbability)),
                    EventField("posterior", arm.posterior.map { posterior in
                        .object([EventField("mean", .double(posterior.mean)), EventField("sd", .double(posterior.sd))])
                    } ?? .null),
                ])
            })),
        ]
        return fields
    }

    /// Reads a parsed `bandit_update` line (``LogLineObject``); nil when it is not one.
    package init?(line: [String: AttributeValue]) {
        guard line["type"]?.stringValue == Self.eventType, let experiment = line["experiment"]?.stringValue,
              let update = LogLineObject.integer(line["update"]), let arms = line["arms"]?.arrayValue else { return nil }
        self.experiment = experiment
        self.update = update
        leaf = line["leaf"]?.stringValue
        enoughUnits = line["enoughUnits"]?.boolValue ?? true
        srmPValue = line["srmPValue"]?.numberValue
        var read: [Arm] = []
        for arm in arms {
            guard let arm = arm.objectValue, let variation = arm["variation"]?.stringValue,
                  let weight = arm["weight"]?.numberValue else { return nil }
            let posterior = arm["posterior"]?.objectValue.flatMap { object -> BanditPosterior? in
                guard let mean = object["mean"]?.numberValue, let sd = object["sd"]?.numberValue else { return nil }
                return BanditPosterior(mean: mean, sd: sd)
            }
            read.append(Arm(variation: variation, units: LogLineObject.integer(arm["units"]) ?? 0, weight: weight,
                            bestProbability: arm["bestProbability"]?.numberValue, posterior: posterior))
        }
        self.arms = read
    }

    package init(experiment: String, update: Int, leaf: String? = nil, enoughUnits: Bool, srmPValue: Double?, arms: [Arm]) {
        self.experiment = experiment
        self.update = update
        self.leaf = leaf
        self.enoughUnits = enoughUnits
        self.srmPValue = srmPValue
        self.arms = arms
    }
}
