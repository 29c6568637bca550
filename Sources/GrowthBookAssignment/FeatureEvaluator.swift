/// Evaluates GrowthBook features as every GrowthBook SDK's `evalFeature` does: rules in order
/// (prerequisites, condition, filters; a force rule's rollout; an experiment rule's experiment,
/// skipped when the user is not in it or lands in a passthrough variation), then the default.
package struct FeatureEvaluator: Sendable {
    /// The features by key (prerequisites are looked up here too).
    package let features: [String: Feature]
    /// Contextual bandits by key, for rules with `contextualBanditRef`.
    package let contextualBandits: [String: ContextualBandit]
    private let engine = AssignmentEngine()

    /// An evaluator of `features` (and the `contextualBandits` their rules refer to).
    package init(features: [Feature], contextualBandits: [String: ContextualBandit] = [:]) {
        self.features = Dictionary(features.map { ($0.key, $0) }, uniquingKeysWith: { _, later in later })
        self.contextualBandits = contextualBandits
    }

    /// The value of the feature `key` for `context`, without sticky bucketing.
    package func evaluate(_ key: String, context: AssignmentContext) -> FeatureResult {
        var sticky: StickyBuckets?
        var stack = Set<String>()
        return evaluate(key, context: context, stickyBuckets: &sticky, stack: &stack)
    }

    /// The value of the feature `key` for `context`; experiments use and update `stickyBuckets`
    /// (sticky bucketing is on when it is not nil).
    package func evaluate(_ key: String, context: AssignmentContext, stickyBuckets: inout StickyBuckets?) -> FeatureResult {
        var stack = Set<String>()
        return evaluate(key, context: context, stickyBuckets: &stickyBuckets, stack: &stack)
    }

    /// `stack` holds the features being evaluated, to break prerequisite cycles.
    private func evaluate(
        _ key: String, context: AssignmentContext, stickyBuckets: inout StickyBuckets?, stack: inout Set<String>
    ) -> FeatureResult {
        guard let feature = features[key] else { return FeatureResult(value: .null, source: .unknownFeature) }
        guard stack.insert(key).inserted else { return FeatureResult(value: .null, source: .cyclicPrerequisite) }
        let evaluated = stack
        for (index, rule) in feature.rules.enumerated() {
            stack = evaluated
            if let parents = rule.parentConditions {
                switch prerequisites(parents, context: context, stickyBuckets: &stickyBuckets, stack: &stack) {
                case .gate: return FeatureResult(value: .null, source: .prerequisite)
                case .cyclic: return FeatureResult(value: .null, source: .cyclicPrerequisite)
                case .fail: continue
                case .pass: break
                }
            }
            guard Self.targets(rule, context: context) else { continue }
            if let force = rule.force {
                guard Self.isIncludedInRollout(rule, featureKey: key, context: context) else { continue }
                return FeatureResult(value: force, source: .force, ruleId: rule.id, tracks: rule.tracks)
            }
            guard var experiment = feature.experiments[index] else { continue }
            // A contextual bandit rule: the first leaf the user matches gives the weights, reported with a
            // hashed result only (a forced variation carries no leaf), as GrowthBook's SDKs.
            let choice = rule.contextualBanditRef.flatMap { contextualBandits[$0] }
                .map { $0.choice(for: context, marginal: experiment.weights ?? []) }
            if let choice { experiment.weights = choice.variationWeights }
            let result: AssignmentResult
            if var sticky = stickyBuckets {
                result = engine.run(experiment, context: context, stickyBuckets: &sticky)
                stickyBuckets = sticky
            } else {
                result = engine.run(experiment, context: context)
            }
            guard result.inExperiment, !result.passthrough else { continue }
            return FeatureResult(value: result.value, source: .experiment, ruleId: rule.id, experiment: experiment,
                                 experimentResult: result, contextualBandit: result.hashUsed ? choice : nil)
        }
        return FeatureResult(value: feature.defaultValue, source: .defaultValue)
    }

    /// Whether a force rule without prerequisites gives its value to the user in `context`: its
    /// condition, filters and rollout let them in (`featureKey` is the default rollout seed).
    package static func forceRuleApplies(_ rule: FeatureRule, featureKey: String, context: AssignmentContext) -> Bool {
        targets(rule, context: context) && isIncludedInRollout(rule, featureKey: featureKey, context: context)
    }

    /// Whether the rule's condition and filters let the user in.
    private static func targets(_ rule: FeatureRule, context: AssignmentContext) -> Bool {
        if let condition = rule.condition, condition.source.isTruthy, !context.satisfies(condition) { return false }
        if let filters = rule.filters, AssignmentEngine.isFilteredOut(filters, context: context) { return false }
        return true
    }

    private enum PrerequisiteOutcome { case pass, fail, gate, cyclic }

    /// GrowthBook's `evalPrereqs`: each parent feature evaluated, its value tested as `{"value": …}`.
    private func prerequisites(
        _ parents: [Experiment.ParentCondition], context: AssignmentContext, stickyBuckets: inout StickyBuckets?,
        stack: inout Set<String>
    ) -> PrerequisiteOutcome {
        let evaluated = stack
        for parent in parents {
            stack = evaluated
            let parentResult = evaluate(parent.id, context: context, stickyBuckets: &stickyBuckets, stack: &stack)
            if parentResult.source == .cyclicPrerequisite { return .cyclic }
            if !parent.condition.evaluate(value: ["value": parentResult.value], savedGroups: context.savedGroups) {
                return parent.gate ? .gate : .fail
            }
        }
        return .pass
    }

    /// GrowthBook's `isIncludedInRollout` for a force rule: `range` if given, else `coverage`,
    /// by the hash of the rule's attribute (or its fallback) with its seed.
    private static func isIncludedInRollout(_ rule: FeatureRule, featureKey: String, context: AssignmentContext) -> Bool {
        if rule.coverage == nil && rule.range == nil { return true }
        if rule.coverage == 0 && rule.range == nil { return false }
        var source = context.hashSource(AttributeKey(rule.hashAttribute.flatMap { $0.isEmpty ? nil : $0 } ?? "id"))
        if !source.isTruthy, let fallback = rule.fallbackAttribute, !fallback.isEmpty {
            let fallbackSource = context.hashSource(AttributeKey(fallback))
            if fallbackSource.isTruthy { source = fallbackSource }
        }
        guard source.isTruthy else { return false }
        let seed = rule.seed.flatMap { $0.isEmpty ? nil : $0 } ?? featureKey
        let version = rule.hashVersion.flatMap { $0 == 0 ? nil : $0 } ?? 1
        guard let n = GrowthBookHash.hash(seed: seed, value: source.text, version: version) else { return false }
        if let range = rule.range { return range.contains(n) }
        return n < (rule.coverage ?? 1)
    }
}
