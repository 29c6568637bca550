/// A GrowthBook feature: a default value and rules tried in order, the first that applies
/// deciding the value (``FeatureEvaluator``).
package struct Feature: Sendable {
    /// The feature's key.
    package let key: String
    /// The value when no rule applies (`null` when absent).
    package let defaultValue: AttributeValue
    /// The rules, in order.
    package let rules: [FeatureRule]
    /// Each rule's experiment (nil for a force rule or a rule without variations), built once.
    let experiments: [Experiment?]

    /// A feature; experiment rules become experiments keyed by their `key`, else the feature's.
    package init(key: String, defaultValue: AttributeValue = .null, rules: [FeatureRule] = []) {
        self.key = key
        self.defaultValue = defaultValue
        self.rules = rules
        experiments = rules.map { $0.experiment(featureKey: key) }
    }
}

/// One rule of a feature, with GrowthBook's fields: a force rule (a value, for the users its
/// condition, filters and rollout let in) or an experiment rule (variations).
package struct FeatureRule: Sendable {
    /// The rule's id, reported as `ruleId`.
    package var id: String = ""
    /// Targeting: users who fail it skip the rule.
    package var condition: Condition?
    /// Prerequisite features; a failing gate turns the whole feature off.
    package var parentConditions: [Experiment.ParentCondition]?
    /// Hash filters: users outside them skip the rule.
    package var filters: [Experiment.Filter]?
    /// The value a force rule gives.
    package var force: AttributeValue?
    /// The hash seed (the feature's key when absent or empty).
    package var seed: String?
    /// The attribute hashed for rollouts and experiments (`id` when absent).
    package var hashAttribute: String?
    /// The attribute hashed when `hashAttribute` is missing (force rules; experiments with
    /// sticky bucketing).
    package var fallbackAttribute: String?
    /// A force rule's share of users by hash: `range` if given, else `coverage`.
    package var range: BucketRange?
    /// A force rule's rollout share, or an experiment's coverage.
    package var coverage: Double?
    /// The hash version (1 when absent).
    package var hashVersion: Int?
    /// The experiment's key (the feature's when absent or empty).
    package var key: String?
    /// An experiment rule's variations.
    package var variations: [AttributeValue]?
    /// An experiment rule's weights, namespace, metadata and ranges.
    package var weights: [Double]?
    package var namespace: Namespace?
    package var meta: [Experiment.VariationMeta]?
    package var ranges: [BucketRange]?
    /// Names GrowthBook reports with the experiment.
    package var name: String?
    package var phase: String?
    /// Sticky-bucketing versions and opt-out.
    package var stickyBucketing = Experiment.StickyBucketing()
    /// Tracking calls a force rule carries (from remote evaluation), reported with the result.
    package var tracks: [AttributeValue] = []
    /// A contextual bandit rule's variations, and the bandit (of the evaluator's) whose leaves
    /// give its weights.
    package var contextualVariations: [AttributeValue]?
    package var contextualBanditRef: String?

    /// An empty rule; set the fields that apply.
    package init() {}

    /// The experiment an experiment rule runs, keyed `key` or else `featureKey`.
    func experiment(featureKey: String) -> Experiment? {
        guard force == nil, let variations = contextualVariations ?? variations else { return nil }
        return Experiment(
            key: key.flatMap { $0.isEmpty ? nil : $0 } ?? featureKey, variations: variations, weights: weights,
            coverage: coverage, condition: condition?.source, namespace: namespace, hashAttribute: hashAttribute,
            fallbackAttribute: fallbackAttribute, hashVersion: hashVersion, seed: seed, filters: filters, ranges: ranges,
            meta: meta, stickyBucketing: stickyBucketing)
    }
}

/// The value a feature takes for a user, and why (GrowthBook's `FeatureResult`).
package struct FeatureResult: Sendable {
    /// Where the value came from.
    package enum Source: String, Sendable, Equatable {
        case unknownFeature, defaultValue, force, experiment, prerequisite, cyclicPrerequisite
    }

    /// The value (`null` when unknown, blocked by a prerequisite or without a default).
    package var value: AttributeValue
    /// Why.
    package var source: Source
    /// The deciding rule's id (empty when none).
    package var ruleId: String = ""
    /// The experiment that gave the value, and its result.
    package var experiment: Experiment?
    package var experimentResult: AssignmentResult?
    /// The deciding force rule's tracking calls.
    package var tracks: [AttributeValue] = []
    /// For a contextual bandit rule: the leaf that gave the weights.
    package var contextualBandit: ContextualBanditChoice?

    /// Whether the value is truthy, as JavaScript judges it.
    package var on: Bool { value.isTruthy }
    /// The opposite of ``on``.
    package var off: Bool { !on }
}
