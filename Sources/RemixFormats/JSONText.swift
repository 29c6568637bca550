/// JSON text for reports and payloads written by hand: string literals and numbers, in one place.
package enum JSONText {
    /// `text` as a JSON string literal (RFC 8259 escapes; other characters as they are).
    package static func quoted(_ text: String) -> String {
        "\"" + escaped(text, quotes: true, allControls: false) + "\""
    }

    /// `text` as a JSON string literal that prints as it reads: DEL and the C1 controls
    /// (U+007F–U+009F), which JSON allows raw and a terminal may obey, are escaped too.
    package static func printableQuoted(_ text: String) -> String {
        "\"" + escaped(text, quotes: true, allControls: true) + "\""
    }

    /// `text` with every control character — C0, DEL and C1 — written as its JSON escape (`\n`,
    /// `\u001b`): printed, a name from a log or a file shows what it holds instead of moving the
    /// cursor, clearing the screen or retitling the window. Everything else stays as it is.
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

    /// A C0 control, DEL or a C1 control.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) }

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
