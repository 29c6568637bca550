/// The exact decimal value of a double (every finite double is a finite decimal), for SQL's
/// `numeric`: a cap sent this way compares and sums in the database exactly as the double does
/// in Swift. (`float8` → `numeric` in PostgreSQL keeps only 15 significant digits.)
package enum ExactDecimal {
    /// `value` in plain decimal notation with every digit; nil for infinities and NaN.
    package static func text(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        if value == 0 { return "0" }
        let sign = value < 0 ? "-" : ""
        // value = significand × 2^exponent with an integer significand.
        var significand = value.magnitude.significandBitPattern | (value.magnitude.isNormal ? 1 << 52 : 0)
        var exponent = Int(value.magnitude.exponent) - 52
        if !value.magnitude.isNormal { exponent = -1074 }
        while significand & 1 == 0 {
            significand >>= 1
            exponent += 1
        }
        var digits = BigDecimalDigits(significand)
        if exponent >= 0 {
            for _ in 0..<exponent { digits.multiply(by: 2) }
            return sign + digits.text
        }
        // significand / 2^k = significand × 5^k / 10^k.
        let places = -exponent
        for _ in 0..<places { digits.multiply(by: 5) }
        var text = digits.text
        if text.count <= places { text = String(repeating: "0", count: places - text.count + 1) + text }
        let point = text.index(text.endIndex, offsetBy: -places)
        return sign + text[..<point] + "." + text[point...]
    }
}

/// A non-negative integer in base 10⁹ limbs (least significant first), enough for the above.
private struct BigDecimalDigits {
    private var limbs: [UInt64]
    private static let base: UInt64 = 1_000_000_000

    init(_ value: UInt64) {
        limbs = [value % Self.base, (value / Self.base) % Self.base, value / Self.base / Self.base]
        while limbs.count > 1, limbs.last == 0 { limbs.removeLast() }
    }

    mutating func multiply(by factor: UInt64) {
        var carry: UInt64 = 0
        for index in limbs.indices {
            let product = limbs[index] * factor + carry
            limbs[index] = product % Self.base
            carry = product / Self.base
        }
        if carry > 0 { limbs.append(carry) }
    }

    var text: String {
        var text = String(limbs.last ?? 0)
        for limb in limbs.dropLast().reversed() {
            let part = String(limb)
            text += String(repeating: "0", count: 9 - part.count) + part
        }
        return text
    }
}

/// An exact decimal sum from a warehouse (decimal text) as a pair `high + low` of doubles: `high`
/// the nearest double, `low` the nearest to what is left, so that adding to it in ``ExactSum``
/// rounds as the exact sum would.
package enum DecimalPair {
    package static func split(_ text: String) -> (high: Double, low: Double)? {
        guard let high = Double(text), high.isFinite else { return nil }
        guard let exact = ExactDecimal.text(high), let rest = difference(text, exact), let low = Double(rest) else { return nil }
        return (high, low)
    }

    /// `a − b` of two decimal texts (optional sign, digits, optional point), as decimal text.
    package static func difference(_ a: String, _ b: String) -> String? {
        guard var x = parse(a), var y = parse(b) else { return nil }
        let scale = max(x.scale, y.scale)
        x.digits += Array(repeating: 0, count: scale - x.scale)
        y.digits += Array(repeating: 0, count: scale - y.scale)
        let width = max(x.digits.count, y.digits.count)
        x.digits = Array(repeating: 0, count: width - x.digits.count) + x.digits
        y.digits = Array(repeating: 0, count: width - y.digits.count) + y.digits
        y.negative.toggle()
        var negative = x.negative, digits: [Int]
        if x.negative == y.negative {
            digits = add(x.digits, y.digits)
        } else if x.digits.lexicographicallyPrecedes(y.digits) {
            digits = subtract(y.digits, x.digits)
            negative = y.negative
        } else {
            digits = subtract(x.digits, y.digits)
        }
        var text = digits.map(String.init).joined()
        if scale > 0 { text.insert(".", at: text.index(text.endIndex, offsetBy: -scale)) }
        return (negative ? "-" : "") + "0" + text
    }

    private static func parse(_ text: String) -> (negative: Bool, digits: [Int], scale: Int)? {
        var body = Substring(text), negative = false
        if body.first == "-" || body.first == "+" {
            negative = body.first == "-"
            body = body.dropFirst()
        }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, !body.isEmpty else { return nil }
        let whole = parts[0], fraction = parts.count == 2 ? parts[1] : ""
        guard (whole + fraction).allSatisfy(\.isASCII), (whole + fraction).allSatisfy(\.isNumber) else { return nil }
        return (negative, (whole + fraction).compactMap { $0.wholeNumberValue }, fraction.count)
    }

    private static func add(_ a: [Int], _ b: [Int]) -> [Int] {
        var result = Array(repeating: 0, count: a.count + 1), carry = 0
        for index in stride(from: a.count - 1, through: 0, by: -1) {
            let sum = a[index] + b[index] + carry
            result[index + 1] = sum % 10
            carry = sum / 10
        }
        result[0] = carry
        return result
    }

    /// `a − b` for `a` ≥ `b`.
    private static func subtract(_ a: [Int], _ b: [Int]) -> [Int] {
        var result = a, borrow = 0
        for index in stride(from: a.count - 1, through: 0, by: -1) {
            var digit = a[index] - b[index] - borrow
            borrow = digit < 0 ? 1 : 0
            if digit < 0 { digit += 10 }
            result[index] = digit
        }
        return result
    }
}
