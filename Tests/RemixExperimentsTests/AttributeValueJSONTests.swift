import Foundation
import RemixExperiments
import Testing

/// JSON input, and in particular telling booleans from numbers: on Linux both arrive from
/// `JSONSerialization` as `NSNumber`, and `NSNumber(1) as? Bool` succeeds there.
@Suite("AttributeValue JSON")
struct AttributeValueJSONTests {
    @Test("JSON booleans stay booleans and 0/1 stay numbers")
    func booleansAndNumbers() throws {
        let parsed = try AttributeValue.parse(json: "[true, false, 1, 0, 1.5, -2, 12345678901234567890]")
        #expect(parsed == [.bool(true), .bool(false), 1, 0, 1.5, -2, .number(1.2345678901234567e19)])
    }

    @Test("NSNumber booleans and numbers are told apart without CoreFoundation")
    func nsNumbers() {
        #expect(AttributeValue(jsonObject: NSNumber(value: true)) == .bool(true))
        #expect(AttributeValue(jsonObject: NSNumber(value: false)) == .bool(false))
        #expect(AttributeValue(jsonObject: NSNumber(value: 1)) == .number(1))
        #expect(AttributeValue(jsonObject: NSNumber(value: 0)) == .number(0))
        #expect(AttributeValue(jsonObject: NSNumber(value: 2.5)) == .number(2.5))
        #expect(AttributeValue(jsonObject: NSNumber(value: UInt64.max)) == .number(Double(UInt64.max)))
    }

    @Test("native Swift values convert like their JSON counterparts")
    func nativeValues() {
        let object: [String: Any] = [
            "flag": true, "count": 3, "ratio": 0.25, "name": "x", "list": [1, "a", false], "none": NSNull(),
        ]
        let expected: AttributeValue = [
            "flag": true, "count": 3, "ratio": 0.25, "name": "x", "list": [1, "a", false], "none": nil,
        ]
        #expect(AttributeValue(jsonObject: object) == expected)
    }

    @Test("fragments, nesting and key order")
    func structure() throws {
        #expect(try AttributeValue.parse(json: "\"text\"") == "text")
        #expect(try AttributeValue.parse(json: "null") == .null)
        let first = try AttributeValue.parse(json: #"{"a": {"b": [1, {"c": true}]}, "d": "e"}"#)
        let second = try AttributeValue.parse(json: #"{"d": "e", "a": {"b": [1, {"c": true}]}}"#)
        #expect(first == second)
        #expect(first["a"]?["b"]?.arrayValue?.count == 2)
    }

    @Test("invalid JSON throws an error that says what to do")
    func invalid() {
        #expect(throws: AttributeValueParseError.self) { try AttributeValue.parse(json: "{\"a\": ") }
        do {
            _ = try AttributeValue.parse(json: "nope")
        } catch {
            #expect(String(describing: error).contains("invalid JSON"))
        }
    }
}
