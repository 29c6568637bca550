import Foundation

/// Why a text could not be read as JSON.
public struct AttributeValueParseError: Error, Sendable, CustomStringConvertible {
    /// What the JSON reader reported.
    public let message: String

    /// A sentence a person can act on.
    public var description: String {
        "invalid JSON: \(message); check the text is a single well-formed JSON value"
    }
}

extension AttributeValue {
    /// Converts a value produced by `JSONSerialization` (or built by hand from Swift
    /// dictionaries, arrays, strings, numbers and booleans) into an `AttributeValue`.
    ///
    /// Booleans and numbers both arrive as `NSNumber` on Linux, and `NSNumber(1) as? Bool`
    /// succeeds there, so booleans are recognised by their Objective-C type code `c` instead.
    /// Values that have no JSON form become `null`.
    public init(jsonObject: Any) {
        if let value = jsonObject as? AttributeValue {
            self = value
        } else if type(of: jsonObject) == Bool.self, let flag = jsonObject as? Bool {
            self = .bool(flag)
        } else if let string = jsonObject as? String {
            self = .string(string)
        } else if let number = jsonObject as? NSNumber {
            self = Self.fromNumber(number)
        } else if let elements = jsonObject as? [Any] {
            self = .array(elements.map(AttributeValue.init(jsonObject:)))
        } else if let members = jsonObject as? [String: Any] {
            self = .object(members.mapValues(AttributeValue.init(jsonObject:)))
        } else {
            self = .null
        }
    }

    /// Parses JSON text (any JSON value, not only objects and arrays).
    public static func parse(json: String) throws -> AttributeValue {
        try parse(jsonData: Data(json.utf8))
    }

    /// Parses UTF-8 JSON data (any JSON value, not only objects and arrays).
    public static func parse(jsonData: Data) throws -> AttributeValue {
        do {
            let object = try JSONSerialization.jsonObject(with: jsonData, options: [.fragmentsAllowed])
            return AttributeValue(jsonObject: object)
        } catch {
            throw AttributeValueParseError(message: String(describing: error))
        }
    }

    private static func fromNumber(_ number: NSNumber) -> AttributeValue {
        let typeCode = number.objCType.pointee
        // "c" is the type code of a boolean NSNumber on both Linux and Apple platforms;
        // JSON numbers never arrive as a C char.
        if typeCode == CChar(UInt8(ascii: "c")) {
            return .bool(number.boolValue)
        }
        return .number(number.doubleValue)
    }
}
