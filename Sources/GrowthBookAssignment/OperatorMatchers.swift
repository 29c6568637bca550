/// One compiled operator of an operator object (`$gt`, `$in`, `$vgte`, …).
///
/// Each operator is a final class with only immutable, `Sendable` fields (so the compiler checks
/// that it is `Sendable`); an operator object holds them as `any OperatorMatcher`.
protocol OperatorMatcher: AnyObject, Sendable {
    /// Whether `actual` satisfies the test; `nil` where JavaScript would throw.
    func evaluate(_ actual: AttributeValue, groups: [String: AttributeValue]) -> Bool?
}

/// Decided when compiling: unknown operators and ill-typed operands are false.
final class ConstantOperator: OperatorMatcher {
    let result: Bool

    init(_ result: Bool) {
        self.result = result
    }

    func evaluate(_ actual: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        result
    }
}

/// `$veq $vne $vgt $vgte $vlt $vlte`, comparing padded version strings.
final class VersionOperator: OperatorMatcher {
    let comparison: PaddedVersion.Comparison
    let expected: [UInt16]

    init(_ comparison: PaddedVersion.Comparison, operand: AttributeValue) {
        self.comparison = comparison
        expected = PaddedVersion.units(of: operand)
    }

    func evaluate(_ actual: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        let ordering = unsafe expected.withUnsafeBufferPointer { unsafe PaddedVersion.compare(actual, to: $0) }
        return comparison.holds(ordering: ordering)
    }
}

/// `$eq` (or `$ne` when negated): JavaScript `===`.
final class StrictEqualityOperator: OperatorMatcher {
    let operand: AttributeValue
    let negated: Bool

    init(_ operand: AttributeValue, negated: Bool) {
        self.operand = operand
        self.negated = negated
    }

    func evaluate(_ actual: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        actual.isStrictlyEqual(to: operand) != negated
    }
}

/// The four ordering operators.
enum Relation: Sendable {
    case less, lessOrEqual, greater, greaterOrEqual
}

/// `$lt $lte $gt $gte` with JavaScript's mixed-type comparison (`"8" > 5` holds).
final class RelationalOperator: OperatorMatcher {
    let relation: Relation
    let operand: JavaScriptPrimitive

    init(_ relation: Relation, operand: AttributeValue) {
        self.relation = relation
        self.operand = operand.primitive
    }

    func evaluate(_ actual: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        let value = actual.primitive
        // `a <= b` is `!(b < a)` and `a >= b` is `!(a < b)`, except that an undefined
        // comparison (NaN on either side) makes all four false.
        switch relation {
        case .less: return JavaScript.lessThan(value, operand) == true
        case .lessOrEqual: return JavaScript.lessThan(operand, value) == false
        case .greater: return JavaScript.lessThan(operand, value) == true
        case .greaterOrEqual: return JavaScript.lessThan(value, operand) == false
        }
    }
}

/// `$exists`: whether the value is (or is not) non-null.
final class ExistsOperator: OperatorMatcher {
    let wanted: Bool

    init(_ wanted: Bool) {
        self.wanted = wanted
    }

    func evaluate(_ actual: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        wanted ? !actual.isNull : actual.isNull
    }
}

/// `$in $nin $ini $nini`: membership, intersecting when the attribute is an array.
final class MembershipOperator: OperatorMatcher {
    let list: MembershipList
    let negated: Bool

    init(_ list: MembershipList, negated: Bool) {
        self.list = list
        self.negated = negated
    }

    func evaluate(_ actual: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        list.matches(actual) != negated
    }
}

/// `$inGroup $notInGroup`: membership in a saved group, looked up when evaluating.
final class SavedGroupOperator: OperatorMatcher {
    let groupID: String
    let negated: Bool

    init(groupID: String, negated: Bool) {
        self.groupID = groupID
        self.negated = negated
    }

    func evaluate(_ actual: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        Self.includes(groups[groupID], actual).map { $0 != negated }
    }

