import RemixExperiments
import Testing

/// Conditions compare values the way GrowthBook's JavaScript SDK does, mixed types included.
@Suite("JavaScript comparison semantics")
struct JavaScriptSemanticsTests {
    private func passes(_ condition: AttributeValue, _ attributes: [String: AttributeValue]) -> Bool {
        let compiled = Condition(parsing: condition)
        let viaDictionary = compiled.evaluate(attributes)
        let viaContext = compiled.evaluate(in: AssignmentContext(attributes: attributes))
        #expect(viaDictionary == viaContext, "dictionary and context paths disagree on \(condition.rendered)")
        return viaDictionary
    }

    @Test("ordering operators convert strings to numbers when one side is a number")
    func mixedOrdering() {
        #expect(passes(["n": ["$gt": 5]], ["n": "8"]))
        #expect(passes(["n": ["$lt": "10"]], ["n": 8]))
        #expect(!passes(["n": ["$gt": 5]], ["n": "abc"]))
        #expect(!passes(["n": ["$lte": 5]], ["n": "abc"]), "NaN makes <= false as well")
        #expect(passes(["n": ["$gte": 1]], ["n": true]))
        #expect(passes(["n": ["$gt": 0]], ["n": " 12 "]))
        #expect(passes(["n": ["$eq": 16]], ["n": 16]))
        #expect(!passes(["n": ["$eq": 16]], ["n": "16"]), "$eq is strict")
    }

    @Test("two strings compare by UTF-16 code units, not numerically")
    func stringOrdering() {
        #expect(passes(["s": ["$lt": "9"]], ["s": "10"]))
        #expect(!passes(["s": ["$lt": "10"]], ["s": "9"]))
        // U+1F600 is stored as the surrogates D83D DE00, which sort below U+FF61.
        #expect(passes(["s": ["$lt": "\u{FF61}"]], ["s": "\u{1F600}"]))
        #expect(passes(["s": ["$gt": "Z"]], ["s": "a"]))
    }

    @Test("a missing attribute compares as null, which is 0 for ordering")
    func missingAttribute() {
        #expect(passes(["age": ["$lt": 1]], [:]))
        #expect(passes(["age": ["$gte": 0]], [:]))
        #expect(!passes(["age": ["$gt": 0]], [:]))
        #expect(passes(["age": 0], [:]), "null * 1 === 0")
        #expect(passes(["age": "null"], [:]), "null + \"\" === \"null\"")
        #expect(!passes(["age": false], [:]), "a boolean operand never matches null")
        #expect(passes(["age": ["$exists": false]], ["age": nil]))
    }

    @Test("arrays and objects compare through their string forms")
    func compositeOrdering() {
        #expect(passes(["a": ["$gt": "10"]], ["a": [2]]), "[2] becomes \"2\", which sorts after \"10\" as text")
        #expect(passes(["a": ["$gt": 1]], ["a": [2]]), "[2] becomes 2 against a number")
        #expect(!passes(["a": ["$gt": 1]], ["a": [1, 2]]), "\"1,2\" is NaN")
        #expect(passes(["a": "1,2"], ["a": [1, 2]]))
        #expect(passes(["a": "[object Object]"], ["a": ["k": 1]]))
        #expect(!passes(["a": ["$eq": [1]]], ["a": [1]]), "distinct arrays are never ===")
        #expect(passes(["a": [1]], ["a": [1]]), "plain array operands compare as JSON")
    }

    @Test("numbers print like JavaScript's String(n) when compared with text")
    func numberFormatting() {
        let cases: [(Double, String)] = [
            (1, "1"), (-0.0, "0"), (1.5, "1.5"), (0.1 + 0.2, "0.30000000000000004"), (1e21, "1e+21"),
            (1e20, "100000000000000000000"), (1.2345678901234568e20, "123456789012345680000"),
            (1e-6, "0.000001"), (1e-7, "1e-7"), (-2.5e-8, "-2.5e-8"), (Double.infinity, "Infinity"),
            (Double.nan, "NaN"), (1_152_921_504_606_846_976, "1152921504606847000"),
            (Double.leastNonzeroMagnitude, "5e-324"),
        ]
        for (number, text) in cases {
            #expect(passes(["n": .string(text)], ["n": .number(number)]), "String(\(number)) is \(text)")
        }
    }

    @Test("text converts to numbers like JavaScript's Number(s) when compared with a number")
    func numberParsing() {
        let cases: [(String, Double?)] = [
            ("", 0), ("  ", 0), (" 12 ", 12), ("0x10", 16), ("0b101", 5), ("0o17", 15), ("1e3", 1000),
            (".5", 0.5), ("5.", 5), ("-Infinity", -.infinity), ("+3", 3), ("1_0", nil), ("0x", nil),
            ("-0x10", nil), ("12px", nil), ("\u{00A0}7\n", 7),
        ]
        for (text, value) in cases {
            if let value {
                #expect(passes(["n": .number(value)], ["n": .string(text)]), "Number(\"\(text)\") is \(value)")
            } else {
                // NaN is neither below nor above anything.
                #expect(!passes(["n": ["$gte": .number(-.infinity)]], ["n": .string(text)]), "Number(\"\(text)\") is NaN")
            }
        }
    }

