/// Turns GrowthBook condition JSON into a `ConditionNode` tree once, so evaluation does no
/// parsing, regex compilation or version padding of the condition's own operands.
///
/// Operands of the wrong type compile to the result JavaScript would give: `false` for
/// unknown operators and ill-typed operands, and a fault where JavaScript would throw.
enum ConditionCompiler {
    static func compile(_ condition: AttributeValue) -> ConditionNode {
        guard let entries = entries(of: condition) else { return ConditionNode(.fault) }
        let nodes = entries.map { key, value in compileEntry(key: key, value: value) }
        return nodes.count == 1 ? nodes[0] : ConditionNode(.every, children: nodes)
    }

    private static func compileEntry(key: String, value: AttributeValue) -> ConditionNode {
        switch key {
        case "$or":
            switch list(value) {
            case .nodes(let nodes): return nodes.isEmpty ? .constant(true) : ConditionNode(.any, children: nodes)
            case .lengthless: return .constant(true)
            case .fault: return ConditionNode(.fault)
            }
        case "$nor":
            switch list(value) {
            case .nodes(let nodes): return nodes.isEmpty ? .constant(false) : ConditionNode(.none, children: nodes)
            case .lengthless: return .constant(false)
            case .fault: return ConditionNode(.fault)
            }
        case "$and":
            switch list(value) {
            case .nodes(let nodes): return ConditionNode(.all, children: nodes)
            case .lengthless: return .constant(true)
            case .fault: return ConditionNode(.fault)
            }
        case "$not":
            return ConditionNode(.not, children: [compile(value)])
        default:
            return ConditionNode(path: AttributePath(key), test: valueTest(value))
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

    static func valueTest(_ condition: AttributeValue, caseInsensitive: Bool = false) -> ValueMatcher {
        switch condition {
        case .string(let text):
            return caseInsensitive ? CaseInsensitiveTextEquality(text) : TextEquality(text)
        case .number(let number):
            return NumberEquality(number)
        case .bool(let flag):
            return BoolEquality(flag)
        case .null:
            return NullEquality()
        case .array:
            return JSONEquality(condition)
        case .object(let members):
            guard isOperatorObject(members) else { return JSONEquality(condition) }
            return OperatorConjunction(members.map { operatorTest($0.key, operand: $0.value) })
        }
    }

    /// Whether every key starts with `$` (and there is at least one key).
    private static func isOperatorObject(_ members: [String: AttributeValue]) -> Bool {
        !members.isEmpty && members.keys.allSatisfy { $0.utf16.first == 0x24 }
    }

    private static func operatorTest(_ name: String, operand: AttributeValue) -> OperatorMatcher {
        if let comparison = versionComparisons[name] {
            return VersionOperator(comparison, operand: operand)
        }
        if let relation = relations[name] {
            return RelationalOperator(relation, operand: operand)
        }
        switch name {
        case "$eq": return StrictEqualityOperator(operand, negated: false)
        case "$ne": return StrictEqualityOperator(operand, negated: true)
        case "$exists": return ExistsOperator(operand.isTruthy)
        case "$in", "$nin", "$ini", "$nini":
            guard case .array(let elements) = operand else { return ConstantOperator(false) }
            let list = MembershipList(elements, caseInsensitive: name.hasSuffix("i"))
            return MembershipOperator(list, negated: name.hasPrefix("$n"))
        case "$inGroup": return SavedGroupOperator(groupID: operand.javaScriptString, negated: false)
        case "$notInGroup": return SavedGroupOperator(groupID: operand.javaScriptString, negated: true)
        case "$not": return NotOperator(valueTest(operand))
        case "$size": return SizeOperator(valueTest(operand))
        case "$elemMatch": return elementMatch(operand)
        case "$all", "$alli":
            guard case .array(let elements) = operand else { return ConstantOperator(false) }
            let insensitive = name == "$alli"
            return ContainsAllOperator(elements.map { valueTest($0, caseInsensitive: insensitive) })
        case "$regex", "$regexi":
            guard case .string(let pattern) = operand,
                  let regex = JavaScriptRegex(pattern: pattern, caseInsensitive: name == "$regexi")
            else { return ConstantOperator(false) }
            return RegexOperator(regex)
        case "$type":
            guard case .string(let typeName) = operand else { return ConstantOperator(false) }
            return TypeOperator(typeName)
        default:
            return ConstantOperator(false)
        }
    }

    private static func elementMatch(_ operand: AttributeValue) -> OperatorMatcher {
        switch operand {
        case .null:
            return ElementMatchOperator(valueTest: nil, condition: nil)
        case .object(let members) where isOperatorObject(members):
            return ElementMatchOperator(valueTest: valueTest(operand), condition: nil)
        default:
            return ElementMatchOperator(valueTest: nil, condition: compile(operand))
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
