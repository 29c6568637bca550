import Foundation
import RemixKit

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

    /// Reads a parsed `bandit_update` line; nil when it is not one.
    package init?(line: [String: Any]) {
        guard line["type"] as? String == Self.eventType, let experiment = line["experiment"] as? String,
              let update = (line["update"] as? NSNumber)?.intValue, let arms = line["arms"] as? [[String: Any]] else { return nil }
        self.experiment = experiment
        self.update = update
        leaf = line["leaf"] as? String
        enoughUnits = line["enoughUnits"] as? Bool ?? true
        srmPValue = (line["srmPValue"] as? NSNumber)?.doubleValue
        var read: [Arm] = []
        for arm in arms {
            guard let variation = arm["variation"] as? String, let weight = (arm["weight"] as? NSNumber)?.doubleValue else { return nil }
            let posterior = (arm["posterior"] as? [String: Any]).flatMap { object -> BanditPosterior? in
                guard let mean = (object["mean"] as? NSNumber)?.doubleValue, let sd = (object["sd"] as? NSNumber)?.doubleValue else { return nil }
                return BanditPosterior(mean: mean, sd: sd)
            }
            read.append(Arm(variation: variation, units: (arm["units"] as? NSNumber)?.intValue ?? 0, weight: weight,
                            bestProbability: (arm["bestProbability"] as? NSNumber)?.doubleValue, posterior: posterior))
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
