/// JSON text for reports and payloads written by hand: string literals and numbers, in one place.
public enum JSONText {
    /// `text` as a JSON string literal (RFC 8259 escapes; other characters as they are).
    public static func quoted(_ text: String) -> String {
        quoted(text, escapingAlso: { _ in false })
    }

    /// `text` as a JSON string literal that also writes the characters `escapingAlso` picks as
    /// `\uXXXX` escapes — for a reader that would take them raw for something else (YAML reads
    /// U+2028 in a quoted string as a line break).
    public static func quoted(_ text: String, escapingAlso extra: (Unicode.Scalar) -> Bool) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || extra(scalar):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// The shortest round-trip decimal of `value`; integral values without `.0`; non-finite → `null`.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
