/// YAML text written by hand (experiment files, fitted populations): scalars that read back
/// exactly as they were, and numbers a YAML 1.1 reader takes for floats.
public enum YAMLText {
    /// A double-quoted string that reads back as `text`: JSON's escapes (valid in YAML), and
    /// escaped as well what YAML would not read as it is — NEL, U+2028 and U+2029 are line breaks
    /// there (folded into a space), and DEL, the C1 controls, U+FEFF, U+FFFE and U+FFFF are not
    /// printable.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || Self.unprintable(scalar.value):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private static func unprintable(_ value: UInt32) -> Bool {
        switch value {
        case 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF: true
        default: false
        }
    }

    /// A string value: plain when it cannot be read as anything else, otherwise double-quoted.
    public static func scalar(_ text: String) -> String {
        isPlainSafe(text, allowDollar: false) ? text : quoted(text)
    }

    /// A mapping key: plain when safe (including `$or`), otherwise double-quoted.
    public static func key(_ text: String) -> String {
        isPlainSafe(text, allowDollar: true) ? text : quoted(text)
    }

    /// A number as YAML reads it back: integers plain, others with a fraction before any exponent.
    public static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return float(String(value))
    }

    /// `1e-05` → `1.0e-05`: YAML 1.1 resolvers need the fraction to read a float.
    public static func float(_ text: String) -> String {
        if text.contains(".") { return text }
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return text + ".0" }
        return text[..<e] + ".0" + text[e...]
    }

    private static let reserved: Set<String> = ["true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"]

    private static func isPlainSafe(_ text: String, allowDollar: Bool) -> Bool {
        guard let first = text.unicodeScalars.first, !reserved.contains(text.lowercased()) else { return false }
        let letter = ("a"..."z").contains(first) || ("A"..."Z").contains(first) || first == "_"
        guard letter || (allowDollar && first == "$") else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || "_-./".unicodeScalars.contains(scalar) || (allowDollar && scalar == "$")
        }
    }
}
