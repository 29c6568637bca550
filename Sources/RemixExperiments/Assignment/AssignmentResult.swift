/// The rule of GrowthBook's assignment procedure that decided a result.
public enum AssignmentReason: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
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

    /// A sentence a person can read.
    public var description: String {
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
        }
    }
}

/// The outcome of running one experiment for one context, mirroring GrowthBook's `Result`.
public struct AssignmentResult: Sendable, Equatable {
    /// The experiment's key.
    public let experimentKey: String
    /// Whether the user takes part (and should be tracked).
    public let inExperiment: Bool
    /// Whether the variation came from hashing (false when forced or excluded).
    public let hashUsed: Bool
    /// The variation's index; 0 when not in the experiment.
    public let variationId: Int
    /// The variation's value; the first variation's when not in the experiment.
    public let value: AttributeValue
    /// The attribute that was (or would have been) hashed.
    public let hashAttribute: String
    /// That attribute's value as text; empty when it is missing.
    public let hashValue: String
    /// The user's hash in [0, 1), present only when assigned by hash.
    public let bucket: Double?
    /// The variation's key: its metadata key, else its index as text.
    public let key: String
    /// The variation's name from its metadata, if any.
    public let name: String?
    /// Whether the variation's metadata marks it as passthrough.
    public let passthrough: Bool
    /// The rule that decided this result.
    public let reason: AssignmentReason
}
