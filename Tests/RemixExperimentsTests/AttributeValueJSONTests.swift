import Foundation
import RemixExperiments
import Testing

/// JSON input as `--attributes`, conditions and payloads are read: booleans stay booleans, numbers
/// are read exactly, and anything that is not one JSON value is refused with a reason.
@Suite("AttributeValue JSON")
struct AttributeValueJSONTests {
    @Test("JSON booleans stay booleans and 0/1 stay numbers")
    func booleansAndNumbers() throws {
        let parsed = try AttributeValue.parse(json: "[true, false, 1, 0, 1.5, -2, 12345678901234567890]")
        #expect(parsed == [.bool(true), .bool(false), 1, 0, 1.5, -2, .number(1.2345678901234567e19)])
    }

    @Test("numbers read exactly as Double(String) reads them (Foundation on Linux is off by one unit here)")
    func exactNumbers() throws {
        #expect(try AttributeValue.parse(json: "0.8599999999999999") == .number(Double("0.8599999999999999")!))
        #expect(try AttributeValue.parse(jsonData: Data("[1e2, -0.5E-1]".utf8)) == [100, -0.05])
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

    @Test("invalid JSON throws an error that says where and what to do")
    func invalid() {
        #expect(throws: AttributeValueParseError.self) { try AttributeValue.parse(json: "{\"a\": ") }
        do {
            _ = try AttributeValue.parse(json: "nope")
            Issue.record("'nope' was read as JSON")
        } catch {
            #expect(String(describing: error) == "invalid JSON: line 1, column 1: expected 'null'; "
                    + "check the text is a single well-formed JSON value")
        }
    }
}
