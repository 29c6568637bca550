/// A domain event a feature can emit, declared with the feature so that tools know which events
/// exist: `remix features` lists them and `remix validate` checks every metric's event against them.
public struct DomainEventSpec: Sendable, Equatable {
    /// The event's name in the log, e.g. `advert_published`.
    public let name: String
    /// The fields it carries besides the common ones (`ts`, `type`, `session`, `user`).
    public let fields: [String]

    /// Declares an event and its fields.
    public init(_ name: String, fields: [String] = []) {
        self.name = name
        self.fields = fields
    }

    /// The events every session's host writes, whatever the app: the run record, the session's
    /// start and end, screen transitions and exposures.
    public static let host: [DomainEventSpec] = [
        DomainEventSpec("run", fields: ["version", "app", "seed", "users", "shard", "userIndices", "sources"]),
        DomainEventSpec("session_started", fields: ["app", "persona", "visit", "attributes"]),
        DomainEventSpec("session_ended", fields: ["outcome", "intent", "screen", "durationMs", "steps"]),
        DomainEventSpec("screen", fields: ["transition", "screen", "stack"]),
        DomainEventSpec("exposure", fields: ["experiment", "variation", "variationId", "feature", "app", "slot",
                                             "bucket", "hashUsed", "inExperiment"]),
    ]
}

extension FeatureRegistry {
    /// Every event the registered features declare, plus the host's, by name (first declaration wins).
    public var declaredEvents: [DomainEventSpec] {
        var seen = Set<String>()
        return (DomainEventSpec.host + features.flatMap(\.events)).filter { seen.insert($0.name).inserted }
    }
}
