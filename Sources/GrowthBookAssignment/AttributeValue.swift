/// A JSON-like value: a user attribute, a condition operand, or a variation's value.
///
/// Objects are dictionaries, so the order of their keys never matters.
package enum AttributeValue: Sendable, Equatable, Hashable {
    /// JSON `null`; also what a missing attribute reads as.
    case null
    /// A JSON boolean.
    case bool(Bool)
    /// A JSON number (JavaScript numbers are doubles too).
    case number(Double)
    /// A JSON string.
    case string(String)
    /// A JSON array.
    case array([AttributeValue])
    /// A JSON object.
    case object([String: AttributeValue])
}

extension AttributeValue {
    /// The string, when this is a string.
    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, when this is a number.
    package var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The boolean, when this is a boolean.
    package var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    package var arrayValue: [AttributeValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, when this is an object.
    package var objectValue: [String: AttributeValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is `null`.
    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The member named `key` when this is an object; `nil` otherwise or when absent.
    package subscript(key: String) -> AttributeValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }
}

extension AttributeValue: ExpressibleByNilLiteral {
    /// `nil` is JSON `null`.
    package init(nilLiteral: ()) {
        self = .null
    }
}

extension AttributeValue: ExpressibleByBooleanLiteral {
    /// A boolean literal.
    package init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension AttributeValue: ExpressibleByIntegerLiteral {
    /// An integer literal, stored as a double like every JavaScript number.
    package init(integerLiteral value: Int) {
        self = .number(Double(value))
    }
}

extension AttributeValue: ExpressibleByFloatLiteral {
    /// A floating-point literal.
    package init(floatLiteral value: Double) {
        self = .number(value)
    }
}

extension AttributeValue: ExpressibleByStringLiteral {
    /// A string literal.
    package init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension AttributeValue: ExpressibleByArrayLiteral {
    /// An array literal.
    package init(arrayLiteral elements: AttributeValue...) {
        self = .array(elements)
    }
}

extension AttributeValue: ExpressibleByDictionaryLiteral {
    /// An object literal; a repeated key keeps its last value, as in JSON.
    package init(dictionaryLiteral elements: (String, AttributeValue)...) {
        var members: [String: AttributeValue] = [:]
        members.reserveCapacity(elements.count)
        for (key, value) in elements {
            members[key] = value
        }
        self = .object(members)
    }
}

/// An attribute: a name and its value (an item of ``AssignmentContext/init(attributeList:savedGroups:)``).
package struct Attribute: Sendable, Equatable {
    /// The attribute's name.
    package var name: String
    /// Its value.
    package var value: AttributeValue

    /// An attribute named `name` with `value`.
    package init(_ name: String, _ value: AttributeValue) {
        self.name = name
        self.value = value
    }
}
