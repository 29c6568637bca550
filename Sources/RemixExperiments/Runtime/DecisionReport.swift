import Foundation
import RemixFormats
import RemixKit

/// Renders an experiment decision for people (text) and programs (JSON).
package enum DecisionReport {
    /// Aligned lines: the decision, the rule, the variation and feature, the bucket, and — given
    /// `slot` — what fills the slot and which rule chose it; control characters of names from the
    /// files and attributes shown escaped (``JSONText/visible(_:)``).
    package static func text(_ decision: ExperimentDecision, file: String, slot: SlotFill? = nil) -> String {
        var lines = [
            "experiment    \(decision.experiment) (\(file))",
            "slot          \(decision.app)/\(decision.slot)",
            "decision      \(decision.inExperiment ? "in experiment" : "not in experiment")",
            "rule          \(decision.rule): \(decision.reason)",
        ]
        // A rollout's control arm has no feature of its own: the slot default fills the slot.
        if let id = decision.variationId, let key = decision.variation, let feature = decision.feature ?? (decision.rolloutStep == nil ? nil : "the slot default") {
            let parameters = decision.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            lines.append("variation     \(id) \(key) → \(feature)"
                         + (parameters.isEmpty ? "" : " (\(parameters.joined(separator: ", ")))"))
        }
        if let step = decision.rolloutStep, let share = decision.rolloutShare {
            lines.append("rollout       step \(step), share \(share) (the file's first step: the controller moves it in simulation)")
        }
        let bucket = decision.bucket.map { String($0) } ?? "not computed"
        lines.append("bucket        \(bucket) (hash of \(decision.hashAttribute)=\"\(decision.hashValue)\")")
        lines.append("hashUsed      \(decision.hashUsed)")
        if decision.hasPhases { lines.append("phase         \(decision.phase.map { String($0) } ?? "none yet (before the first)")") }
        if let used = decision.stickyBucketUsed { lines.append("stickyBucket  \(used ? "used" : "not used")") }
        if let slot {
            let parameters = slot.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            lines.append("slot filled   \(slot.feature)" + (parameters.isEmpty ? "" : " (\(parameters.joined(separator: ", ")))")
                         + " by \(slot.ruleDescription)")
        }
        return lines.map(JSONText.visible).joined(separator: "\n")
    }

    /// One JSON object with the decision's fields; given `slot`, also `slotFeature`,
    /// `slotParameters` and `slotRule` (the id of the rule that filled the slot, as GrowthBook
    /// reports it; null for the slot's default).
    package static func json(_ decision: ExperimentDecision, slot: SlotFill? = nil) -> String {
        var object: [String: Any] = [
            "experiment": decision.experiment, "app": decision.app, "slot": decision.slot,
            "inExperiment": decision.inExperiment, "hashUsed": decision.hashUsed,
            "variationId": decision.variationId.map { $0 as Any } ?? NSNull(),
            "variation": decision.variation.map { $0 as Any } ?? NSNull(),
            "feature": decision.feature.map { $0 as Any } ?? NSNull(),
            "bucket": decision.bucket.map { $0 as Any } ?? NSNull(),
            "hashAttribute": decision.hashAttribute, "hashValue": decision.hashValue,
            "rule": decision.rule, "reason": decision.reason,
        ]
        if let used = decision.stickyBucketUsed { object["stickyBucketUsed"] = used }
        object["parameters"] = jsonObject(decision.parameters)
        if let slot {
            object["slotFeature"] = slot.feature
            object["slotParameters"] = jsonObject(slot.parameters)
            object["slotRule"] = slot.ruleID.map { $0 as Any } ?? NSNull()
        }
        if decision.hasPhases { object["phase"] = decision.phase.map { $0 as Any } ?? NSNull() }
        if let step = decision.rolloutStep, let share = decision.rolloutShare {
            object["rolloutStep"] = step
            object["rolloutShare"] = share
        }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    private static func jsonObject(_ parameters: [String: ParameterValue]) -> [String: Any] {
        var object: [String: Any] = [:]
        for (name, value) in parameters {
            switch value {
            case .bool(let v): object[name] = v
            case .int(let v): object[name] = v
            case .double(let v): object[name] = v
            case .string(let v): object[name] = v
            }
        }
        return object
    }
}
