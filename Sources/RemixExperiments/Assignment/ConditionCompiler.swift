/// Turns GrowthBook condition JSON into a `ConditionNode` tree once, so evaluation does no
/// parsing, regex compilation or version padding of the condition's own operands.
///
/// Operands of the wrong type compile to the result JavaScript would give: `false` for
/// unknown operators and ill-typed operands, and a fault where JavaScript would throw.
enum ConditionCompiler {
    static func compile(_ condition: AttributeValue) -> ConditionNode {
        guard let entries = entries(of: condition) else { return .fault }
        let nodes = entries.map { key, value in compileEntry(key: key, value: value) }
        return nodes.count == 1 ? nodes[0] : .all(nodes)
    }

    private static func compileEntry(key: String, value: AttributeValue) -> ConditionNode {
        switch key {
        case "$or":
            switch list(value) {
            case .nodes(let nodes): return nodes.isEmpty ? .constant(true) : .any(nodes)
            case .lengthless: return .constant(true)
            case .fault: return .fault
            }
        case "$nor":
            switch list(value) {
            case .nodes(let nodes): return nodes.isEmpty ? .constant(false) : .none(nodes)
            case .lengthless: return .constant(false)
            case .fault: return .fault
            }
        case "$and":
            switch list(value) {
            case .nodes(let nodes): return .all(nodes)
            case .lengthless: return .constant(true)
            case .fault: return .fault
            }
        case "$not":
            return .not(compile(value))
        default:
            return .field(AttributePath(key), valueTest(value))
        }
    }

    /// The operand of `$or`, `$and` or `$nor` as JavaScript indexes it.
    private enum ListOperand {
        case nodes([ConditionNode])
        /// No `length` property (a number, boolean or object): loops run zero times.
        case lengthless
        case fault
    }

    private static func list(_ operand: AttributeValue) -> ListOperand {
        switch operand {
        case .array(let elements): return .nodes(elements.map(compile))
        case .string(let text): return .nodes(codeUnitStrings(text).map { compile(.string($0)) })
        case .null: return .fault
        case .bool, .number, .object: return .lengthless
        }
    }

    /// `Object.entries(condition)`; `nil` where JavaScript throws (on `null`).
    private static func entries(of condition: AttributeValue) -> [(String, AttributeValue)]? {
        switch condition {
        case .object(let members):
            return members.map { ($0.key, $0.value) }
        case .array(let elements):
            return elements.enumerated().map { (String($0.offset), $0.element) }
        case .string(let text):
            return codeUnitStrings(text).enumerated().map { (String($0.offset), .string($0.element)) }
        case .bool, .number:
            return []
        case .null:
            return nil
        }
    }

    private static func codeUnitStrings(_ text: String) -> [String] {
        text.utf16.map { String(decoding: [$0], as: UTF16.self) }
    }

    static func valueTest(_ condition: AttributeValue, caseInsensitive: Bool = false) -> ValueTest {
        switch condition {
        case .string(let text):
            return caseInsensitive ? .equalsTextIgnoringCase(text.lowercased()) : .equalsText(text)
        case .number(let number):
            return .equalsNumber(number)
        case .bool(let flag):
            return .equalsBool(flag)
        case .null:
            return .isNull
        case .array:
            return .sameJSON(condition)
        case .object(let members):
            guard isOperatorObject(members) else { return .sameJSON(condition) }
            return .operators(members.map { operatorTest($0.key, operand: $0.value) })
        }
    }

    /// Whether every key starts with `$` (and there is at least one key).
    private static func isOperatorObject(_ members: [String: AttributeValue]) -> Bool {
        !members.isEmpty && members.keys.allSatisfy { $0.utf16.first == 0x24 }
    }

    private static func operatorTest(_ name: String, operand: AttributeValue) -> OperatorTest {
        if let comparison = versionComparisons[name] {
            return .version(comparison, PaddedVersion.units(of: operand))
        }
        if let relation = relations[name] {
            return .relational(relation, operand.primitive)
        }
        switch name {
        case "$eq": return .strictEqual(operand, negated: false)
        case "$ne": return .strictEqual(operand, negated: true)
        case "$exists": return .exists(operand.isTruthy)
        case "$in", "$nin", "$ini", "$nini":
            guard case .array(let elements) = operand else { return .constant(false) }
            let list = MembershipList(elements, caseInsensitive: name.hasSuffix("i"))
            return .member(list, negated: name.hasPrefix("$n"))
        case "$inGroup": return .inSavedGroup(operand.javaScriptString, negated: false)
        case "$notInGroup": return .inSavedGroup(operand.javaScriptString, negated: true)
        case "$not": return .not(valueTest(operand))
        case "$size": return .size(valueTest(operand))
        case "$elemMatch": return .elementMatch(elementMatch(operand))
        case "$all", "$alli":
            guard case .array(let elements) = operand else { return .constant(false) }
            let insensitive = name == "$alli"
            return .containsAll(elements.map { valueTest($0, caseInsensitive: insensitive) })
        case "$regex", "$regexi":
            guard case .string(let pattern) = operand,
                  let regex = JavaScriptRegex(pattern: pattern, caseInsensitive: name == "$regexi")
            else { return .constant(false) }
            return .regex(regex)
        case "$type":
            guard case .string(let typeName) = operand else { return .constant(false) }
            return .type(typeName)
        default:
            return .constant(false)
        }
    }

    private static func elementMatch(_ operand: AttributeValue) -> ElementMatch {
        switch operand {
        case .null:
            return .fault
        case .object(let members) where isOperatorObject(members):
            return .value(valueTest(operand))
        default:
            return .condition(compile(operand))
        }
    }

    private static let versionComparisons: [String: PaddedVersion.Comparison] = [
        "$veq": .equal, "$vne": .notEqual, "$vgt": .greater,
        "$vgte": .greaterOrEqual, "$vlt": .less, "$vlte": .lessOrEqual,
    ]

    private static let relations: [String: Relation] = [
        "$lt": .less, "$lte": .lessOrEqual, "$gt": .greater, "$gte": .greaterOrEqual,
    ]
}