    /// `isIn(actual, savedGroups[id] || [])`: a missing or falsy group is empty, an array is
    /// searched with `includes`, a string with substring `includes`, and anything else has no
    /// `includes` method, so JavaScript throws.
    private static func includes(_ group: AttributeValue?, _ actual: AttributeValue) -> Bool? {
        guard let group, group.isTruthy else { return false }
        let candidates: [AttributeValue]
        if case .array(let elements) = actual {
            candidates = elements
        } else {
            candidates = [actual]
        }
        switch group {
        case .array(let members):
            return candidates.contains { candidate in
                members.contains { $0.isSameValueZero(candidate) }
            }
        case .string(let text):
            return candidates.contains { text.contains($0.javaScriptString) }
        default:
            return nil
        }
    }
}

/// `$not` at value level.
final class NotOperator: OperatorMatcher {
    let test: ValueMatcher

    init(_ test: ValueMatcher) {
        self.test = test
    }

    func evaluate(_ actual: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        test.evaluate(actual, groups: groups).map { !$0 }
    }
}

/// `$size`: the array's length must satisfy the test.
final class SizeOperator: OperatorMatcher {
    let test: ValueMatcher

    init(_ test: ValueMatcher) {
        self.test = test
    }

    func evaluate(_ actual: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        guard case .array(let elements) = actual else { return false }
        return test.evaluate(.number(Double(elements.count)), groups: groups)
    }
}

/// `$elemMatch`: some truthy element satisfies an operator object (applied to the element as
/// a value) or a condition (applied to the element as the tested object).
final class ElementMatchOperator: OperatorMatcher {
    let valueTest: ValueMatcher?
    let condition: ConditionNode?

    /// `nil` for both stands for a `null` operand, on which JavaScript throws.
    init(valueTest: ValueMatcher?, condition: ConditionNode?) {
        self.valueTest = valueTest
        self.condition = condition
    }

    func evaluate(_ actual: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        guard case .array(let elements) = actual else { return false }
        // JavaScript inspects the operand before looking at any element.
        guard valueTest != nil || condition != nil else { return nil }
        for element in elements where element.isTruthy {
            let result: Bool?
            if let valueTest {
                result = valueTest.evaluate(element, groups: groups)
            } else {
                result = condition?.evaluate(element, groups: groups)
            }
            guard let result else { return nil }
            if result { return true }
        }
        return false
    }
}

/// `$all` / `$alli`: every test must be met by some element.
final class ContainsAllOperator: OperatorMatcher {
    let tests: [ValueMatcher]

    init(_ tests: [ValueMatcher]) {
        self.tests = tests
    }

    func evaluate(_ actual: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        guard case .array(let elements) = actual else { return false }
        for test in tests {
            var found = false
            for element in elements {
                guard let result = test.evaluate(element, groups: groups) else { return nil }
                if result {
                    found = true
                    break
                }
            }
            if !found { return false }
        }
        return true
    }
}

/// `$regex` / `$regexi`, matched against `String(value)`.
final class RegexOperator: OperatorMatcher {
    let regex: JavaScriptRegex

    init(_ regex: JavaScriptRegex) {
        self.regex = regex
    }

    /// A test that gives up on the step budget fails the whole condition (as a JavaScript throw
    /// would) and is recorded for ``RegexBudget/takeWarnings(of:)``.
    func evaluate(_ actual: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        let text: String
        if case .string(let string) = actual { text = string } else { text = actual.javaScriptString }
        guard let result = regex.test(text) else {
            RegexBudget.noteGivingUp(regex.pattern, caseInsensitive: regex.caseInsensitive, on: text)
            return nil
        }
        return result
    }
}

/// `$type`: GrowthBook's type name of the value.
final class TypeOperator: OperatorMatcher {
    let name: String

    init(_ name: String) {
        self.name = name
    }

    func evaluate(_ actual: AttributeValue, groups: [String: AttributeValue]) -> Bool? {
        actual.typeName == name
    }
}
