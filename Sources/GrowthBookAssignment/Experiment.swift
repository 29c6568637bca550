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

    /// The fields as set; ``Storage`` boxes them with their bucketing.
    private struct Fields: Sendable {
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
    }

    /// The fields and their bucketing in one immutable box shared by copies: a session's slot
    /// chooser passes each experiment to the engine, and a copy is then one reference instead
    /// of one per field. Immutable, so the engine reads the fields in place, counting no
    /// references; a setter boxes a changed copy.
    private final class Storage: Sendable {
        let fields: Fields
        let bucketing: Bucketing
        /// The namespace slice with its hash seed (`"__" + id`) prepared once rather than per user.
        let namespaceSlice: NamespaceSlice?

        /// Boxes `fields` with `bucketing`, worked out from them when `nil`.
        init(_ fields: Fields, bucketing: Bucketing? = nil) {
            self.fields = fields
            namespaceSlice = fields.namespace.map(NamespaceSlice.init)
            self.bucketing = bucketing ?? Bucketing(
                key: fields.key, seed: fields.seed, hashVersion: fields.hashVersion, hashAttribute: fields.hashAttribute,
                variations: fields.variations, coverage: fields.coverage, weights: fields.weights, ranges: fields.ranges,
                meta: fields.meta)
        }
    }

    private var storage: Storage

    /// Boxes the fields after `change`; `rebucket` when the change touches what bucketing uses.
    private mutating func update(rebucket: Bool, _ change: (inout Fields) -> Void) {
        var fields = storage.fields
        change(&fields)
        storage = Storage(fields, bucketing: rebucket ? nil : storage.bucketing)
    }

    /// The experiment's key (also the default hash seed).
    package var key: String {
        get { storage.fields.key }
        set { update(rebucket: true) { $0.key = newValue } }
    }
    /// The variations' values; index `i` is variation `i`.
    package var variations: [AttributeValue] {
        get { storage.fields.variations }
        set { update(rebucket: true) { $0.variations = newValue } }
    }
    /// Traffic split between variations; equal when absent or invalid.
    package var weights: [Double]? {
        get { storage.fields.weights }
        set { update(rebucket: true) { $0.weights = newValue } }
    }
    /// Share of users included, 0 to 1; 1 when absent.
    package var coverage: Double? {
        get { storage.fields.coverage }
        set { update(rebucket: true) { $0.coverage = newValue } }
    }
    /// Targeting condition on the user's attributes.
    package var condition: Condition? {
        get { storage.fields.condition }
        set { update(rebucket: false) { $0.condition = newValue } }
    }
    /// Prerequisite features that must hold for the user to be included.
    package var parentConditions: [ParentCondition]? {
        get { storage.fields.parentConditions }
        set { update(rebucket: false) { $0.parentConditions = newValue } }
    }
    /// Namespace slice; ignored when `filters` is set.
    package var namespace: Namespace? {
        get { storage.fields.namespace }
        set { update(rebucket: false) { $0.namespace = newValue } }
    }
    /// The attribute whose value is hashed; `id` when absent or empty.
    package var hashAttribute: String? {
        get { storage.fields.hashAttribute }
        set { update(rebucket: true) { $0.hashAttribute = newValue } }
    }
    /// A second attribute, hashed when `hashAttribute` is missing; GrowthBook consults it only
    /// when sticky bucketing is on (``AssignmentEngine/run(_:context:stickyBuckets:)``).
    package var fallbackAttribute: String? {
        get { storage.fields.fallbackAttribute }
        set { update(rebucket: false) { $0.fallbackAttribute = newValue } }
    }
    /// Hash algorithm version (1 or 2); 1 when absent or 0.
    package var hashVersion: Int? {
        get { storage.fields.hashVersion }
        set { update(rebucket: true) { $0.hashVersion = newValue } }
    }
    /// Hash seed; the key when absent or empty.
    package var seed: String? {
        get { storage.fields.seed }
        set { update(rebucket: true) { $0.seed = newValue } }
    }
    /// Hash-based filters that replace the namespace check.
    package var filters: [Filter]? {
        get { storage.fields.filters }
        set { update(rebucket: false) { $0.filters = newValue } }
    }
    /// Explicit bucket ranges, overriding `weights` and `coverage`.
    package var ranges: [BucketRange]? {
        get { storage.fields.ranges }
        set { update(rebucket: true) { $0.ranges = newValue } }
    }
    /// A variation every included user gets (reported with `hashUsed == false`).
    package var force: Int? {
        get { storage.fields.force }
        set { update(rebucket: false) { $0.force = newValue } }
    }
    /// Whether the experiment runs at all.
    package var active: Bool {
        get { storage.fields.active }
        set { update(rebucket: false) { $0.active = newValue } }
    }
    /// Life-cycle status.
    package var status: Status {
        get { storage.fields.status }
        set { update(rebucket: false) { $0.status = newValue } }
    }
    /// Bucket versions and the opt-out for sticky bucketing.
    package var stickyBucketing: StickyBucketing {
        get { storage.fields.stickyBucketing }
        set { update(rebucket: false) { $0.stickyBucketing = newValue } }
    }
    /// Per-variation metadata (keys and names).
    package var meta: [VariationMeta]? {
        get { storage.fields.meta }
        set { update(rebucket: true) { $0.meta = newValue } }
    }

    var bucketing: Bucketing { storage.bucketing }

    /// Whether `hashValue` falls in the experiment's namespace slice (true without a namespace),
    /// through the slice prepared with the experiment.
    @inline(__always)
    package func inNamespace(hashValue: String) -> Bool {
        inNamespace(hashValue: .text(hashValue))
    }

    /// The same for a hashed attribute's text.
    @inline(__always)
    func inNamespace(hashValue: HashText) -> Bool {
        guard let slice = storage.namespaceSlice else { return true }
        return slice.contains(hashValue)
    }

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
        storage = Storage(Fields(
            key: key, variations: variations, weights: weights, coverage: coverage,
            // GrowthBook skips a falsy condition (`experiment.condition && …`).
            condition: condition.flatMap { $0.isTruthy ? Condition(parsing: $0) : nil },
            parentConditions: parentConditions, namespace: namespace, hashAttribute: hashAttribute,
            fallbackAttribute: fallbackAttribute, hashVersion: hashVersion, seed: seed, filters: filters,
            ranges: ranges, force: force, active: active, status: status, meta: meta, stickyBucketing: stickyBucketing))
    }

    /// An experiment whose variations are the numbers `0 ..< variationCount`.
    package init(key: String, variationCount: Int) {
        self.init(key: key, variations: (0..<max(variationCount, 0)).map { .number(Double($0)) })
    }

    /// How many variations the experiment has.
    package var variationCount: Int { storage.fields.variations.count }
}

/// A namespace slice with its hash seed prepared: checking a user hashes no concatenated seed.
/// The one definition of GrowthBook's namespace rule (hash version 1, seed `"__" + id`, the
/// bucket in `[start, end)`).
struct NamespaceSlice: Sendable {
    private let seed: PreparedSeed
    private let start: Double
    private let end: Double

    init(_ namespace: Namespace) {
        seed = PreparedSeed("__" + namespace.id)
        start = namespace.start
        end = namespace.end
    }

    /// Whether `hashValue` falls in the slice.
    func contains(_ hashValue: String) -> Bool {
        contains(.text(hashValue))
    }

    /// The same for a hashed attribute's text.
    func contains(_ hashValue: HashText) -> Bool {
        guard let units = seed.bucketUnits(value: hashValue, version: 1) else { return false }
        let n = Double(units) / 1000
        return n >= start && n < end
    }
}
