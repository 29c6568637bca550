import RemixKit
import RemixYAML

/// Finds operators GrowthBook does not know (which silently fail every session) and references to
/// saved groups that do not exist.
struct ConditionCheck {
    static let operators = [
        "$eq", "$ne", "$lt", "$lte", "$gt", "$gte", "$in", "$nin", "$ini", "$nini", "$all", "$alli",
        "$elemMatch", "$size", "$exists", "$type", "$regex", "$regexi", "$not", "$and", "$or", "$nor",
        "$veq", "$vne", "$vgt", "$vgte", "$vlt", "$vlte", "$inGroup", "$notInGroup",
    ]
    static let types = ["string", "number", "boolean", "array", "object", "null", "undefined"]

    let savedGroups: [String: AttributeValue]

    func problems(in definition: ExperimentDefinition) -> [Diagnostic] {
        guard let node = definition.conditionNode else { return [] }
        var problems: [Diagnostic] = []
        walk(node, into: &problems)
        return problems
    }

    private func walk(_ value: YAMLValue, into problems: inout [Diagnostic]) {
        if let items = try? value.sequence() {
            for item in items { walk(item, into: &problems) }
            return
        }
        guard let mapping = try? value.mapping() else { return }
        for entry in mapping.entries {
            if entry.key.hasPrefix("$") {
                check(entry, into: &problems)
            }
            walk(entry.value, into: &problems)
        }
    }

    private func check(_ entry: YAMLMapping.Entry, into problems: inout [Diagnostic]) {
        guard Self.operators.contains(entry.key) else {
            let hint = NameSuggestion.hint(for: entry.key, among: Self.operators, noun: "operator")
            problems.append(Diagnostic(entry.keyLocation, .error,
                                       "unknown condition operator '\(entry.key)'\(hint); GrowthBook treats it as never true"))
            return
        }
        switch entry.key {
        case "$inGroup", "$notInGroup":
            guard let name = try? entry.value.string() else {
                problems.append(Diagnostic(entry.value.location, .error, "\(entry.key) takes the name of a saved group"))
                return
            }
            if savedGroups[name] == nil {
                let hint = NameSuggestion.hint(for: name, among: Array(savedGroups.keys), noun: "saved group")
                problems.append(Diagnostic(entry.value.location, .error,
                                           "unknown saved group '\(name)'\(hint); define it in \(ExperimentSet.savedGroupsFile)"))
            }
        case "$type":
            if let type = try? entry.value.string(), !Self.types.contains(type) {
                problems.append(Diagnostic(entry.value.location, .error,
                                           "$type must be one of \(Self.types.joined(separator: ", ")), not '\(type)'"))
            }
        case "$regex", "$regexi":
            problems += regexProblems(entry)
        case "$in", "$nin", "$ini", "$nini", "$all", "$alli", "$and", "$or", "$nor":
            if (try? entry.value.sequence()) == nil {
                problems.append(Diagnostic(entry.value.location, .error, "\(entry.key) takes a list"))
            }
        default:
            break
        }
    }

    /// A `$regex` must be text that compiles: anything else never matches in GrowthBook.
    private func regexProblems(_ entry: YAMLMapping.Entry) -> [Diagnostic] {
        guard case .string(let pattern)? = try? entry.value.attributeValue() else {
            return [Diagnostic(entry.value.location, .error,
                               "\(entry.key) takes a pattern as text, e.g. \(entry.key): \"^beta-\" (quote one that "
                               + "looks like a number), not \(entry.value.describe)")]
        }
        guard JavaScriptRegex(pattern: pattern, caseInsensitive: entry.key == "$regexi") == nil else { return [] }
        return [Diagnostic(entry.value.location, .error, """
            invalid regular expression '\(pattern)' in \(entry.key): \(RegexSyntax.problem(in: pattern)); \
            GrowthBook treats it as never true
            """)]
    }
}
