/// The rule of GrowthBook's assignment procedure that decided a result.
package enum AssignmentReason: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// The experiment has fewer than two variations.
    case fewerThanTwoVariations
    /// The context is disabled.
    case contextDisabled
    /// The URL's query string named a variation.
    case forcedByQueryString
    /// The context forced a variation (QA forcing).
    case forcedByContext
    /// The experiment is a draft.
    case draft
    /// The experiment is not active.
    case inactive
    /// The hash attribute is missing or empty.
    case missingHashAttribute
    /// A hash filter excluded the user.
    case filtered
    /// The user's hash is outside the experiment's namespace slice.
    case namespace
    /// The targeting condition did not pass.
    case condition
    /// A prerequisite feature's condition did not pass.
    case parentCondition
    /// The experiment names a hash version that does not exist.
    case invalidHashVersion
    /// The user's hash fell outside every variation's range (coverage below 1, or ranges with gaps).
    case coverage
    /// The experiment forces a variation.
    case forcedByExperiment
    /// QA mode keeps users out unless forced.
    case qaMode
    /// The experiment is stopped.
    case stopped
    /// The user was bucketed into a variation by hash.
    case assigned
    /// The user kept the variation stored in their sticky bucket.
    case stickyBucket
    /// The user's stored sticky bucket is older than the experiment's `minBucketVersion`.
    case stickyBucketBlocked

    /// A sentence a person can read.
    package var description: String {
        switch self {
        case .fewerThanTwoVariations: return "not in experiment: it has fewer than two variations"
        case .contextDisabled: return "not in experiment: experiments are disabled for this context"
        case .forcedByQueryString: return "variation forced by the URL's query string"
        case .forcedByContext: return "variation forced by the context (QA forcing)"
        case .draft: return "not in experiment: it is a draft"
        case .inactive: return "not in experiment: it is inactive"
        case .missingHashAttribute: return "not in experiment: the hash attribute is missing or empty"
        case .filtered: return "not in experiment: excluded by a hash filter"
        case .namespace: return "not in experiment: outside the experiment's namespace slice"
        case .condition: return "not in experiment: the targeting condition did not pass"
        case .parentCondition: return "not in experiment: a prerequisite feature's condition did not pass"
        case .invalidHashVersion: return "not in experiment: the hash version is unknown"
        case .coverage: return "not in experiment: the user's bucket is outside every variation's range"
        case .forcedByExperiment: return "variation forced by the experiment definition"
        case .qaMode: return "not in experiment: QA mode is on and no variation was forced"
        case .stopped: return "not in experiment: it is stopped"
        case .assigned: return "assigned to a variation by hash"
        case .stickyBucket: return "kept the variation stored in the user's sticky bucket"
        case .stickyBucketBlocked:
            return "not in experiment: the user's sticky bucket is from a bucket version below minBucketVersion"
        }
    }
}

