import Foundation

/// Turns terms and their sum into sum view data, the sum spelled out in English words.
public enum SumFormatter {
    /// Terms echoed (nothing for a missing term), the result in words ("six").
    public static func prepare(terms: SumTerms, sum: Int?) -> SumViewData {
        SumViewData(left: terms.left.map(String.init) ?? "", right: terms.right.map(String.init) ?? "",
                    result: sum.map(spellOut) ?? "too large")
    }

    /// `n` in English words, e.g. 42 → "forty-two", 1 999 → "one thousand nine hundred ninety-nine"
    /// (the words of ICU's en spell-out, without building an ICU rule set for each sum: that cost
    /// a millisecond a sum and made Calculator the slowest app to simulate).
    public static func spellOut(_ n: Int) -> String {
        if n == 0 { return "zero" }
        // ICU has no words from a quintillion up: it writes the digits, grouped (and Int.min with
        // a hyphen-minus rather than "minus").
        if n.magnitude >= 1_000_000_000_000_000_000 {
            let digits = String(n.magnitude)
            var grouped = ""
            for (index, digit) in digits.enumerated() {
                if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
                grouped.append(digit)
            }
            return n == .min ? "-" + grouped : (n < 0 ? "minus " : "") + grouped
        }
        var groups: [String] = []
        var rest = n.magnitude
        var scale = 0
        while rest > 0 {
            let group = Int(rest % 1000)
            if group > 0 { groups.append(scales[scale].isEmpty ? hundreds(group) : hundreds(group) + " " + scales[scale]) }
            rest /= 1000
            scale += 1
        }
        return (n < 0 ? "minus " : "") + groups.reversed().joined(separator: " ")
    }

    private static let ones = ["", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                               "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
    private static let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
    private static let scales = ["", "thousand", "million", "billion", "trillion", "quadrillion"]

    /// 1…999 in words.
    private static func hundreds(_ n: Int) -> String {
        let below = n % 100
        let tail = below < 20 ? ones[below] : tens[below / 10] + (below % 10 == 0 ? "" : "-" + ones[below % 10])
        guard n >= 100 else { return tail }
        return ones[n / 100] + " hundred" + (tail.isEmpty ? "" : " " + tail)
    }
}
