import RemixKit

/// The text of `remix features`: modules with their features, then apps with their slots.
package struct FeatureListing {
    private let registry: FeatureRegistry

    /// Makes the listing of `registry`.
    package init(registry: FeatureRegistry) {
        self.registry = registry
    }

    /// The listing as lines of text.
    package var text: String {
        var lines: [String] = []
        let features = registry.features
        let apps = registry.apps
        lines.append("Modules")
        for module in registry.modules {
            lines.append("  \(module.name) (\(module.origin)) — \(module.summary)")
            for feature in features where feature.module == module.name {
                let role = feature.role.map { " [\($0)]" } ?? ""
                lines.append("    \(feature.name)\(role) — \(feature.summary)")
                for parameter in feature.parameters {
                    lines.append("      param \(parameter.name): \(parameter.type) = \(parameter.defaultValue) — \(parameter.summary)")
                }
                for event in feature.events {
                    lines.append("      emits \(event.name)" + (event.fields.isEmpty ? "" : " (\(event.fields.joined(separator: ", ")))"))
                }
            }
        }
        lines.append("")
        lines.append("Apps")
        for app in apps {
            lines.append("  \(app.name) (\(app.module)) — \(app.summary)")
            lines.append("    platforms: \(app.platforms.joined(separator: ", "))")
            lines.append("    attributes: \(app.attributes.joined(separator: ", "))")
            for slot in app.slots {
                let fillers = registry.fillers(role: slot.role)
                lines.append("    slot \(slot.name) [\(slot.role)] default \(slot.defaultFeature) — \(slot.summary)")
                lines.append("      can be filled by: \(fillers.joined(separator: ", "))")
            }
            for parameter in app.serviceParameters {
                lines.append("    service \(parameter.name): \(parameter.kind.rawValue) = \(parameter.defaultText) — \(parameter.summary)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
