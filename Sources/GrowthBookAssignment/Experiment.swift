/// An experiment definition with GrowthBook's fields and defaults.
///
/// Changing a field keeps the experiment's precomputed bucketing (seed, ranges) up to date.
package struct Experiment: Sendable {
    /// Where an experiment is in its life cycle.
    package enum Status: String, Sendable, Equatable {
        /// Not started: nobody is assigned unless forced.
        case draft
        /// Running: users are bucketed.
        case running
        /// Finished: users are bucketed (so forcing still works) but reported as not in it.
        case stopped
    }

    /// A hash-based filter: the user takes part only if their hash lands in one of `ranges`.
    package struct Filter: Sendable, Equatable {
        /// The hash seed.
        package var seed: String
        /// The accepted slices of [0, 1).
        package var ranges: [BucketRange]
        /// The hash version; GrowthBook's default for filters is 2.
        package var hashVersion: Int?
        /// The attribute to hash; `id` when absent.
        package var attribute: String?

        /// A filter accepting users whose hash of `attribute` with `seed` falls in `ranges`.
        package init(seed: String, ranges: [BucketRange], hashVersion: Int? = nil, attribute: String? = nil) {
            self.seed = seed
            self.ranges = ranges
            self.hashVersion = hashVersion
            self.attribute = attribute
        }
    }

    /// A prerequisite: the feature `id`'s value, as `{"value": …}`, must satisfy `condition`.
    package struct ParentCondition: Sendable {
        /// The prerequisite feature's key.
        package var id: String
        /// The condition on `{"value": <feature value>}`.
        package var condition: Condition
        /// Whether the prerequisite gates the feature; an experiment fails either way.
        package var gate: Bool

        /// A prerequisite on the feature `id`; a missing condition always passes.
        package init(id: String, condition: AttributeValue? = nil, gate: Bool = false) {
            self.id = id
            // GrowthBook evaluates `parentCondition.condition || {}`.
            self.condition = Condition(parsing: condition.flatMap { $0.isTruthy ? $0 : nil } ?? .object([:]))
            self.gate = gate
        }
    }

    /// GrowthBook's sticky-bucketing fields of an experiment.
    package struct StickyBucketing: Sendable, Equatable {
        /// The version stored with an assignment (`KEY__VERSION`); raising it re-buckets everyone.
        package var bucketVersion: Int
        /// Users whose stored assignment has a lower version are kept out of the experiment.
        package var minBucketVersion: Int
        /// Whether this experiment ignores the sticky-bucket store (and the fallback attribute).
        package var disabled: Bool

        /// GrowthBook's defaults: version 0, no minimum, sticky bucketing on.
        package init(bucketVersion: Int = 0, minBucketVersion: Int = 0, disabled: Bool = false) {
            self.bucketVersion = bucketVersion
            self.minBucketVersion = minBucketVersion
            self.disabled = disabled
        }
    }

    /// Optional per-variation metadata.
    package struct VariationMeta: Sendable, Equatable {
        /// The variation's stable key, reported instead of its index.
        package var key: String?
        /// A human-readable name.
        package var name: String?
        /// Whether the variation passes through to the default feature value.
        package var passthrough: Bool

        /// Metadata for one variation.
        package init(key: String? = nil, name: String? = nil, passthrough: Bool = false) {
            self.key = key
            self.name = name
            self.passthrough = passthrough
        }
    }

    /// The fields, in one box shared by copies (copy-on-write): a session's slot chooser passes
    /// each experiment to the engine, and a copy is then one reference instead of one per field.
    /// Written only through ``unique()``, that is while one value owns it.
    private final class Storage: @unchecked Sendable {
        var key: String
        var variations: [AttributeValue]
        var weights: [Double]?
        var coverage: Double?
        var condition: Condition?
        var parentConditions: [ParentCondition]?
        var namespace: Namespace?
        var hashAttribute: String?
        var fallbackAttribute: String?
        var hashVersion: Int?
        var seed: String?
        var filters: [Filter]?
        var ranges: [BucketRange]?
        var force: Int?
        var active: Bool
        var status: Status
        var meta: [VariationMeta]?
        var stickyBucketing: StickyBucketing
        var bucketing: Bucketing

        init(
            key: String, variations: [AttributeValue], weights: [Double]?, coverage: Double?,
            condition: Condition?, parentConditions: [ParentCondition]?, namespace: Namespace?,
            hashAttribute: String?, fallbackAttribute: String?, hashVersion: Int?, seed: String?,
            filters: [Filter]?, ranges: [BucketRange]?, force: Int?, active: Bool, status: Status,
            meta: [VariationMeta]?, stickyBucketing: StickyBucketing, bucketing: Bucketing
        ) {
            self.key = key
            self.variations = variations
            self.weights = weights
            self.coverage = coverage
            self.condition = condition
            self.parentConditions = parentConditions
            self.namespace = namespace
            self.hashAttribute = hashAttribute
            self.fallbackAttribute = fallbackAttribute
            self.hashVersion = hashVersion
            self.seed = seed
            self.filters = filters
            self.ranges = ranges
            self.force = force
            self.active = active
            self.status = status
            self.meta = meta
            self.stickyBucketing = stickyBucketing
            self.bucketing = bucketing
        }

        func copy() -> Storage {
            Storage(
                key: key, variations: variations, weights: weights, coverage: coverage, condition: condition,
                parentConditions: parentConditions, namespace: namespace, hashAttribute: hashAttribute,
                fallbackAttribute: fallbackAttribute, hashVersion: hashVersion, seed: seed, filters: filters,
                ranges: ranges, force: force, active: active, status: status, meta: meta, stickyBucketing: stickyBucketing,
                bucketing: bucketing)
        }
    }

    private var storage: Storage

    /// The box, copied first if another value shares it.
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// The experiment's key (also the default hash seed).
    package var key: String {
        get { storage.key }
        set {
            unique().key = newValue
            refreshBucketing()
        }
    }
    /// The variations' values; index `i` is variation `i`.
    package var variations: [AttributeValue] {
        get { storage.variations }
        set {
            unique().variations = newValue
            refreshBucketing()
        }
    }
    /// Traffic split between variations; equal when absent or invalid.
    package var weights: [Double]? {
        get { storage.weights }
        set {
            unique().weights = newValue
            refreshBucketing()
        }
    }
    /// Share of users included, 0 to 1; 1 when absent.
    package var coverage: Double? {
        get { storage.coverage }
        set {
            unique().coverage = newValue
            refreshBucketing()
        }
    }
    /// Targeting condition on the user's attributes.
    package var condition: Condition? {
        get { storage.condition }
        set { unique().condition = newValue }
    }
    /// Prerequisite features that must hold for the user to be included.
    package var parentConditions: [ParentCondition]? {
        get { storage.parentConditions }
        set { unique().parentConditions = newValue }
    }
    /// Namespace slice; ignored when `filters` is set.
    package var namespace: Namespace? {
        get { storage.namespace }
        set { unique().namespace = newValue }
    }
    /// The attribute whose value is hashed; `id` when absent or empty.
    package var hashAttribute: String? {
        get { storage.hashAttribute }
        set {
            unique().hashAttribute = newValue
            refreshBucketing()
        }
    }
    /// A second attribute, hashed when `hashAttribute` is missing; GrowthBook consults it only
    /// when sticky bucketing is on (``AssignmentEngine/run(_:context:stickyBuckets:)``).
    package var fallbackAttribute: String? {
        get { storage.fallbackAttribute }
        set { unique().fallbackAttribute = newValue }
    }
    /// Hash algorithm version (1 or 2); 1 when absent or 0.
    package var hashVersion: Int? {
        get { storage.hashVersion }
        set {
            unique().hashVersion = newValue
            refreshBucketing()
        }
    }
    /// Hash seed; the key when absent or empty.
    package var seed: String? {
        get { storage.seed }
        set {
            unique().seed = newValue
            refreshBucketing()
        }
    }
    /// Hash-based filters that replace the namespace check.
    package var filters: [Filter]? {
        get { storage.filters }
        set { unique().filters = newValue }
    }
    /// Explicit bucket ranges, overriding `weights` and `coverage`.
    package var ranges: [BucketRange]? {
        get { storage.ranges }
        set {
            unique().ranges = newValue
            refreshBucketing()
        }
    }
    /// A variation every included user gets (reported with `hashUsed == false`).
    package var force: Int? {
        get { storage.force }
        set { unique().force = newValue }
    }
    /// Whether the experiment runs at all.
    package var active: Bool {
        get { storage.active }
        set { unique().active = newValue }
    }
    /// Life-cycle status.
    package var status: Status {
        get { storage.status }
        set { unique().status = newValue }
    }
    /// Bucket versions and the opt-out for sticky bucketing.
    package var stickyBucketing: StickyBucketing {
        get { storage.stickyBucketing }
        set { unique().stickyBucketing = newValue }
    }
    /// Per-variation metadata (keys and names).
    package var meta: [VariationMeta]? {
        get { storage.meta }
        set {
            unique().meta = newValue
            refreshBucketing()
        }
    }

    var bucketing: Bucketing { storage.bucketing }

    /// An experiment with GrowthBook's defaults for every field not given.
    package init(
        key: String,
        variations: [AttributeValue],
        weights: [Double]? = nil,
        coverage: Double? = nil,
        condition: AttributeValue? = nil,
        parentConditions: [ParentCondition]? = nil,
        namespace: Namespace? = nil,
        hashAttribute: String? = nil,
        fallbackAttribute: String? = nil,
        hashVersion: Int? = nil,
        seed: String? = nil,
        filters: [Filter]? = nil,
        ranges: [BucketRange]? = nil,
        force: Int? = nil,
        active: Bool = true,
        status: Status = .running,
        meta: [VariationMeta]? = nil,
        stickyBucketing: StickyBucketing = StickyBucketing()
    ) {
        storage = Storage(
            key: key, variations: variations, weights: weights, coverage: coverage,
            // GrowthBook skips a falsy condition (`experiment.condition && …`).
            condition: condition.flatMap { $0.isTruthy ? Condition(parsing: $0) : nil },
            parentConditions: parentConditions, namespace: namespace, hashAttribute: hashAttribute,
            fallbackAttribute: fallbackAttribute, hashVersion: hashVersion, seed: seed, filters: filters,
            ranges: ranges, force: force, active: active, status: status, meta: meta, stickyBucketing: stickyBucketing,
            bucketing: Bucketing(
                key: key, seed: seed, hashVersion: hashVersion, hashAttribute: hashAttribute,
                variations: variations, coverage: coverage, weights: weights, ranges: ranges, meta: meta))
    }

    /// An experiment whose variations are the numbers `0 ..< variationCount`.
    package init(key: String, variationCount: Int) {
        self.init(key: key, variations: (0..<max(variationCount, 0)).map { .number(Double($0)) })
    }

    /// How many variations the experiment has.
    package var variationCount: Int { storage.variations.count }

    private mutating func refreshBucketing() {
        let fields = unique()
        fields.bucketing = Bucketing(
            key: fields.key, seed: fields.seed, hashVersion: fields.hashVersion, hashAttribute: fields.hashAttribute,
            variations: fields.variations, coverage: fields.coverage, weights: fields.weights, ranges: fields.ranges,
            meta: fields.meta
        )
    }
}
