/// Why a log line was not counted.
package enum BadLineReason: Sendable, Equatable, CustomStringConvertible {
    /// Not JSON: the first byte (1-based) where the syntax breaks.
    case syntax(byte: Int)
    /// JSON, but not an object.
    case notAnObject
    case invalidUTF8(byte: Int)
    /// A raw byte below 0x20 (NUL, tab, …) inside a string.
    case controlCharacter(byte: Int)
    /// A backslash escape JSON does not have.
    case badEscape(byte: Int)
    /// A `\u` escape of a lone surrogate in a field the analysis reads (it has no UTF-8 form).
    case loneSurrogate
    case tooDeep(limit: Int)
    /// Longer than ``LogReader/Sizes/maxLineLength`` bytes; the reader skipped to the next newline.
    case tooLong(limit: Int)
    /// A field every event has (`ts`, `type`, `user`) is missing or not a string.
    case missing(field: String)
    /// `ts` is not an RFC 3339 date and time (as `CivilTime.milliseconds` reads it); holds its start.
    case badTimestamp(String)

    package var description: String {
        switch self {
        case .syntax(let byte): "not JSON (syntax error at byte \(byte))"
        case .notAnObject: "not a JSON object"
        case .invalidUTF8(let byte): "invalid UTF-8 at byte \(byte)"
        case .controlCharacter(let byte): "raw control character in a string at byte \(byte)"
        case .badEscape(let byte): "bad escape at byte \(byte)"
        case .loneSurrogate: "a \\u escape of a lone surrogate in a field the analysis reads"
        case .tooDeep(let limit): "nested deeper than \(limit) levels"
        case .tooLong(let limit): "longer than \(limit) bytes (skipped to the next newline)"
        case .missing(let field): "no \"\(field)\" string"
        case .badTimestamp(let text): "\"ts\" \"\(text)\" is not a valid RFC 3339 date and time"
        }
    }
}

/// A line that was not counted: which file (`stdin` for `-`), its line number there, and why.
package struct BadLine: Sendable, Equatable, CustomStringConvertible {
    package var path: String
    package var line: Int
    package var reason: BadLineReason

    package init(path: String, line: Int, reason: BadLineReason) {
        self.path = path
        self.line = line
        self.reason = reason
    }

    package var description: String { "\(path):\(line): \(reason)" }
}
