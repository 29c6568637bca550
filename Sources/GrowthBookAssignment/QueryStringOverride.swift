/// GrowthBook's `getQueryStringOverride`: a URL query parameter named after an experiment's key
/// (`?my-test=1`) forces that variation.
package enum QueryStringOverride {
    /// The forced variation for `experimentKey` in `url`, or `nil` when the URL names none or
    /// names one outside `0 ..< variationCount`. Only the text between the first and second `?`
    /// counts, an anchor (`#…`) is ignored, and the value is read like JavaScript's `parseInt`.
    package static func variation(forExperiment experimentKey: String, url: String, variationCount: Int) -> Int? {
        let pieces = url.split(separator: "?", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count > 1, !pieces[1].isEmpty else { return nil }
        var search = pieces[1]
        if let anchor = search.firstIndex(of: "#") {
            let lineEnd = search[anchor...].firstIndex(where: { $0.isNewline }) ?? search.endIndex
            search = search[..<anchor] + search[lineEnd...]
        }
        for pair in search.split(separator: "&", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts[0] == experimentKey else { continue }
            // `kv.split("=", 2)` keeps at most two pieces and drops the rest.
            let rawValue = parts.count > 1 ? parts[1].prefix { $0 != "=" } : nil
            guard let value = rawValue.flatMap({ parseInteger(String($0)) }),
                  value >= 0, value < variationCount
            else { return nil }
            return value
        }
        return nil
    }

    /// JavaScript's `parseInt(text)` (radix 10, or 16 after `0x`), saturating instead of
    /// overflowing; `nil` for NaN.
    static func parseInteger(_ text: String) -> Int? {
        var scalars = Substring(text).unicodeScalars.drop { JavaScriptNumber.isWhitespace($0) }
        var negative = false
        if let sign = scalars.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            scalars = scalars.dropFirst()
        }
        var radix = 10
        if scalars.starts(with: ["0", "x"]) || scalars.starts(with: ["0", "X"]) {
            radix = 16
            scalars = scalars.dropFirst(2)
        }
        var value = 0
        var digits = 0
        for scalar in scalars {
            guard let digit = Int(String(scalar), radix: radix) else { break }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: radix)
            value = overflow ? Int.max : min(shifted, Int.max - digit) + digit
            digits += 1
        }
        guard digits > 0 else { return nil }
        return negative ? -value : value
    }
}
