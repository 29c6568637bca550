/// A GrowthBook targeting condition (its MongoDB-like query language), compiled once and
/// evaluated as often as needed with the results of the JavaScript SDK's `evalCondition`.
///
/// Compiling does all the work that does not depend on the user: splitting attribute paths,
/// padding version operands, indexing `$in` lists and compiling regular expressions. Evaluating
/// never fails: where the JavaScript SDK would throw (for example on `{"$or": null}`), the
/// condition simply does not pass.
package struct Condition: Sendable {
    /// The condition as written.
    package let source: AttributeValue
    private let root: ConditionNode
    /// The fast form of `root` for context indexes, when it has one.
    private let flat: FlatCondition?

    /// Compiles a condition object such as `{"platform": "tablet", "appVersion": {"$vgte": "2.0"}}`.
    package init(parsing source: AttributeValue) {
        self.source = source
        root = ConditionCompiler.compile(source)
        flat = FlatCondition(root)
    }

    /// Whether `attributes` satisfy the condition; `savedGroups` resolve `$inGroup` and
    /// `$notInGroup` (group id to an array of member values).
    package func evaluate(
        _ attributes: [String: AttributeValue],
        savedGroups: [String: AttributeValue] = [:]
    ) -> Bool {
        root.evaluate(attributes, groups: savedGroups) ?? false
    }

    /// Whether an arbitrary tested value (normally an object of attributes) satisfies the condition.
    package func evaluate(value tested: AttributeValue, savedGroups: [String: AttributeValue] = [:]) -> Bool {
        root.evaluate(tested, groups: savedGroups) ?? false
    }

    /// Whether a context's attributes satisfy the condition, with the context's saved groups.
    /// Faster than passing the attributes dictionary: the context keeps them indexed.
    package func evaluate(in context: AssignmentContext) -> Bool {
        context.satisfies(self)
    }

    /// Whether a context's indexed attributes satisfy the condition.
    func evaluate(_ index: AttributeIndex, savedGroups: [String: AttributeValue]) -> Bool {
        if let flat {
            return flat.evaluate(index, groups: savedGroups) ?? false
        }
        return root.evaluate(index, groups: savedGroups) ?? false
    }

    /// Compiles and evaluates in one step, like GrowthBook's `evalCondition(attributes, condition,
    /// savedGroups)`. Prefer compiling once when the same condition is evaluated repeatedly.
    package static func evaluate(
        _ condition: AttributeValue,
        attributes: [String: AttributeValue],
        savedGroups: [String: AttributeValue] = [:]
    ) -> Bool {
        Condition(parsing: condition).evaluate(attributes, savedGroups: savedGroups)
    }
}
