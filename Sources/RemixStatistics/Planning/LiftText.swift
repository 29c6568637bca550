import Foundation

/// A relative lift as `plan` and its messages write it.
package enum LiftText {
    /// A fraction as a signed percent: `+3.00 %`; below 0.005 % and from 1,000,000 % on with three
    /// significant digits (`+1e+08 %`), and beyond what a double holds in percent still a number
    /// (1e308 is `+1e+310 %`), never `inf`.
    package static func signedPercent(_ fraction: Double) -> String {
        let percent = fraction * 100
        if percent.isFinite || !fraction.isFinite {
            return String(format: abs(fraction) < 0.00005 || abs(fraction) >= 1e4 ? "%+.3g %%" : "%+.2f %%", percent)
        }
        // The fraction's digits, its exponent two higher.
        let parts = String(format: "%+.2e", fraction).split(separator: "e")
        guard parts.count == 2, let mantissa = Double(parts[0]), let exponent = Int(parts[1]) else { return "\(fraction) × 100 %" }
        return String(format: "%+.3g", mantissa) + "e+\(exponent + 2) %"
    }
}