/// The outcome of running one experiment for one context, mirroring GrowthBook's `Result`.
///
/// What depends only on the experiment and the variation index (keys, value, metadata) is
/// shared through one `VariationReport`. Reports are mostly interned, living as long as the
/// process: then a result refers to its report without counting a reference (an atomic
/// increment and decrement per result, a third of an assignment's time).
///
/// Invariant (why `@safe`): `unmanagedReport` is either interned (`VariationReport.isInterned`:
/// the intern table holds it for the life of the process) or also held strongly by `owned`, so it
/// is alive whenever this result is.
@safe package struct AssignmentResult: Sendable, Equatable {
    /// The report, alive as long as the process when interned, else as long as `owned`.
    private let unmanagedReport: Unmanaged<VariationReport>
    /// A report that is not interned and a fallback hash attribute, when there is either; nil
    /// (the usual case) leaves one reference to release when a result goes.
    private let owned: OwnedParts?
    /// Whether the user takes part (and should be tracked).
    package let inExperiment: Bool
    /// Whether the variation came from hashing (false when forced or excluded).
    package let hashUsed: Bool
    /// The rule that decided this result.
    package let reason: AssignmentReason
    /// Whether a stored sticky bucket decided (or, when blocked by version, excluded) the user.
    package let stickyBucketUsed: Bool
    /// The variation's index; 0 when not in the experiment.
    package let variationId: Int
    /// The hashed attribute's value as text; empty when it is missing.
    package var hashValue: String { hashText.string }
    /// `hashValue`, inline when it is short ASCII: then a result holds no reference but `owned`.
    package let hashText: HashText
    /// The bucket as a count of units (low half, -1 for none) of 1/scale (high half), divided only
    /// when asked for. One word, written with one store: two 32-bit fields, stored apart and read
    /// back together when the result is copied, stalled the copy (store forwarding fails).
    private let bucketBits: UInt64

    /// A result reporting `unmanagedReport`, the report of variation `variationIndex`, which is
    /// interned when `isInterned` (passed in, as reading them from the report counted a reference).
    init(
        report unmanagedReport: Unmanaged<VariationReport>, variationIndex: Int, isInterned: Bool,
        inExperiment: Bool, hashUsed: Bool, hashValue: HashText,
        bucketUnits: Int, bucketScale: Int, reason: AssignmentReason, stickyBucketUsed: Bool = false,
        fallbackHashAttribute: String? = nil
    ) {
        unsafe self.unmanagedReport = unsafe unmanagedReport
        owned = unsafe isInterned && fallbackHashAttribute == nil
            ? nil
            : OwnedParts(report: isInterned ? nil : unmanagedReport.takeUnretainedValue(),
                         fallbackHashAttribute: fallbackHashAttribute)
        variationId = variationIndex
        self.stickyBucketUsed = stickyBucketUsed
        self.inExperiment = inExperiment
        self.hashUsed = hashUsed
        self.reason = reason
        hashText = hashValue
        bucketBits = UInt64(UInt32(truncatingIfNeeded: bucketUnits)) | UInt64(UInt32(truncatingIfNeeded: bucketScale)) << 32
    }

    /// The report, read without counting a reference.
    @inline(__always)
    private var report: VariationReport { unsafe unmanagedReport.takeUnretainedValue() }

    /// The user's hash in [0, 1), present only when assigned by hash.
    package var bucket: Double? {
        let units = Int32(truncatingIfNeeded: bucketBits), scale = Int32(truncatingIfNeeded: bucketBits >> 32)
        return units < 0 ? nil : Double(units) / Double(scale)
    }

    /// The experiment's key.
    package var experimentKey: String { report.fields.experimentKey }
    /// The variation's value; the first variation's when not in the experiment.
    package var value: AttributeValue { report.fields.value }
    /// The attribute that was (or would have been) hashed.
    package var hashAttribute: String { owned?.fallbackHashAttribute ?? report.fields.hashAttribute }
    /// The variation's key: its metadata key, else its index as text.
    package var key: String { report.fields.key }
    /// The variation's name from its metadata, if any.
    package var name: String? { report.fields.name }
    /// Whether the variation's metadata marks it as passthrough.
    package var passthrough: Bool { report.fields.passthrough }

    /// Equal when every reported field is.
    package static func == (left: AssignmentResult, right: AssignmentResult) -> Bool {
        left.experimentKey == right.experimentKey && left.inExperiment == right.inExperiment
            && left.hashUsed == right.hashUsed && left.variationId == right.variationId
            && left.value == right.value
            && left.hashAttribute == right.hashAttribute && left.hashValue == right.hashValue
            && left.bucket == right.bucket && left.key == right.key && left.name == right.name
            && left.passthrough == right.passthrough && left.reason == right.reason
            && left.stickyBucketUsed == right.stickyBucketUsed
    }
}

/// What a result owns besides its report reference: a report that is not interned, and the
/// fallback attribute when sticky bucketing hashed it instead of the hash attribute.
private final class OwnedParts: Sendable {
    let report: VariationReport?
    let fallbackHashAttribute: String?

    init(report: VariationReport?, fallbackHashAttribute: String?) {
        self.report = report
        self.fallbackHashAttribute = fallbackHashAttribute
    }
}
