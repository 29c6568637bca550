import RemixExperiments
import RemixKit
import Testing

/// Compiling and evaluating arbitrary JSON as conditions never crashes, and both ways of
/// evaluating agree.
@Suite("Condition robustness")
struct ConditionRobustnessTests {
    static let keys = [
        "a", "b", "a.b", "tags", "$or", "$and", "$nor", "$not", "$eq", "$ne", "$lt", "$gte", "$in", "$nin",
        "$ini", "$all", "$alli", "$elemMatch", "$size", "$exists", "$type", "$regex", "$regexi", "$vgt",
        "$veq", "$inGroup", "$notInGroup", "$unknown", "0", "length",
    ]
    static let scalars: [AttributeValue] = [
        nil, true, false, 0, 1, -1.5, 1e21, "", "a", "1.2.3", "v2.0-beta+x", "(", "[^]", "\u{1F600}", "null", "array",
    ]

    static func value(_ generator: inout SeededGenerator, depth: Int) -> AttributeValue {
        guard depth > 0 else { return generator.pick(scalars) }
        switch generator.next() % 4 {
        case 0:
            return .array((0..<Int(generator.next() % 4)).map { _ in value(&generator, depth: depth - 1) })
        case 1:
            var members: [String: AttributeValue] = [:]
            for _ in 0..<Int(generator.next() % 4) {
                members[generator.pick(keys)] = value(&generator, depth: depth - 1)
            }
            return .object(members)
        default:
            return generator.pick(scalars)
        }
    }

    @Test("random conditions evaluate without crashing, the same way through both paths")
    func randomConditions() {
        var generator = SeededGenerator(seed: 20_240_601)
        let groups: [String: AttributeValue] = ["a": [1, "a"], "b": "text", "1": 5]
        var disagreements: [String] = []
        for _ in 0..<3000 {
            let condition = Condition(parsing: Self.value(&generator, depth: 4))
            guard case .object(let attributes) = Self.value(&generator, depth: 3) else { continue }
            let viaDictionary = condition.evaluate(attributes, savedGroups: groups)
            let context = AssignmentContext(attributes: attributes, savedGroups: groups)
            if viaDictionary != condition.evaluate(in: context) {
                disagreements.append(condition.source.rendered)
            }
        }
        #expect(disagreements.isEmpty, "paths disagree on: \(disagreements.prefix(5))")
    }
}

extension SeededGenerator {
    /// One of `choices`, drawn with RemixKit's seeded generator (SplitMix64) so that a failure
    /// reproduces.
    mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int(next() % UInt64(choices.count))]
    }
}