    @Test("$in intersects array attributes; $elemMatch skips falsy elements")
    func arrays() {
        #expect(passes(["tags": ["$in": ["a", "b"]]], ["tags": ["x", "b"]]))
        #expect(!passes(["tags": ["$nin": ["a", "b"]]], ["tags": ["x", "b"]]))
        #expect(passes(["n": ["$in": [1, 2]]], ["n": 2]))
        #expect(!passes(["n": ["$in": [1, 2]]], ["n": "2"]), "includes is strict")
        #expect(!passes(["n": ["$in": [[1]]]], ["n": [1]]), "array members never match")
        #expect(!passes(["nums": ["$elemMatch": ["$eq": 0]]], ["nums": [0, 0]]), "0 is falsy, so skipped")
        #expect(passes(["nums": ["$elemMatch": ["$lt": 1]]], ["nums": [0, 0.5]]))
        #expect(passes(["list.length": 3], ["list": [1, 2, 3]]), "array length through a path")
        #expect(passes(["list.1": "b"], ["list": ["a", "b"]]), "array index through a path")
    }

    @Test("regular expressions test String(value) with JavaScript syntax")
    func regex() {
        #expect(passes(["a": ["$regex": "^nul"]], [:]), "a missing value tests as \"null\"")
        #expect(passes(["a": ["$regex": "^12"]], ["a": 123]))
        #expect(!passes(["a": ["$regex": "\\d"]], ["a": "\u{0663}"]), "\\d is ASCII-only in JavaScript")
        #expect(!passes(["a": ["$regex": "a$"]], ["a": "a\n"]), "$ means end of input")
        #expect(passes(["a": ["$regex": "x{"]], ["a": "x{"]), "a lone { is literal")
        #expect(passes(["a": ["$regex": "[^]"]], ["a": "\n"]), "[^] matches anything")
        #expect(!passes(["a": ["$regex": "("]], ["a": "("]), "an invalid pattern fails")
        #expect(!passes(["a": ["$regex": 5]], ["a": "5"]), "a non-string pattern fails")
    }

    @Test("where JavaScript would throw, the condition fails instead of crashing")
    func faults() {
        #expect(!passes(["$or": nil], ["a": 1]))
        #expect(!passes(["$not": ["$or": nil]], ["a": 1]), "the throw is not negated")
        #expect(!passes(["tags": ["$not": ["$elemMatch": nil]]], ["tags": []]))
        #expect(passes(["$not": ["a": 1, "$or": nil]], ["a": 2]), "a failing entry decides, whatever the key order")
        #expect(!passes(["$not": ["$and": [["$or": nil], ["a": 1]]]], ["a": 2]), "in $and the throw comes first")
        #expect(passes(["$or": 5], [:]), "a number has no length, so the loop never runs")
        #expect(!passes(["$nor": 5], [:]))
        let groups: [String: AttributeValue] = ["numbers": 5, "text": "abc"]
        #expect(!Condition(parsing: ["a": ["$notInGroup": "numbers"]]).evaluate(["a": 1], savedGroups: groups))
        #expect(Condition(parsing: ["a": ["$inGroup": "text"]]).evaluate(["a": "b"], savedGroups: groups))
    }

    @Test("strings compare by code units, not canonical equivalence")
    func exactStrings() {
        #expect(!passes(["name": "\u{00E9}"], ["name": "e\u{0301}"]))
        #expect(passes(["name": "\u{00E9}"], ["name": "\u{00E9}"]))
    }

    @Test("version operators compare GrowthBook's padded version strings")
    func paddedVersions() {
        #expect(passes(["v": ["$veq": "1.2.3"]], ["v": "v1.2.3+build.7"]), "leading v and build suffix dropped")
        #expect(passes(["v": ["$vlt": "1.2.3"]], ["v": "1.2.3-rc.1"]), "a pre-release sorts first")
        #expect(passes(["v": ["$veq": "2"]], ["v": 2]), "numbers are read as text")
        #expect(passes(["v": ["$veq": "0"]], [:]), "a missing version reads as 0")
        #expect(passes(["v": ["$veq": "0"]], ["v": ""]), "an empty version reads as 0")
        #expect(
            passes(["v": ["$vlt": "99999.1.1"]], ["v": "123456.1.1"]),
            "parts of six or more digits are not padded, so they compare as text, as in GrowthBook"
        )
        #expect(passes(["v": ["$vgte": "2.0"]], ["v": "10.0"]))
        #expect(!passes(["v": ["$vgte": "2.0"]], ["v": "1.9.9"]))
        #expect(passes(["v": ["$vgt": "1.0.0"]], ["v": "1.0.0+a\n+b"]), "a + followed by a line break is kept")
    }
}
