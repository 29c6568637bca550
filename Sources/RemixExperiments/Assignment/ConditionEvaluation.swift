/// Evaluation of compiled conditions against attribute values, following GrowthBook's
/// `mongrule.ts` operator by operator.
extension ConditionNode {
    borrowing func evaluate<Tested: TestedObject>(
        _ tested: Tested,
        groups: [String: AttributeValue]
    ) throws(ConditionFault) -> Bool {
        switch self {
        case .constant(let result):
            return result
        case .fault:
            throw ConditionFault()
        case .all(let nodes):
            for node in nodes {
                if try !node.evaluate(tested, groups: groups) { return false }
            }
            return true
        case .any(let nodes):
            for node in nodes {
                if try node.evaluate(tested, groups: groups) { return true }
            }
            return false
        case .none(let nodes):
            for node in nodes {
                if try node.evaluate(tested, groups: groups) { return false }
            }
            return true
        case .not(let node):
            return try !node.evaluate(tested, groups: groups)
        case .field(let path, let test):
            return try test.evaluate(path.resolve(in: tested), groups: groups)
        }
    }
}

extension ValueTest {
    borrowing func evaluate(_ value: AttributeValue, groups: [String: AttributeValue]) throws(ConditionFault) -> Bool {
        switch self {
        case .equalsText(let text):
            if case .string(let actual) = value {
                return JavaScript.sameCodeUnits(actual, text)
            }
            return JavaScript.sameCodeUnits(value.javaScriptString, text)
        case .equalsTextIgnoringCase(let lowered):
            return JavaScript.sameCodeUnits(value.javaScriptString.lowercased(), lowered)
        case .equalsNumber(let number):
            return value.javaScriptNumber == number
        case .equalsBool(let flag):
            return !value.isNull && value.isTruthy == flag
        case .isNull:
            return value.isNull
        case .sameJSON(let expected):
            return value.hasSameJSON(as: expected)
        case .operators(let tests):
            for test in tests {
                if try !test.evaluate(value, groups: groups) { return false }
            }
            return true
        }
    }
}

extension OperatorTest {
    borrowing func evaluate(_ actual: AttributeValue, groups: [String: AttributeValue]) throws(ConditionFault) -> Bool {
        switch self {
        case .constant(let result):
            return result
        case .version(let comparison, let expected):
            return comparison.holds(ordering: PaddedVersion.compare(actual, to: expected))
        case .strictEqual(let expected, let negated):
            return actual.isStrictlyEqual(to: expected) != negated
        case .relational(let relation, let expected):
            return Self.relationHolds(relation, actual.primitive, expected)
        case .exists(let wanted):
            return wanted ? !actual.isNull : actual.isNull
        case .member(let list, let negated):
            return list.matches(actual) != negated
        case .inSavedGroup(let groupID, let negated):
            return try Self.savedGroupIncludes(groups[groupID], actual) != negated
        case .not(let test):
            return try !test.evaluate(actual, groups: groups)
        case .size(let test):
            guard case .array(let elements) = actual else { return false }
            return try test.evaluate(.number(Double(elements.count)), groups: groups)
        case .elementMatch(let match):
            guard case .array(let elements) = actual else { return false }
            return try Self.anyElementMatches(elements, match, groups: groups)
        case .containsAll(let tests):
            guard case .array(let elements) = actual else { return false }
            for test in tests {
                var found = false
                for element in elements {
                    if try test.evaluate(element, groups: groups) {
                        found = true
                        break
                    }
                }
                if !found { return false }
            }
            return true
        case .regex(let regex):
            if case .string(let text) = actual { return regex.test(text) }
            return regex.test(actual.javaScriptString)
        case .type(let name):
            return actual.typeName == name
        }
    }

    private static func relationHolds(
        _ relation: Relation,
        _ actual: JavaScriptPrimitive,
        _ expected: JavaScriptPrimitive
    ) -> Bool {
        // `a <= b` is `!(b < a)` and `a >= b` is `!(a < b)`, except that an undefined
        // comparison (NaN on either side) makes all four false.
        switch relation {
        case .less: return JavaScript.lessThan(actual, expected) == true
        case .lessOrEqual: return JavaScript.lessThan(expected, actual) == false
        case .greater: return JavaScript.lessThan(expected, actual) == true
        case .greaterOrEqual: return JavaScript.lessThan(actual, expected) == false
        }
    }

    private static func anyElementMatches(
        _ elements: [AttributeValue],
        _ match: ElementMatch,
        groups: [String: AttributeValue]
    ) throws(ConditionFault) -> Bool {
        switch match {
        case .fault:
            throw ConditionFault()
        case .value(let test):
            for element in elements where element.isTruthy {
                if try test.evaluate(element, groups: groups) { return true }
            }
            return false
        case .condition(let node):
            for element in elements where element.isTruthy {
                if try node.evaluate(element, groups: groups) { return true }
            }
            return false
        }
    }

    /// `isIn(actual, savedGroups[id] || [])`: a missing or falsy group is empty, an array is
    /// searched with `includes`, a string with substring `includes`, and anything else has no
    /// `includes` method, so JavaScript throws.
    private static func savedGroupIncludes(
        _ group: AttributeValue?,
        _ actual: AttributeValue
    ) throws(ConditionFault) -> Bool {
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
            throw ConditionFault()
        }
    }
}
