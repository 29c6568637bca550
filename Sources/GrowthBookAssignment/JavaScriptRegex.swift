import Foundation

/// A JavaScript regular expression (no flags, or `i`) compiled for ICU's engine.
///
/// ICU and JavaScript agree on most syntax; the translation covers the differences that
/// change results: `\d`, `\w` and their negations are ASCII-only in JavaScript, `$` matches
/// only at the very end, `[^]` and `[]` are legal, and `{`, `}`, `]` or a `[` inside a class
/// may stand for themselves. A pattern neither engine accepts fails to compile.
///
/// A test gives up after ``RegexBudget/maxSteps`` backtracking steps, which ICU counts
/// deterministically, so a pattern such as `(a+)+$` cannot hang on a long input.
package struct JavaScriptRegex: Sendable {
    /// The pattern as written.
    let pattern: String
    /// Whether the pattern is `$regexi`'s.
    let caseInsensitive: Bool
    private let expression: NSRegularExpression
    /// Whether `expression` is the pattern behind a lazy any-prefix, searched anchored at 0: then
    /// every progress report ICU makes is backtracking work, none is a new start position.
    private let prefixed: Bool

    /// Compiles `pattern`; `nil` when it is not a valid regular expression.
    package init?(pattern: String, caseInsensitive: Bool) {
        // ICU refuses an empty pattern, which JavaScript reads as `(?:)`.
        let translated = pattern.isEmpty ? "(?:)" : Self.translate(pattern)
        let options: NSRegularExpression.Options = caseInsensitive ? [.caseInsensitive] : []
        guard let expression = try? NSRegularExpression(pattern: translated, options: options) else {
            return nil
        }
        self.pattern = pattern
        self.caseInsensitive = caseInsensitive
        // `[\s\S]*?(?:P)` at 0 finds what searching for P finds; if ICU reads the wrapped
        // pattern differently (e.g. after an open `\Q`), the search counts start positions too.
        if let wrapped = try? NSRegularExpression(pattern: "[\\s\\S]*?(?:" + translated + ")", options: options) {
            self.expression = wrapped
            prefixed = true
        } else {
            self.expression = expression
            prefixed = false
        }
    }

    /// JavaScript's `regex.test(text)`: whether the pattern matches anywhere in `text`; `nil`
    /// when the search gave up after the step budget.
    func test(_ text: String) -> Bool? {
        let length = text.utf16.count
        // ICU reports progress every 10 000 saved states, and (searching unanchored) at each new
        // start position, of which there are at most `length`.
        let reports = RegexBudget.maxSteps / RegexBudget.stepsPerReport + (prefixed ? 0 : length)
        var seen = 0
        var matched = false
        var gaveUp = false
        unsafe expression.enumerateMatches(in: text, options: prefixed ? [.reportProgress, .anchored] : [.reportProgress],
                                    range: NSRange(location: 0, length: length)) { result, flags, stop in
            if result != nil {
                matched = true
                unsafe stop.pointee = true
            } else if flags.contains(.progress) {
                seen += 1
                if seen > reports {
                    gaveUp = true
                    unsafe stop.pointee = true
                }
            }
        }
        return gaveUp ? nil : matched
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
