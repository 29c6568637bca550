/// A compiled `evalConditionValue(condition, value)`: what one value must satisfy.
///
/// Each kind of operand is a final class with only immutable, `Sendable` fields (so the
/// compiler checks that it is `Sendable`); conditions hold them as `any ValueMatcher`.
protocol ValueMatcher: AnyObject, Sendable {
    /// Whether `value` satisfies the test; `nil` where JavaScript would throw.
    func evaluate(_ value: AttributeValue, groups: [String: AttributeValue]) -> Bool?
}

/// `value + "" === text`.
final class TextEquality: ValueMatcher {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    func evaluate(_ value: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        if case .string(let actual) = value {
            return JavaScript.sameCodeUnits(actual, text)
        }
        return JavaScript.sameCodeUnits(value.javaScriptString, text)
    }
}

/// `String(value).toLowerCase() === text.toLowerCase()`, for string elements of `$alli`.
final class CaseInsensitiveTextEquality: ValueMatcher {
    let lowered: String

    init(_ text: String) {
        lowered = text.lowercased()
    }

    func evaluate(_ value: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        JavaScript.sameCodeUnits(value.javaScriptString.lowercased(), lowered)
    }
}

/// `value * 1 === number`.
final class NumberEquality: ValueMatcher {
    let number: Double

    init(_ number: Double) {
        self.number = number
    }

    func evaluate(_ value: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        value.javaScriptNumber == number
    }
}

/// `value !== null && !!value === flag`.
final class BoolEquality: ValueMatcher {
    let flag: Bool

    init(_ flag: Bool) {
        self.flag = flag
    }

    func evaluate(_ value: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        !value.isNull && value.isTruthy == flag
    }
}

/// `value === null`; a missing attribute reads as null.
final class NullEquality: ValueMatcher {
    func evaluate(_ value: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        value.isNull
    }
}

/// `JSON.stringify(value) === JSON.stringify(expected)`, for array and plain-object operands.
final class JSONEquality: ValueMatcher {
    let expected: AttributeValue

    init(_ expected: AttributeValue) {
        self.expected = expected
    }

    func evaluate(_ value: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        value.hasSameJSON(as: expected)
    }
}

/// An operator object such as `{"$gt": 5, "$lt": 10}`: every operator must pass. Its keys have
/// no order here, so a failing operator decides even where another would throw.
final class OperatorConjunction: ValueMatcher {
    let operators: [any OperatorMatcher]

    init(_ operators: [any OperatorMatcher]) {
        self.operators = operators
    }

    func evaluate(_ value: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        // Walked through the array's buffer, so each operator is borrowed rather than retained.
        unsafe operators.withUnsafeBufferPointer { tests in
            var faulted = false
            for index in tests.indices {
                guard let result = unsafe tests[index].evaluate(value, groups: groups) else {
                    faulted = true
                    continue
                }
                if !result { return false }
            }
            return faulted ? nil : true
        }
    }
}
