/// Raised where GrowthBook's JavaScript would throw (for example `{"$or": null}`); the
/// whole condition then evaluates to false instead of crashing.
struct ConditionFault: Error {}

/// A compiled condition object: GrowthBook's `evalCondition(obj, condition)`.
indirect enum ConditionNode: Sendable {
    /// Always this result (for example an empty `$or`, which passes).
    case constant(Bool)
    /// Evaluating this would throw in JavaScript.
    case fault
    /// Every entry of a condition object, or every member of `$and`, must pass.
    case all([ConditionNode])
    /// `$or`: at least one must pass.
    case any([ConditionNode])
    /// `$nor`: none may pass.
    case none([ConditionNode])
    /// `$not` at condition level.
    case not(ConditionNode)
    /// A dotted attribute path and what its value must satisfy.
    case field(AttributePath, ValueTest)
}

/// A compiled `evalConditionValue(condition, value)`: what one value must satisfy.
indirect enum ValueTest: Sendable {
    /// `value + "" === text`.
    case equalsText(String)
    /// `String(value).toLowerCase() === text` (`text` already lower-cased; used by `$alli`).
    case equalsTextIgnoringCase(String)
    /// `value * 1 === number`.
    case equalsNumber(Double)
    /// `value !== null && !!value === flag`.
    case equalsBool(Bool)
    /// `value === null` (a missing attribute reads as null).
    case isNull
    /// `JSON.stringify(value) === JSON.stringify(expected)` for array and plain-object operands.
    case sameJSON(AttributeValue)
    /// An operator object such as `{"$gt": 5, "$lt": 10}`: every operator must pass.
    case operators([OperatorTest])
}

/// One compiled operator of an operator object.
indirect enum OperatorTest: Sendable {
    /// Decided when compiling: unknown operators and ill-typed operands are false.
    case constant(Bool)
    /// `$veq $vne $vgt $vgte $vlt $vlte` against the operand's padded version string.
    case version(PaddedVersion.Comparison, [UInt16])
    /// `$eq` (or `$ne` when negated): JavaScript `===`.
    case strictEqual(AttributeValue, negated: Bool)
    /// `$lt $lte $gt $gte` with JavaScript's mixed-type comparison.
    case relational(Relation, JavaScriptPrimitive)
    /// `$exists`.
    case exists(Bool)
    /// `$in $nin $ini $nini`: membership, intersecting when the attribute is an array.
    case member(MembershipList, negated: Bool)
    /// `$inGroup $notInGroup`: membership in a saved group looked up at evaluation time.
    case inSavedGroup(String, negated: Bool)
    /// `$not` at value level.
    case not(ValueTest)
    /// `$size`: the array's length must satisfy the test.
    case size(ValueTest)
    /// `$elemMatch`.
    case elementMatch(ElementMatch)
    /// `$all` / `$alli`: every test must be met by some element.
    case containsAll([ValueTest])
    /// `$regex` / `$regexi` against `String(value)`.
    case regex(JavaScriptRegex)
    /// `$type`.
    case type(String)
}

/// The four ordering operators.
enum Relation: Sendable {
    case less, lessOrEqual, greater, greaterOrEqual
}

/// What each truthy element of an array must satisfy for `$elemMatch`.
enum ElementMatch: Sendable {
    /// An operator object, applied to the element as a value.
    case value(ValueTest)
    /// A condition object, applied to the element as the tested object.
    case condition(ConditionNode)
    /// A `null` operand, which makes JavaScript throw.
    case fault
}

/// A dot-separated attribute path, split once.
struct AttributePath: Sendable {
    /// The first segment, looked up directly in the tested object.
    let head: String
    /// The remaining segments (usually none).
    let tail: [String]

    init(_ path: String) {
        let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        head = parts.first ?? ""
        tail = Array(parts.dropFirst())
    }

    /// GrowthBook's `getPath`: the value at the path, or `null` when any step is missing.
    @inline(__always)
    func resolve<Tested: TestedObject>(in tested: Tested) -> AttributeValue {
        guard let first = tested.member(named: head) else { return .null }
        if tail.isEmpty { return first }
        var current = first
        for part in tail {
            guard let next = current.member(named: part) else { return .null }
            current = next
        }
        return current
    }
}

/// What a condition is evaluated against: the attributes dictionary itself (no wrapping on
/// the hot path) or, inside `$elemMatch`, any value.
protocol TestedObject {
    /// JavaScript's `object[key]` where `key in object` holds; `nil` otherwise.
    func member(named key: String) -> AttributeValue?
}

extension Dictionary: TestedObject where Key == String, Value == AttributeValue {
    @inline(__always)
    func member(named key: String) -> AttributeValue? {
        self[key]
    }
}

extension AttributeValue: TestedObject {
    /// JavaScript's `object[key]` where `key in object` holds: object members, and for arrays
    /// their canonical indices and `length`.
    func member(named key: String) -> AttributeValue? {
        switch self {
        case .object(let members):
            return members[key]
        case .array(let elements):
            if key == "length" { return .number(Double(elements.count)) }
            guard let index = Self.canonicalIndex(key), index < elements.count else { return nil }
            return elements[index]
        default:
            return nil
        }
    }

    private static func canonicalIndex(_ key: String) -> Int? {
        let units = key.utf8
        guard let first = units.first, units.count <= 15 else { return nil }
        if first == UInt8(ascii: "0") { return units.count == 1 ? 0 : nil }
        var value = 0
        for unit in units {
            guard unit >= UInt8(ascii: "0"), unit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(unit - UInt8(ascii: "0"))
        }
        return value
    }
}
