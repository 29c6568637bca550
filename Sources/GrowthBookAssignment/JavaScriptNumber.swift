/// JavaScript's conversions between numbers and strings (ECMA-262 Number::toString and
/// StringToNumber), which GrowthBook relies on whenever a condition mixes numbers and strings.
enum JavaScriptNumber {
    /// `String(x)` in JavaScript: shortest round-trip digits, laid out by JavaScript's rules.
    static func string(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value == 0 { return "0" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value < 0 { return "-" + string(-value) }
        if value < 9_007_199_254_740_992, value.rounded(.towardZero) == value {
            return String(Int64(value))
        }
        let (digits, pointPosition) = shortestDigits(value)
        return layout(digits: digits, pointPosition: pointPosition)
    }

    /// `Number(s)` in JavaScript: whitespace-trimmed decimal, `Infinity`, or `0x`/`0o`/`0b`
    /// literal; an empty string is 0 and anything else is NaN.
    static func parse(_ text: String) -> Double {
        let scalars = Array(text.unicodeScalars)
        var start = 0
        var end = scalars.count
        while start < end, isWhitespace(scalars[start]) { start += 1 }
        while end > start, isWhitespace(scalars[end - 1]) { end -= 1 }
        if start == end { return 0 }
        let body = scalars[start..<end]
        if let radixValue = parseRadixLiteral(body) { return radixValue }
        var unsigned = body
        var sign = 1.0
        if let first = unsigned.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            unsigned = unsigned.dropFirst()
        }
        if unsigned.elementsEqual("Infinity".unicodeScalars) { return sign * .infinity }
        guard isDecimalLiteral(unsigned) else { return .nan }
        var literal = String.UnicodeScalarView()
        literal.append(contentsOf: body)
        return Double(String(literal)) ?? .nan
    }

    /// Whether `scalar` is JavaScript white space or a line terminator.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
            return true
        case 0x2000...0x200A:
            return true
        default:
            return false
        }
    }

    private static func shortestDigits(_ value: Double) -> (digits: [UInt8], pointPosition: Int) {
        // Swift's description is the shortest string that round-trips, like JavaScript's.
        let text = value.description.utf8
        var mantissa: [UInt8] = []
        var pointIndex: Int?
        var exponent = 0
        var exponentSign = 1
        var inExponent = false
        for byte in text {
            switch byte {
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                inExponent = true
            case UInt8(ascii: "-") where inExponent:
                exponentSign = -1
            case UInt8(ascii: "+"):
                continue
            case UInt8(ascii: "."):
                pointIndex = mantissa.count
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if inExponent {
                    exponent = exponent * 10 + Int(byte - UInt8(ascii: "0"))
                } else {
                    mantissa.append(byte)
                }
            default:
                continue
            }
        }
        var position = (pointIndex ?? mantissa.count) + exponentSign * exponent
        var leading = 0
        while leading < mantissa.count - 1, mantissa[leading] == UInt8(ascii: "0") {
            leading += 1
            position -= 1
        }
        var digits = Array(mantissa[leading...])
        while digits.count > 1, digits.last == UInt8(ascii: "0") {
            digits.removeLast()
        }
        return (digits, position)
    }

    private static func layout(digits: [UInt8], pointPosition n: Int) -> String {
        let k = digits.count
        let zero = UInt8(ascii: "0")
        var out: [UInt8] = []
        if k <= n, n <= 21 {
            out = digits + [UInt8](repeating: zero, count: n - k)
        } else if n > 0, n <= 21 {
            out = Array(digits[..<n]) + [UInt8(ascii: ".")] + Array(digits[n...])
        } else if n > -6, n <= 0 {
            out = [zero, UInt8(ascii: ".")] + [UInt8](repeating: zero, count: -n) + digits
        } else {
            let exponent = n - 1
            out = [digits[0]]
            if k > 1 {
                out.append(UInt8(ascii: "."))
                out.append(contentsOf: digits[1...])
            }
            out.append(UInt8(ascii: "e"))
            out.append(exponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            out.append(contentsOf: Array(String(abs(exponent)).utf8))
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func parseRadixLiteral(_ body: ArraySlice<Unicode.Scalar>) -> Double? {
        guard body.count > 2, body.first == "0" else { return nil }
        let marker = body[body.startIndex + 1]
        let radix: UInt32
        switch marker {
        case "x", "X": radix = 16
        case "o", "O": radix = 8
        case "b", "B": radix = 2
        default: return nil
        }
        var result = 0.0
        for scalar in body.dropFirst(2) {
            guard let digit = digitValue(scalar), digit < radix else { return .nan }
            result = result * Double(radix) + Double(digit)
        }
        return result
    }

    private static func digitValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar.value {
        case 0x30...0x39: return scalar.value - 0x30
        case 0x41...0x46: return scalar.value - 0x41 + 10
        case 0x61...0x66: return scalar.value - 0x61 + 10
        default: return nil
        }
    }

    /// `digits ["." digits] | "." digits`, then an optional exponent.
    private static func isDecimalLiteral(_ body: ArraySlice<Unicode.Scalar>) -> Bool {
        var index = body.startIndex
        let end = body.endIndex
        func isDigit(_ i: Int) -> Bool { i < end && (0x30...0x39).contains(body[i].value) }
        var integerDigits = 0
        while isDigit(index) { index += 1; integerDigits += 1 }
        var fractionDigits = 0
        if index < end, body[index] == "." {
            index += 1
            while isDigit(index) { index += 1; fractionDigits += 1 }
        }
        guard integerDigits + fractionDigits > 0 else { return false }
        if index < end, body[index] == "e" || body[index] == "E" {
            index += 1
            if index < end, body[index] == "+" || body[index] == "-" { index += 1 }
            var exponentDigits = 0
            while isDigit(index) { index += 1; exponentDigits += 1 }
            guard exponentDigits > 0 else { return false }
        }
        return index == end
    }
}
