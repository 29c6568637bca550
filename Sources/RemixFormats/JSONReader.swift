/// A value ``JSONReader`` can build: one way to make each kind of JSON value. An enum with cases
/// `null`, `bool(Bool)`, `string(String)` and `array([Self])` has those four already.
package protocol JSONReadable {
    /// `null`.
    static var null: Self { get }
    /// `true` or `false`.
    static func bool(_ value: Bool) -> Self
    /// A string, its escapes resolved.
    static func string(_ value: String) -> Self
    /// A number as `Double(String)` reads its text, with `integer` too when the text has no
    /// fraction and no exponent and fits an `Int` (so `1` and `1.0` can be told apart).
    static func number(_ value: Double, integer: Int?) -> Self
    /// An array.
    static func array(_ items: [Self]) -> Self
    /// An object (of members named twice, the last).
    static func object(members: [String: Self]) -> Self
}

/// A strict JSON reader (RFC 8259) that reads every number exactly as `Double(String)` does and
/// reports problems by line and column: the one JSON reader of the host, for payloads, attributes
/// and log lines alike. Foundation's `JSONSerialization` on Linux can read a number one unit in the
/// last place off (0.8599999999999999 as 0.8599999999999998), which would move bucket boundaries
/// and change copied values.
package struct JSONReader<Value: JSONReadable> {
    /// A problem and where it is.
    package struct Failure: Error, CustomStringConvertible {
        /// What is wrong.
        package let message: String
        /// Where: the line (from 1) …
        package let line: Int
        /// … and the column (from 1, in characters).
        package let column: Int
        /// Whether the text is not JSON at all; false for JSON that Remix cannot keep as it is.
        package var isSyntax = true

        /// `line L, column C: message`.
        package var description: String { "line \(line), column \(column): \(message)" }
    }

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    /// Reads `bytes` as one JSON value.
    package static func parse(_ bytes: [UInt8]) throws(Failure) -> Value {
        var reader = JSONReader(bytes: bytes)
        reader.skipSpace()
        let value = try reader.value()
        reader.skipSpace()
        guard reader.index == bytes.count else { throw reader.failure("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark is allowed before the value.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    private func failure(_ message: String) -> Failure {
        var line = 1
        var column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return Failure(message: message, line: line, column: column)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func value() throws(Failure) -> Value {
        guard let byte = current else { throw failure("the text ends where a value should be") }
        switch byte {
        case UInt8(ascii: "{"): return try nested { reader throws(Failure) in try reader.object() }
        case UInt8(ascii: "["): return try nested { reader throws(Failure) in try reader.array() }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("unexpected character '\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func nested(_ read: (inout JSONReader) throws(Failure) -> Value) throws(Failure) -> Value {
        depth += 1
        defer { depth -= 1 }
        guard depth <= 512 else { throw failure("the JSON nests deeper than 512 levels") }
        return try read(&self)
    }

    private mutating func literal(_ word: String, _ value: Value) throws(Failure) -> Value {
        let utf8 = Array(word.utf8)
        guard bytes.count - index >= utf8.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
            throw failure("expected '\(word)'")
        }
        index += utf8.count
        return value
    }

    private mutating func object() throws(Failure) -> Value {
        index += 1
        var members: [String: Value] = [:]
        skipSpace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members: members)
        }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a member name in double quotes") }
            let name = try string()
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':' after the member name") }
            index += 1
            skipSpace()
            members[name] = try value()
            skipSpace()
            if current == UInt8(ascii: ",") {
                index += 1
            } else if current == UInt8(ascii: "}") {
                index += 1
                return .object(members: members)
            } else {
                throw failure("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func array() throws(Failure) -> Value {
        index += 1
        var items: [Value] = []
        skipSpace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipSpace()
            items.append(try value())
            skipSpace()
            if current == UInt8(ascii: ",") {
                index += 1
            } else if current == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            } else {
                throw failure("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func number() throws(Failure) -> Value {
        let start = index
        func digits() -> Int {
            let first = index
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
            return index - first
        }
        if current == UInt8(ascii: "-") { index += 1 }
        let integer = index
        guard digits() > 0 else { throw failure("a number needs digits") }
        if bytes[integer] == UInt8(ascii: "0"), index - integer > 1 { throw failure("a number cannot start with 0") }
        var whole = true
        if current == UInt8(ascii: ".") {
            whole = false
            index += 1
            guard digits() > 0 else { throw failure("a number needs digits after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            whole = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw failure("a number needs digits in its exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw failure("the number is too large") }
        return .number(value, integer: whole ? Int(text) : nil)
    }

    private mutating func string() throws(Failure) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run = index
        func flush() { scalars.append(contentsOf: String(decoding: bytes[run..<index], as: UTF8.self).unicodeScalars) }
        while true {
            guard let byte = current else { throw failure("a string is not closed") }
            switch byte {
            case UInt8(ascii: "\""):
                flush()
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush()
                index += 1
                scalars.append(try escape())
                run = index
            case 0..<0x20:
                throw failure("a string holds a control character; escape it")
            default:
                index += 1
            }
        }
    }

    private mutating func escape() throws(Failure) -> Unicode.Scalar {
        let backslash = index - 1
        guard let byte = current else { throw failure("a string is not closed") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{8}"
        case UInt8(ascii: "f"): return "\u{C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try hex4()
            if (0xD800..<0xDC00).contains(high), bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
               bytes[index + 1] == UInt8(ascii: "u") {
                let save = index
                index += 2
                let low = try hex4()
                if (0xDC00..<0xE000).contains(low), let pair = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) {
                    return pair
                }
                index = save
            }
            // A lone surrogate is no character: a Swift string cannot hold it, and a replacement
            // would hash and compare unlike GrowthBook's JavaScript SDK, which keeps the code unit.
            guard let scalar = Unicode.Scalar(high) else {
                index = backslash
                let escape = String(decoding: bytes[backslash..<backslash + 6], as: UTF8.self)
                var refusal = failure("\(escape) is half of a UTF-16 surrogate pair without its other half, which Remix "
                                      + "cannot keep (GrowthBook's JavaScript SDK would hash it as it is); remove it, or "
                                      + "write the whole pair")
                refusal.isSyntax = false
                throw refusal
            }
            return scalar
        default:
            index -= 1
            throw failure("unknown escape '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard bytes.count - index >= 4 else { throw failure("\\u needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Character(Unicode.Scalar(bytes[index])).hexDigitValue else {
                throw failure("\\u needs four hex digits")
            }
            value = value * 16 + UInt32(digit)
            index += 1
        }
        return value
    }
}
