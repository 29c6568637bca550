import Foundation

/// A JavaScript regular expression (no flags, or `i`) compiled for ICU's engine.
///
/// ICU and JavaScript agree on most syntax; the translation covers the differences that
/// change results: `\d`, `\w` and their negations are ASCII-only in JavaScript, `$` matches
/// only at the very end, `[^]` and `[]` are legal, and `{`, `}`, `]` or a `[` inside a class
/// may stand for themselves. A pattern neither engine accepts fails to compile.
struct JavaScriptRegex: Sendable {
    private let expression: NSRegularExpression

    /// Compiles `pattern`; `nil` when it is not a valid regular expression.
    init?(pattern: String, caseInsensitive: Bool) {
        let translated = Self.translate(pattern)
        let options: NSRegularExpression.Options = caseInsensitive ? [.caseInsensitive] : []
        guard let expression = try? NSRegularExpression(pattern: translated, options: options) else {
            return nil
        }
        self.expression = expression
    }

    /// JavaScript's `regex.test(text)`: whether the pattern matches anywhere in `text`.
    func test(_ text: String) -> Bool {
        let range = NSRange(location: 0, length: text.utf16.count)
        return expression.firstMatch(in: text, options: [], range: range) != nil
    }

    static func translate(_ pattern: String) -> String {
        let scalars = Array(pattern.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        var inClass = false
        func emit(_ text: String) { out.append(contentsOf: text.unicodeScalars) }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\\", index + 1 < scalars.count {
                emit(translateEscape(scalars[index + 1], inClass: inClass))
                index += 2
                continue
            }
            if inClass {
                switch scalar {
                case "]": inClass = false; emit("]")
                case "[": emit("\\[")
                case "&": emit("\\&")
                default: out.append(scalar)
                }
                index += 1
                continue
            }
            switch scalar {
            case "[":
                let rest = scalars[(index + 1)...]
                if rest.starts(with: ["^", "]"]) {
                    emit("[\\s\\S]")
                    index += 3
                    continue
                }
                if rest.first == "]" {
                    emit("(?!)")
                    index += 2
                    continue
                }
                inClass = true
                emit("[")
                if rest.first == "^" {
                    emit("^")
                    index += 1
                }
            case "$": emit("\\z")
            case "]": emit("\\]")
            case "}": emit("\\}")
            case "{":
                if let length = quantifierLength(scalars, at: index) {
                    out.append(contentsOf: scalars[index..<(index + length)])
                    index += length
                    continue
                }
                emit("\\{")
            default:
                out.append(scalar)
            }
            index += 1
        }
        return String(out)
    }

    private static func translateEscape(_ letter: Unicode.Scalar, inClass: Bool) -> String {
        switch letter {
        case "d": return inClass ? "0-9" : "[0-9]"
        case "D": return "[^0-9]"
        case "w": return inClass ? "A-Za-z0-9_" : "[A-Za-z0-9_]"
        case "W": return "[^A-Za-z0-9_]"
        default: return "\\" + String(letter)
        }
    }

    /// The length of a `{n}`, `{n,}` or `{n,m}` quantifier starting at `start`, if it is one.
    private static func quantifierLength(_ scalars: [Unicode.Scalar], at start: Int) -> Int? {
        var index = start + 1
        func digits() -> Int {
            let first = index
            while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
            return index - first
        }
        guard digits() > 0 else { return nil }
        if index < scalars.count, scalars[index] == "," {
            index += 1
            _ = digits()
        }
        guard index < scalars.count, scalars[index] == "}" else { return nil }
        return index - start + 1
    }
}
