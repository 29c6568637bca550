import RemixExperiments
import Testing

/// `$regex` tests are bounded by a deterministic step budget (issue 21). Serialized: the record of
/// patterns that gave up is process-wide.
@Suite(.serialized) struct RegexBudgetTests {
    static let attack: AttributeValue = .string(String(repeating: "a", count: 1000) + "!")

    @Test func catastrophicBacktrackingGivesUpAsNotMatchedAndIsRecorded() {
        _ = RegexBudget.takeOverruns()
        let condition = Condition(parsing: ["id": ["$regex": "(a+)+$"]])
        #expect(!condition.evaluate(["id": Self.attack]))
        #expect(!condition.evaluate(["id": Self.attack]))
        let overruns = RegexBudget.takeOverruns()
        #expect(overruns.map(\.pattern) == ["(a+)+$"] && overruns.first?.count == 2)
        #expect(RegexBudget.takeOverruns().isEmpty)
    }

    @Test func givingUpFailsTheWholeConditionEvenUnderNot() {
        _ = RegexBudget.takeOverruns()
        // A negation of a test that gave up does not turn into a match.
        for condition: AttributeValue in [
            ["id": ["$not": ["$regex": "(a|aa)+$"]]],
            ["$not": ["id": ["$regexi": "(a|aa)+$"]]],
            ["$nor": [["id": ["$regex": "(a|aa)+$"]]]],
        ] {
            #expect(!Condition(parsing: condition).evaluate(["id": Self.attack]), "\(condition)")
        }
        let warnings = RegexBudget.takeWarnings()
        #expect(warnings.count == 2)
        #expect(warnings.first?.hasPrefix("warning: $regex '(a|aa)+$' gave up after 1000000 backtracking steps "
                                          + "2 times (first on 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa… (1001 "
                                          + "characters)'); its condition did not match") == true)
    }

    @Test func ordinaryPatternsKeepJavaScriptResultsOnLongText() {
        _ = RegexBudget.takeOverruns()
        let long = String(repeating: "x", count: 100_000)
        let cases: [(String, String, Bool)] = [
            ("(a+)+$", "aaaa", true), ("^b", "ab", false), ("b$", "ab", true), ("a|b", "xxb", true),
            ("(?<=x)y", "xy", true), ("(a)\\1", "aa", true), ("", "", true), ("foo", long + "foo", true),
            ("^x+$", long, true), ("z", long, false),
        ]
        for (pattern, text, expected) in cases {
            let condition = Condition(parsing: ["v": ["$regex": .string(pattern)]])
            #expect(condition.evaluate(["v": .string(text)]) == expected, "\(pattern) on \(text.prefix(20))")
        }
        #expect(RegexBudget.takeOverruns().isEmpty)
    }
}
