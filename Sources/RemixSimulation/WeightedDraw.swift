import RemixKit

/// Weights prepared once for drawing an index with chances proportional to them: the scaled
/// shares and their sum are worked out when made, so that a draw (one per user, attribute and
/// attempt, among weights that never change) is one random number and one pass.
///
/// The weights are scaled by the power of two that brings the largest into [1, 2): their sum
/// then neither overflows (three weights of 10³⁰⁸ made it infinite, and every draw the last)
/// nor loses the precision subnormal weights lack (two of 5·10⁻³²⁴ split 25/75). Scaling by a
/// power of two is exact for any weights a file would give, so every draw is the one unscaled
/// weights gave, and logs stay as they were.
struct WeightedDraw: Sendable, Equatable {
    /// The weights scaled by the power of two that brings the largest into [1, 2).
    private let shares: [Double]
    /// Their sum, added in order.
    private let total: Double

    init(_ weights: [Double]) {
        let largest = weights.reduce(0) { max($0, $1) }
        let exponent = largest > 0 ? -Int(largest.exponent) : 0
        shares = weights.map { Double(sign: .plus, exponent: exponent, significand: $0) }
        total = shares.reduce(0) { $0 + $1 }
    }

    /// The index drawn, with chances proportional to the weights (the last one when rounding
    /// leaves the point past the end).
    func pick(_ random: inout SeededGenerator) -> Int {
        var point = Double(random.next() >> 11) * 0x1.0p-53 * total
        for index in shares.indices {
            if point < shares[index] { return index }
            point -= shares[index]
        }
        return shares.count - 1
    }
}
