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
