import Foundation

/// A JavaScript primitive: what `ToPrimitive` makes of a JSON value before `<` or `>` compare it.
enum JavaScriptPrimitive: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)

    /// `ToNumber` of this primitive.
    var number: Double {
        switch self {
        case .null: return 0
        case .bool(let flag): return flag ? 1 : 0
        case .number(let value): return value
        case .string(let text): return JavaScriptNumber.parse(text)
        }
    }
}

/// The JavaScript operators GrowthBook's condition language is defined in terms of.
enum JavaScript {
    /// JavaScript's abstract relational comparison `left < right`: `nil` when either side is NaN
    /// ("undefined"), which makes `<`, `<=`, `>` and `>=` all false.
    static func lessThan(_ left: JavaScriptPrimitive, _ right: JavaScriptPrimitive) -> Bool? {
        if case .string(let a) = left, case .string(let b) = right {
            return codeUnitsPrecede(a, b)
        }
        let a = left.number
        let b = right.number
        if a.isNaN || b.isNaN { return nil }
        return a < b
    }

    /// Whether `a` sorts before `b` by UTF-16 code units, as JavaScript compares strings.
    static func codeUnitsPrecede(_ a: String, _ b: String) -> Bool {
        a.utf16.lexicographicallyPrecedes(b.utf16)
    }

    /// Whether two strings hold the same code units (JavaScript `===`), not merely
    /// canonically equivalent characters (Swift `==`).
    @inline(__always)
    static func sameCodeUnits(_ a: String, _ b: String) -> Bool {
        let count = a.utf8.count
        guard count == b.utf8.count else { return false }
        let fast = unsafe a.utf8.withContiguousStorageIfAvailable { left in
            unsafe b.utf8.withContiguousStorageIfAvailable { right in
                unsafe sameBytes(left, right, count: count)
            }
        }
        if let known = fast ?? nil { return known }
        return a.utf8.elementsEqual(b.utf8)
    }

    @inline(__always)
    private static func sameBytes(
        _ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>, count: Int
    ) -> Bool {
        // Attribute names and values are usually short: a plain loop beats a call to memcmp.
        guard count > 32, let leftStart = left.baseAddress, let rightStart = right.baseAddress else {
            for index in 0..<count where unsafe left[index] != right[index] {
                return false
            }
            return true
        }
        return unsafe memcmp(leftStart, rightStart, count) == 0
    }
}

extension AttributeValue {
    /// JavaScript truthiness: `null`, `false`, `0`, `NaN` and `""` are falsy; arrays and
    /// objects (even empty ones) are truthy.
    var isTruthy: Bool {
        switch self {
        case .null: return false
        case .bool(let flag): return flag
        case .number(let value): return !(value == 0 || value.isNaN)
        case .string(let text): return !text.isEmpty
        case .array, .object: return true
        }
    }

    /// `ToPrimitive`: arrays become their comma-joined text, objects `"[object Object]"`.
    var primitive: JavaScriptPrimitive {
        switch self {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let value): return .number(value)
        case .string(let text): return .string(text)
        case .array, .object: return .string(javaScriptString)
        }
    }

    /// `String(value)` in JavaScript.
    var javaScriptString: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let value): return JavaScriptNumber.string(value)
        case .string(let text): return text
        case .object: return "[object Object]"
        case .array(let elements):
            // Array.prototype.join writes null elements as empty strings.
            return elements.map { element in
                element.isNull ? "" : element.javaScriptString
            }.joined(separator: ",")
        }
    }

    /// `Number(value)` in JavaScript.
    var javaScriptNumber: Double {
        switch self {
        case .null: return 0
        case .bool(let flag): return flag ? 1 : 0
        case .number(let value): return value
        case .string(let text): return JavaScriptNumber.parse(text)
        case .array: return JavaScriptNumber.parse(javaScriptString)
        case .object: return .nan
        }
    }

    /// JavaScript `===` between this value (an attribute) and a value from a condition: two
    /// distinct arrays or objects are never identical, so those compare false.
    func isStrictlyEqual(to other: AttributeValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return JavaScript.sameCodeUnits(a, b)
        default: return false
        }
    }

    /// `JSON.stringify(a) === JSON.stringify(b)`, except that object key order is ignored
    /// (objects here are unordered).
    func hasSameJSON(as other: AttributeValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)):
            // JSON.stringify writes NaN and the infinities as null.
            return a.isFinite && b.isFinite ? a == b : !a.isFinite && !b.isFinite
        case (.number(let a), .null), (.null, .number(let a)): return !a.isFinite
        case (.string(let a), .string(let b)): return JavaScript.sameCodeUnits(a, b)
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return false }
            for index in a.indices where !a[index].hasSameJSON(as: b[index]) {
                return false
            }
            return true
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            for (key, value) in a {
                guard let counterpart = b[key], value.hasSameJSON(as: counterpart) else { return false }
            }
            return true
        default:
            return false
        }
    }

    /// GrowthBook's `$type` name for this value.
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}
