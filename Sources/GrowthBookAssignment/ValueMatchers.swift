/// A compiled `evalConditionValue(condition, value)`: what one value must satisfy.
///
/// Each kind of operand is a subclass that overrides `evaluate`; all of them are immutable,
/// which is why the unchecked `Sendable` holds.
class ValueMatcher: @unchecked Sendable {
    /// Whether `value` satisfies the test; `nil` where JavaScript would throw. Subclasses
    /// override this; the base class is never instantiated.
    func evaluate(_ value: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        nil
    }
}

/// `value + "" === text`.
final class TextEquality: ValueMatcher, @unchecked Sendable {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    override func evaluate(_ value: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        if case .string(let actual) = value {
            return JavaScript.sameCodeUnits(actual, text)
        }
        return JavaScript.sameCodeUnits(value.javaScriptString, text)
    }
}

/// `String(value).toLowerCase() === text.toLowerCase()`, for string elements of `$alli`.
final class CaseInsensitiveTextEquality: ValueMatcher, @unchecked Sendable {
    let lowered: String

    init(_ text: String) {
        lowered = text.lowercased()
    }

    override func evaluate(_ value: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        JavaScript.sameCodeUnits(value.javaScriptString.lowercased(), lowered)
    }
}

/// `value * 1 === number`.
final class NumberEquality: ValueMatcher, @unchecked Sendable {
    let number: Double

    init(_ number: Double) {
        self.number = number
    }

    override func evaluate(_ value: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        value.javaScriptNumber == number
    }
}

/// `value !== null && !!value === flag`.
final class BoolEquality: ValueMatcher, @unchecked Sendable {
    let flag: Bool

    init(_ flag: Bool) {
        self.flag = flag
    }

    override func evaluate(_ value: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        !value.isNull && value.isTruthy == flag
    }
}

/// `value === null`; a missing attribute reads as null.
final class NullEquality: ValueMatcher, @unchecked Sendable {
    override func evaluate(_ value: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        value.isNull
    }
}

/// `JSON.stringify(value) === JSON.stringify(expected)`, for array and plain-object operands.
final class JSONEquality: ValueMatcher, @unchecked Sendable {
    let expected: AttributeValue

    init(_ expected: AttributeValue) {
        self.expected = expected
    }

    override func evaluate(_ value: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        value.hasSameJSON(as: expected)
    }
}

/// An operator object such as `{"$gt": 5, "$lt": 10}`: every operator must pass. Its keys have
/// no order here, so a failing operator decides even where another would throw.
final class OperatorConjunction: ValueMatcher, @unchecked Sendable {
    let operators: ChildList<OperatorMatcher>

    init(_ operators: [OperatorMatcher]) {
        self.operators = ChildList(operators)
    }

    override func evaluate(_ value: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        operators.passAll { test in test.evaluate(value, groups: groups) }
    }
}
