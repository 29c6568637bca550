/// JSON text for reports and payloads written by hand: string literals and numbers, in one place.
package enum JSONText {
    /// `text` as a JSON string literal (RFC 8259 escapes; other characters as they are).
    package static func quoted(_ text: String) -> String {
        "\"" + escaped(text, quotes: true, allControls: false) + "\""
    }

    /// `text` as a JSON string literal that prints as it reads: DEL, the C1 controls (U+007F–U+009F)
    /// and the bidi and line-separator controls (``isInvisibleControl(_:)``), which JSON allows raw
    /// and a terminal or an editor may obey, are escaped too.
    package static func printableQuoted(_ text: String) -> String {
        "\"" + escaped(text, quotes: true, allControls: true) + "\""
    }

    /// `text` with every control character — C0, DEL, C1 and the bidi and line-separator controls —
    /// written as its JSON escape (`\n`, `\u001b`, `\u202e`): printed, a name from a log or a file
    /// shows what it holds instead of moving the cursor, clearing the screen, retitling the window,
    /// reversing the text after it or starting a line. Everything else stays as it is.
    package static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return escaped(text, quotes: false, allControls: true)
    }

    /// The shortest round-trip decimal of `value`; integral values without `.0`; non-finite → `null`.
    package static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// A C0 control, DEL, a C1 control (U+0085, the next line, among them) or an invisible control.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || isInvisibleControl(scalar)
    }

    /// A control that reorders or breaks the text around it without showing itself: the bidi
    /// marks, embeddings, overrides and isolates (U+061C, U+200E, U+200F, U+202A–U+202E,
    /// U+2066–U+2069: "Trojan Source") and the line and paragraph separators (U+2028, U+2029).
    package static func isInvisibleControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }

    /// `text` with its C0 controls escaped (and DEL and C1 with `allControls`; `"` and `\` with `quotes`).
    private static func escaped(_ text: String, quotes: Bool, allControls: Bool) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"" where quotes: out += "\\\""
            case "\\" where quotes: out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || (allControls && isControl(scalar)):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
