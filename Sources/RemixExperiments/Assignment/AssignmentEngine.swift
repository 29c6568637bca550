/// Decides which variation of an experiment a user gets, following GrowthBook's
/// `runExperiment` rule by rule so that assignments match every GrowthBook SDK.
///
/// Not implemented, because they need a browser or server features this engine does not
/// have: URL-pattern targeting, `include` callbacks, group overrides, sticky bucketing and
/// tracking callbacks.
public struct AssignmentEngine: Sendable {
    /// An engine; it holds no state, so one instance can serve every thread.
    public init() {}

    /// Runs `experiment` for the user described by `context`.
    public func run(_ experiment: Experiment, context: AssignmentContext) -> AssignmentResult {
        let hashAttribute = experiment.bucketing.hashAttribute.name
        let hashSource = context.hashSource(experiment.bucketing.hashAttribute)
        let hashValue = Self.hashText(hashSource)
        func decide(_ variation: Int, hashUsed: Bool = false, bucket: Double? = nil,
                    _ reason: AssignmentReason) -> AssignmentResult {
            Self.result(experiment, variation: variation, hashUsed: hashUsed, bucket: bucket,
                        hashAttribute: hashAttribute, hashValue: hashValue, reason: reason)
        }

        let variationCount = experiment.variations.count
        if variationCount < 2 { return decide(-1, .fewerThanTwoVariations) }
        if !context.enabled { return decide(-1, .contextDisabled) }
        if let url = context.url, let forced = QueryStringOverride.variation(
            forExperiment: experiment.key, url: url, variationCount: variationCount
        ) {
            return decide(forced, .forcedByQueryString)
        }
        if let forced = context.forcedVariation(forExperiment: experiment.key) {
            return decide(forced, .forcedByContext)
        }
        if experiment.status == .draft { return decide(-1, .draft) }
        if !experiment.active { return decide(-1, .inactive) }
        guard let hashSource, hashSource.isTruthy else { return decide(-1, .missingHashAttribute) }

        if let filters = experiment.filters {
            if Self.isFilteredOut(filters, context: context) { return decide(-1, .filtered) }
        } else if let namespace = experiment.namespace,
                  !GrowthBookHash.inNamespace(hashValue: hashValue, namespace: namespace) {
            return decide(-1, .namespace)
        }
        if !context.satisfies(experiment.condition) {
            return decide(-1, .condition)
        }
        if let parents = experiment.parentConditions {
            for parent in parents {
                // GrowthBook evaluates prerequisites without saved groups.
                let tested: [String: AttributeValue] = ["value": context.featureValues[parent.id] ?? .null]
                if !parent.condition.evaluate(tested) { return decide(-1, .parentCondition) }
            }
        }

        guard let bucket = experiment.bucketing.hash(hashValue) else {
            return decide(-1, .invalidHashVersion)
        }
        let assigned = GrowthBookHash.chooseVariation(bucket, ranges: experiment.bucketing.ranges)
        if assigned < 0 { return decide(-1, .coverage) }
        if let forced = experiment.force { return decide(forced, .forcedByExperiment) }
        if context.qaMode { return decide(-1, .qaMode) }
        if experiment.status == .stopped { return decide(-1, .stopped) }
        return decide(assigned, hashUsed: true, bucket: bucket, .assigned)
    }

    /// The hashed value as JavaScript would concatenate it; empty when missing or null.
    private static func hashText(_ source: AttributeValue?) -> String {
        switch source {
        case .none, .null?: return ""
        case .string(let text)?: return text
        case let value?: return value.javaScriptString
        }
    }

    /// GrowthBook's `isFilteredOut`: true when any filter rejects the user.
    private static func isFilteredOut(_ filters: [Experiment.Filter], context: AssignmentContext) -> Bool {
        filters.contains { filter in
            let attribute = filter.attribute.flatMap { $0.isEmpty ? nil : $0 } ?? "id"
            guard let source = context.hashSource(AttributeKey(attribute)), source.isTruthy else { return true }
            let version = filter.hashVersion.flatMap { $0 == 0 ? nil : $0 } ?? 2
            guard let n = GrowthBookHash.hash(seed: filter.seed, value: hashText(source), version: version) else {
                return true
            }
            return !filter.ranges.contains { $0.contains(n) }
        }
    }

    /// GrowthBook's `getExperimentResult`: an index outside the variations means "not in the
    /// experiment" with the first variation's value.
    private static func result(
        _ experiment: Experiment, variation: Int, hashUsed: Bool, bucket: Double?,
        hashAttribute: String, hashValue: String, reason: AssignmentReason
    ) -> AssignmentResult {
        let variations = experiment.variations
        let inRange = variation >= 0 && variation < variations.count
        let index = inRange ? variation : 0
        let meta = experiment.meta.flatMap { $0.indices.contains(index) ? $0[index] : nil }
        return AssignmentResult(
            experimentKey: experiment.key,
            inExperiment: inRange,
            hashUsed: hashUsed,
            variationId: index,
            value: variations.isEmpty ? .null : variations[index],
            hashAttribute: hashAttribute,
            hashValue: hashValue,
            bucket: bucket,
            key: experiment.bucketing.variationKeys[index],
            name: meta?.name,
            passthrough: meta?.passthrough ?? false,
            reason: reason
        )
    }
}
