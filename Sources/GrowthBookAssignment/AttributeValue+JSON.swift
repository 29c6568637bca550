import Foundation
import RemixFormats

/// Why a text could not be read as JSON.
package struct AttributeValueParseError: Error, Sendable, CustomStringConvertible {
    /// What the JSON reader reported.
    package let message: String

    /// A sentence a person can act on.
    package var description: String {
        "invalid JSON: \(message); check the text is a single well-formed JSON value"
    }
}

/// Attributes, conditions and payloads are read by the host's one JSON reader, which reads every
/// number exactly (Foundation's on Linux can be one unit in the last place off, which would move a
/// condition's or a bucket's boundary) and tells booleans from numbers.
extension AttributeValue: JSONReadable {
    /// A JSON number: a double, whole or not, as JavaScript has it.
    package static func number(_ value: Double, integer: Int?) -> AttributeValue { .number(value) }

    /// A JSON object.
    package static func object(members: [String: AttributeValue]) -> AttributeValue { .object(members) }

    /// Parses JSON text (any JSON value, not only objects and arrays).
    package static func parse(json: String) throws -> AttributeValue {
        try parse(bytes: Array(json.utf8))
    }

    /// Parses UTF-8 JSON data (any JSON value, not only objects and arrays).
    package static func parse(jsonData: Data) throws -> AttributeValue {
        try parse(bytes: Array(jsonData))
    }

    private static func parse(bytes: [UInt8]) throws -> AttributeValue {
        do {
            return try JSONReader<AttributeValue>.parse(bytes)
        } catch {
            throw AttributeValueParseError(message: error.description)
        }
    }
}
