import RemixKit

/// Fills slots with features named up front (`--slot insertion=AutoGroupInsertion`), for trying a
/// feature by hand; other slots keep their defaults.
public final class FixedSlotChooser: SlotChooser {
    private let fillers: [String: String]

    /// Makes a chooser from slot → feature names.
    public init(fillers: [String: String]) {
        self.fillers = fillers
    }

    /// Parses `SLOT=FEATURE` specs, checking each against `app` in `registry`.
    public init(specs: [String], app: String, registry: FeatureRegistry) throws {
        var fillers: [String: String] = [:]
        for spec in specs {
            let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw SlotSpecError(spec: spec)
            }
            _ = try registry.filler(named: parts[1], for: registry.slot(parts[0], of: app), of: app)
            fillers[parts[0]] = parts[1]
        }
        self.fillers = fillers
    }

    public func choose(slot: SlotDefinition, app: AppDefinition) -> SlotAssignment? {
        fillers[slot.name].map { SlotAssignment(feature: $0) }
    }
}

/// A `--slot` value that is not `SLOT=FEATURE`.
public struct SlotSpecError: Error, CustomStringConvertible {
    /// The value as given.
    public let spec: String

    public var description: String {
        "'\(spec)' is not SLOT=FEATURE (e.g. insertion=AutoGroupInsertion)"
    }
}
