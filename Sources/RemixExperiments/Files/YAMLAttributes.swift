import RemixKit
import RemixYAML

extension YAMLValue {
    /// The node as a JSON-like attribute value: plain scalars are typed as YAML resolves them
    /// (null, bool, number), quoted scalars stay strings.
    package func attributeValue() throws(Diagnostic) -> AttributeValue {
        switch node {
        case .scalar(let scalar):
            guard scalar.style == .plain else { return .string(scalar.string) }
            if node.null != nil { return .null }
            if let bool = Self.coreBool(scalar.string) { return .bool(bool) }
            if let int = node.int { return .number(Double(int)) }
            if let double = node.float { return .number(double) }
            return .string(scalar.string)
        case .sequence:
            var items: [AttributeValue] = []
            for item in try sequence() { items.append(try item.attributeValue()) }
            return .array(items)
        case .mapping:
            var object: [String: AttributeValue] = [:]
            for entry in try mapping().entries { object[entry.key] = try entry.value.attributeValue() }
            return .object(object)
        case .alias:
            throw Diagnostic(location, .error, "aliases are not supported here")
        }
    }

    /// YAML 1.2's booleans only: `true`/`false` in any of three cases. YAML 1.1's `yes`, `no`,
    /// `on`, `off` stay text, so a country code such as `NO` keeps its meaning, as in JSON.
    static func coreBool(_ text: String) -> Bool? {
        switch text {
        case "true", "True", "TRUE": true
        case "false", "False", "FALSE": false
        default: nil
        }
    }

    /// The node as a feature parameter value (bool, int, double or string).
    package func parameterValue() throws(Diagnostic) -> ParameterValue {
        guard let scalar = node.scalar else {
            throw Diagnostic(location, .error, "a parameter value must be a bool, number or text, not \(kind)")
        }
        guard scalar.style == .plain else { return .string(scalar.string) }
        if let bool = Self.coreBool(scalar.string) { return .bool(bool) }
        if let int = Int(scalar.string) { return .int(int) }
        if let double = node.float { return .double(double) }
        return .string(scalar.string)
    }
}
