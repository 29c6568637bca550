import Foundation

/// Turns terms and their sum into sum view data, the sum spelled out in English words.
public enum SumFormatter {
    /// Terms echoed (nothing for a missing term), the result in words ("six").
    public static func prepare(terms: SumTerms, sum: Int?) -> SumViewData {
        SumViewData(left: terms.left.map(String.init) ?? "", right: terms.right.map(String.init) ?? "",
                    result: sum.map(spellOut) ?? "too large")
    }

    /// `n` in English words, e.g. 42 → "forty-two".
    public static func spellOut(_ n: Int) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .spellOut
        formatter.locale = Locale(identifier: "en_US")
        return formatter.string(from: NSNumber(value: n)) ?? String(n)
    }
}
