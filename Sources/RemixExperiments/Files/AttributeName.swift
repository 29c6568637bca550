import RemixKit
import RemixYAML

/// A session attribute that an experiment file or a slot rules file names, and where: a
/// condition's key, `hashAttribute`, `fallbackAttribute` or a filter's `attribute`.
package struct AttributeName: Sendable, Equatable {
    /// What the file does with the attribute.
    package enum Use: Sendable, Equatable {
        case condition, hash, fallback, filter
    }

    /// The attribute (the first part of a dotted path such as `address.city`).
    package var name: String
    /// Where it is written.
    package var location: SourceLocation
    package var use: Use

    /// The attributes `fields` — an experiment file or a rule — names in its `condition`,
    /// `hashAttribute`, `fallbackAttribute` and `filters`, in the order written.
    static func named(in fields: YAMLMapping) -> [AttributeName] {
        var names = fields["condition"].map(inCondition) ?? []
        for (key, use) in [("hashAttribute", Use.hash), ("fallbackAttribute", .fallback)] {
            if let value = fields[key], let name = try? value.string() { names.append(AttributeName(name: name, location: value.location, use: use)) }
        }
        for filter in (try? fields["filters"]?.sequence()) ?? [] {
            if let value = (try? filter.mapping())?["attribute"], let name = try? value.string() {
                names.append(AttributeName(name: name, location: value.location, use: .filter))
            }
        }
        return names
    }

    /// The attributes a condition tests: its keys that are no operator, under `$and`, `$or`,
    /// `$nor` and `$not` too. What an attribute's own operators hold (`$elemMatch`'s fields) are
    /// not attributes.
    static func inCondition(_ value: YAMLValue) -> [AttributeName] {
        guard let mapping = try? value.mapping() else { return [] }
        var names: [AttributeName] = []
        for entry in mapping.entries {
            switch entry.key {
            case "$and", "$or", "$nor": for item in (try? entry.value.sequence()) ?? [] { names += inCondition(item) }
            case "$not": names += inCondition(entry.value)
            case let key where key.hasPrefix("$"): continue
            default:
                let name = String(entry.key.prefix { $0 != "." })
                if !name.isEmpty { names.append(AttributeName(name: name, location: entry.keyLocation, use: .condition)) }
            }
        }
        return names
    }
}
