import RemixExperiments
import Testing

/// Compiling and evaluating arbitrary JSON as conditions never crashes, and both ways of
/// evaluating agree.
@Suite("Condition robustness")
struct ConditionRobustnessTests {
    /// A small deterministic generator (SplitMix64), so a failure reproduces.
    struct Generator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        mutating func pick<T>(_ choices: [T]) -> T {
            choices[Int(next() % UInt64(choices.count))]
        }
    }

    static let keys = [
        "a", "b", "a.b", "tags", "$or", "$and", "$nor", "$not", "$eq", "$ne", "$lt", "$gte", "$in", "$nin",
        "$ini", "$all", "$alli", "$elemMatch", "$size", "$exists", "$type", "$regex", "$regexi", "$vgt",
        "$veq", "$inGroup", "$notInGroup", "$unknown", "0", "length",
    ]
    static let scalars: [AttributeValue] = [
        nil, true, false, 0, 1, -1.5, 1e21, "", "a", "1.2.3", "v2.0-beta+x", "(", "[^]", "\u{1F600}", "null", "array",
    ]

    static func value(_ generator: inout Generator, depth: Int) -> AttributeValue {
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
        var generator = Generator(state: 20_240_601)
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
