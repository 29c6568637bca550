import RemixExperiments
import Testing

/// `$regex` tests are bounded by a deterministic step budget (issue 21). The record of patterns that
/// gave up is process-wide, and each taker takes only its own patterns: these tests take theirs while
/// commands run beside them in this process (the tests of use cases), which take only their
/// experiments' patterns. Serialized, as two of these tests share a pattern.
@Suite(.serialized) struct RegexBudgetTests {
    static let attack: AttributeValue = .string(String(repeating: "a", count: 1000) + "!")

    static let nested: Set<RegexBudget.Pattern> = [RegexBudget.Pattern("(a+)+$", caseInsensitive: false)]
    static let alternated: Set<RegexBudget.Pattern> = [RegexBudget.Pattern("(a|aa)+$", caseInsensitive: false),
                                                       RegexBudget.Pattern("(a|aa)+$", caseInsensitive: true)]

    @Test func thePatternsOfAConditionAreFoundWhereverTheyAre() {
        let condition: AttributeValue = ["$or": [["id": ["$regex": "^a"]], ["country": ["$not": ["$regexi": "^b"]]]]]
        #expect(RegexBudget.patterns(in: condition) == [RegexBudget.Pattern("^a", caseInsensitive: false),
                                                         RegexBudget.Pattern("^b", caseInsensitive: true)])
    }

    @Test func catastrophicBacktrackingGivesUpAsNotMatchedAndIsRecorded() {
        _ = RegexBudget.takeOverruns(of: Self.nested)
        let condition = Condition(parsing: ["id": ["$regex": "(a+)+$"]])
        #expect(!condition.evaluate(["id": Self.attack]))
        #expect(!condition.evaluate(["id": Self.attack]))
        let overruns = RegexBudget.takeOverruns(of: Self.nested)
        #expect(overruns.map(\.pattern) == ["(a+)+$"] && overruns.first?.count == 2)
        #expect(RegexBudget.takeOverruns(of: Self.nested).isEmpty)
    }

    @Test func givingUpFailsTheWholeConditionEvenUnderNot() {
        _ = RegexBudget.takeOverruns(of: Self.alternated)
        // A negation of a test that gave up does not turn into a match.
        for condition: AttributeValue in [
            ["id": ["$not": ["$regex": "(a|aa)+$"]]],
            ["$not": ["id": ["$regexi": "(a|aa)+$"]]],
            ["$nor": [["id": ["$regex": "(a|aa)+$"]]]],
        ] {
            #expect(!Condition(parsing: condition).evaluate(["id": Self.attack]), "\(condition)")
        }
        let warnings = RegexBudget.takeWarnings(of: Self.alternated)
        #expect(warnings.count == 2)
        #expect(warnings.first?.hasPrefix("warning: $regex '(a|aa)+$' gave up after 1000000 backtracking steps "
                                          + "2 times (first on 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa… (1001 "
                                          + "characters)'); its condition did not match") == true)
    }

    @Test func ordinaryPatternsKeepJavaScriptResultsOnLongText() {
        let long = String(repeating: "x", count: 100_000)
        let cases: [(String, String, Bool)] = [
            ("(a+)+$", "aaaa", true), ("^b", "ab", false), ("b$", "ab", true), ("a|b", "xxb", true),
            ("(?<=x)y", "xy", true), ("(a)\\1", "aa", true), ("", "", true), ("foo", long + "foo", true),
            ("^x+$", long, true), ("z", long, false),
        ]
        let patterns = Set(cases.map { RegexBudget.Pattern($0.0, caseInsensitive: false) })
        _ = RegexBudget.takeOverruns(of: patterns)
        for (pattern, text, expected) in cases {
            let condition = Condition(parsing: ["v": ["$regex": .string(pattern)]])
            #expect(condition.evaluate(["v": .string(text)]) == expected, "\(pattern) on \(text.prefix(20))")
        }
        #expect(RegexBudget.takeOverruns(of: patterns).isEmpty)
    }
}
