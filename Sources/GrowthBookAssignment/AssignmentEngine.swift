/// Decides which variation of an experiment a user gets, following GrowthBook's
/// `runExperiment` rule by rule so that assignments match every GrowthBook SDK.
///
/// Sticky bucketing is on only through ``run(_:context:stickyBuckets:)``, as GrowthBook's is
/// only when the SDK has a sticky-bucket service. Not implemented, because they need a browser
/// or server features this engine does not have: URL-pattern targeting, `include` callbacks,
/// group overrides and tracking callbacks.
package struct AssignmentEngine: Sendable {
    /// An engine; it holds no state, so one instance can serve every thread.
    package init() {}

    /// Runs `experiment` for the user described by `context`, without sticky bucketing.
    package func run(_ experiment: Experiment, context: AssignmentContext) -> AssignmentResult {
        let bucketing = experiment.bucketing
        let (hashValue, hashSourceIsTruthy) = context.hashText(bucketing.hashAttribute)
        let decision = Self.decide(experiment, bucketing: bucketing, context: context,
                                   hashValue: hashValue, hashSourceIsTruthy: hashSourceIsTruthy, sticky: .none)
        return Self.result(experiment, decision: decision, hashValue: hashValue)
    }

    /// Runs `experiment` with sticky bucketing, as a GrowthBook SDK with a sticky-bucket service:
    /// the fallback attribute is hashed when the hash attribute is missing, a variation stored in
    /// `stickyBuckets` is kept (before filters, namespace and targeting are looked at), an
    /// assignment older than `minBucketVersion` keeps the user out, and a hashed or sticky
    /// assignment is recorded in `stickyBuckets`. An experiment with sticky bucketing disabled
    /// runs as ``run(_:context:)`` does.
    package func run(
        _ experiment: Experiment, context: AssignmentContext, stickyBuckets: inout StickyBuckets
    ) -> AssignmentResult {
        let settings = experiment.stickyBucketing
        guard !settings.disabled else { return run(experiment, context: context) }
        let bucketing = experiment.bucketing
        let primaryName = bucketing.hashAttribute.name
        let primary = context.hashSource(bucketing.hashAttribute)
        let fallbackName = experiment.fallbackAttribute.flatMap { $0.isEmpty ? nil : $0 }
        let fallback = fallbackName.map { ($0, context.hashSource(AttributeKey($0))) }
        var (attribute, hashValue, truthy) = (primaryName, primary.text, primary.isTruthy)
        if !truthy, let fallback, fallback.1.isTruthy {
            (attribute, hashValue, truthy) = (fallback.0, fallback.1.text, true)
        }
        let lookup = truthy
            ? stickyBuckets.lookup(experimentKey: experiment.key, settings: settings, meta: experiment.meta,
                                   primary: (primaryName, primary.text), fallback: fallback.map { ($0.0, $0.1.text) })
            : .none
        let decision = Self.decide(experiment, bucketing: bucketing, context: context,
                                   hashValue: .text(hashValue), hashSourceIsTruthy: truthy, sticky: lookup)
        let result = Self.result(experiment, decision: decision, hashValue: .text(hashValue),
                                 hashAttribute: attribute == primaryName ? nil : attribute)
        if result.hashUsed {
            stickyBuckets.record(
                attributeName: attribute, attributeValue: hashValue,
                assignmentKey: StickyBucketDocument.assignmentKey(experiment: experiment.key, bucketVersion: settings.bucketVersion),
                variationKey: result.key)
        }
        return result
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

    /// GrowthBook's `runExperiment` rules, in order; `sticky` is what the sticky-bucket lookup
    /// found (``StickyBuckets/Lookup/none`` when sticky bucketing is off).
    @inline(__always)
    private static func decide(
        _ experiment: Experiment, bucketing: Bucketing, context: AssignmentContext,
        hashValue: HashText, hashSourceIsTruthy: Bool, sticky: StickyBuckets.Lookup
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

        // A stored sticky bucket skips filters, namespace, targeting and prerequisites.
        let isSticky = sticky.variation >= 0
        if !isSticky, let excluded = excluded(experiment, context: context, hashValue: hashValue) {
            return Decision(-1, excluded)
        }

        guard let units = bucketing.hash(hashValue) else {
            return Decision(-1, .invalidHashVersion)
        }
        let assigned = isSticky ? sticky.variation : bucketing.chooseVariation(units: units)
        if sticky.blocked { return Decision(-1, .stickyBucketBlocked) }
        if assigned < 0 { return Decision(-1, .coverage) }
        if let forced = experiment.force { return Decision(forced, .forcedByExperiment) }
        if context.qaMode { return Decision(-1, .qaMode) }
        if experiment.status == .stopped { return Decision(-1, .stopped) }
        return Decision(assigned, bucketUnits: units, scale: bucketing.scale, isSticky ? .stickyBucket : .assigned)
    }

    /// The rule of filters, namespace, targeting and prerequisites that keeps the user out, if any.
    @inline(__always)
    private static func excluded(_ experiment: Experiment, context: AssignmentContext, hashValue: HashText) -> AssignmentReason? {
        if let filters = experiment.filters {
            if isFilteredOut(filters, context: context) { return .filtered }
        } else if !experiment.inNamespace(hashValue: hashValue) {
            return .namespace
        }
        if !context.satisfies(experiment.condition) { return .condition }
        if let parents = experiment.parentConditions, !passes(parents, context: context) {
            return .parentCondition
        }
        return nil
    }

    /// Whether every prerequisite holds; GrowthBook evaluates them without saved groups.
    private static func passes(_ parents: [Experiment.ParentCondition], context: AssignmentContext) -> Bool {
        parents.allSatisfy { parent in
            let tested: [String: AttributeValue] = ["value": context.featureValues[parent.id] ?? .null]
            return parent.condition.evaluate(tested)
        }
    }

    /// GrowthBook's `isFilteredOut`: true when any filter rejects the user.
    static func isFilteredOut(_ filters: [Experiment.Filter], context: AssignmentContext) -> Bool {
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
        _ experiment: Experiment, decision: Decision, hashValue: HashText, hashAttribute: String? = nil
    ) -> AssignmentResult {
        let variation = decision.variation
        let inRange = variation >= 0 && variation < experiment.variations.count
        let hashUsed = decision.reason == .assigned || decision.reason == .stickyBucket
        let reported = inRange ? variation : 0
        return unsafe AssignmentResult(
            report: experiment.bucketing.report(reported), variationIndex: reported,
            isInterned: experiment.bucketing.reportIsInterned(reported), inExperiment: inRange,
            hashUsed: hashUsed, hashValue: hashValue,
            bucketUnits: decision.bucketUnits, bucketScale: decision.scale,
            reason: decision.reason, stickyBucketUsed: decision.reason == .stickyBucket || decision.reason == .stickyBucketBlocked,
            fallbackHashAttribute: hashAttribute
        )
    }
}
