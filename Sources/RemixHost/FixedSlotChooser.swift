import RemixKit

extension FixedSlotChooser {
    /// Parses `SLOT=FEATURE` specs (`--slot`), checking each against `app` in `registry`.
    package convenience init(specs: [String], app: String, registry: FeatureRegistry) throws {
        var fillers: [String: String] = [:]
        for spec in specs {
            let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw SlotSpecError(spec: spec)
            }
            _ = try registry.filler(named: parts[1], for: registry.slot(parts[0], of: app), of: app)
            fillers[parts[0]] = parts[1]
        }
        self.init(fillers: fillers)
    }
}

/// A `--slot` value that is not `SLOT=FEATURE`.
package struct SlotSpecError: Error, CustomStringConvertible {
    /// The value as given.
    package let spec: String

    package var description: String {
        "'\(spec)' is not SLOT=FEATURE (e.g. insertion=AutoGroupInsertion)"
    }
}
