/// Decides which variation of an experiment a user gets, following GrowthBook's
/// `runExperiment` rule by rule so that assignments match every GrowthBook SDK.
///
/// Not implemented, because they need a browser or server features this engine does not
/// have: URL-pattern targeting, `include` callbacks, group overrides, sticky bucketing and
/// tracking callbacks.
package struct AssignmentEngine: Sendable {
    /// An engine; it holds no state, so one instance can serve every thread.
    package init() {}

    /// Runs `experiment` for the user described by `context`.
    package func run(_ experiment: Experiment, context: AssignmentContext) -> AssignmentResult {
        let bucketing = experiment.bucketing
        let (hashValue, hashSourceIsTruthy) = context.hashSource(bucketing.hashAttribute)
        let decision = Self.decide(experiment, bucketing: bucketing, context: context,
                                   hashValue: hashValue, hashSourceIsTruthy: hashSourceIsTruthy)
        return Self.result(experiment, decision: decision, hashValue: hashValue)
    }

    /// What `run` decided: a variation index (possibly out of range), the bucket when the
    /// variation came from hashing, and why. Trivially copyable, so deciding counts no references.
    private struct Decision {
        let variation: Int
        /// The bucket in units of 1/`scale` (-1 for none).
        let bucketUnits: Int
        let scale: Int
        let reason: AssignmentReason

        init(_ variation: Int, bucketUnits: Int = -1, scale: Int = 1, _ reason: AssignmentReason) {
            self.variation = variation
            self.bucketUnits = bucketUnits
            self.scale = scale
            self.reason = reason
        }
    }

    /// GrowthBook's `runExperiment` rules, in order.
    @inline(__always)
    private static func decide(
        _ experiment: Experiment, bucketing: Bucketing, context: AssignmentContext,
        hashValue: String, hashSourceIsTruthy: Bool
    ) -> Decision {
        let variationCount = experiment.variations.count
        if variationCount < 2 { return Decision(-1, .fewerThanTwoVariations) }
        if !context.enabled { return Decision(-1, .contextDisabled) }
        if let forced = context.queryStringVariation(
            forExperiment: experiment.key, variationCount: variationCount
        ) {
            return Decision(forced, .forcedByQueryString)
        }
        if let forced = context.forcedVariation(forExperiment: experiment.key) {
            return Decision(forced, .forcedByContext)
        }
        if experiment.status == .draft { return Decision(-1, .draft) }
        if !experiment.active { return Decision(-1, .inactive) }
        guard hashSourceIsTruthy else { return Decision(-1, .missingHashAttribute) }

        if let filters = experiment.filters {
            if isFilteredOut(filters, context: context) { return Decision(-1, .filtered) }
        } else if let namespace = experiment.namespace,
                  !GrowthBookHash.inNamespace(hashValue: hashValue, namespace: namespace) {
            return Decision(-1, .namespace)
        }
        if !context.satisfies(experiment.condition) {
            return Decision(-1, .condition)
        }
        if let parents = experiment.parentConditions, !passes(parents, context: context) {
            return Decision(-1, .parentCondition)
        }

        guard let units = bucketing.hash(hashValue) else {
            return Decision(-1, .invalidHashVersion)
        }
        let assigned = bucketing.chooseVariation(units: units)
        if assigned < 0 { return Decision(-1, .coverage) }
        if let forced = experiment.force { return Decision(forced, .forcedByExperiment) }
        if context.qaMode { return Decision(-1, .qaMode) }
        if experiment.status == .stopped { return Decision(-1, .stopped) }
        return Decision(assigned, bucketUnits: units, scale: bucketing.scale, .assigned)
    }

    /// Whether every prerequisite holds; GrowthBook evaluates them without saved groups.
    private static func passes(_ parents: [Experiment.ParentCondition], context: AssignmentContext) -> Bool {
        parents.allSatisfy { parent in
            let tested: [String: AttributeValue] = ["value": context.featureValues[parent.id] ?? .null]
            return parent.condition.evaluate(tested)
        }
    }

    /// GrowthBook's `isFilteredOut`: true when any filter rejects the user.
    private static func isFilteredOut(_ filters: [Experiment.Filter], context: AssignmentContext) -> Bool {
        filters.contains { filter in
            let attribute = filter.attribute.flatMap { $0.isEmpty ? nil : $0 } ?? "id"
            let (text, isTruthy) = context.hashSource(AttributeKey(attribute))
            guard isTruthy else { return true }
            let version = filter.hashVersion.flatMap { $0 == 0 ? nil : $0 } ?? 2
            guard let n = GrowthBookHash.hash(seed: filter.seed, value: text, version: version) else {
                return true
            }
            return !filter.ranges.contains { $0.contains(n) }
        }
    }

    /// GrowthBook's `getExperimentResult`: an index outside the variations means "not in the
    /// experiment" with the first variation's value.
    @inline(__always)
    private static func result(
        _ experiment: Experiment, decision: Decision, hashValue: String
    ) -> AssignmentResult {
        let reports = experiment.bucketing.reports
        let variation = decision.variation
        let inRange = variation >= 0 && variation < experiment.variations.count
        return AssignmentResult(
            report: reports[inRange ? variation : 0], inExperiment: inRange,
            hashUsed: decision.reason == .assigned, hashValue: hashValue,
            bucketUnits: decision.bucketUnits, bucketScale: decision.scale,
            reason: decision.reason
        )
    }
}
