/// The power of two a metric part's per-unit values are divided by before a variation's sums are
/// taken, so that the sums of the values, of their squares and of numerator × denominator products
/// stay finite however large the values: a mean of 3.4e306 over 100 units has a sum past the
/// largest double, any value past 1.3e154 a square past it, and the delta method's variance of a
/// lift divides by the baseline's mean to the fourth power. It is 0 — the values as they are,
/// computed exactly as gbstats computes them — unless the largest value passes 2^200 (1.6e60).
/// Dividing by a power of two is exact, so every relative figure (lift, CI, p-value, chance to win)
/// is the one the unscaled values would give; a variation's figure and absolute differences are
/// multiplied back (``AnalysisReport/MetricCount``'s `scale`).
package enum ValueScale {
    /// Values up to this are used as they are: a fourth power stays below 2^800, and n·(2^200)²
    /// below 2^440 up to 2^40 units.
    static let largestUnscaled = 0x1p200

    /// The exponent for values at most `largest` in magnitude; nil when that is not finite (a
    /// unit's own sum of the field passed the largest double).
    static func exponent(largest: Double) -> Int? {
        guard largest.isFinite else { return nil }
        guard largest > largestUnscaled else { return 0 }
        return Int(largest.exponent) - 199
    }

    /// 2^`exponent`.
    package static func factor(_ exponent: Int) -> Double { Double(sign: .plus, exponent: exponent, significand: 1) }

    /// Why a metric has no figure when a unit's sum of `field` is not finite.
    static func overflowMessage(field: String) -> String {
        "a unit's sum of \(field) passes the largest double (1.8e308): no figure or comparison"
    }

    /// Why a comparison has no result when one of its figures (an absolute difference, its
    /// interval) passes the largest double.
    static let differenceOverflowMessage = "a figure of this comparison passes the largest double (1.8e308): no result"
}
