import Foundation
import RemixKit
import RemixStatistics

/// One arm's tally in one period (the time between two bandit updates): units first exposed in
/// it, and the sum and sum of squares of their metric values.
package struct BanditTally: Sendable, Equatable {
    package var units = 0
    package var sum = 0.0
    package var sumSquares = 0.0

    package init(units: Int = 0, sum: Double = 0, sumSquares: Double = 0) {
        self.units = units
        self.sum = sum
        self.sumSquares = sumSquares
    }

    /// Adds one unit's value.
    package mutating func add(_ value: Double) {
        units += 1
        sum += value
        sumSquares += value * value
    }

    /// The sample variance (n − 1), 0 when there is at most one unit.
    var variance: Double {
        guard units > 1 else { return 0 }
        let n = Double(units)
        return max(0, (sumSquares - sum * sum / n) / (n - 1))
    }
}

/// An arm's period-weighted estimate: each period's mean weighted by that period's share of all
/// units, its variance Σ w_p² var_p / n_p (GrowthBook's bandit statistics, against Simpson's
/// paradox when weights and rates both drift).
package struct BanditEstimate: Sendable, Equatable {
    package var units: Int
    package var mean: Double
    package var variance: Double

    package init(units: Int, mean: Double, variance: Double) {
        self.units = units
        self.mean = mean
        self.variance = variance
    }
}

/// A Gaussian posterior of an arm's mean.
package struct BanditPosterior: Sendable, Equatable {
    package var mean: Double
    package var sd: Double

    package init(mean: Double, sd: Double) {
        self.mean = mean
        self.sd = sd
    }
}

/// The statistics of a bandit update (docs/bandits.md), as GrowthBook's gbstats bandits: period-
/// weighted estimates, Gaussian posteriors with a vague proper prior N(0, 10⁴), each arm's
/// probability of being best by seeded Monte Carlo, weights floored and renormalised.
package enum BanditStatistics {
    /// GrowthBook's minimum units per arm before the weights move.
    package static let minimumUnits = 100
    /// Monte Carlo draws per update (gbstats' 10 000).
    package static let draws = 10_000
    /// The vague prior: N(0, 10⁴).
    package static let priorMean = 0.0
    package static let priorVariance = 10_000.0

    /// Period-weighted estimates per arm; `tallies[arm][period]`.
    package static func estimates(_ tallies: [[BanditTally]]) -> [BanditEstimate] {
        let periods = tallies.map(\.count).max() ?? 0
        let periodTotals = (0..<periods).map { period in
            tallies.reduce(0) { $0 + (period < $1.count ? $1[period].units : 0) }
        }
        let total = Double(periodTotals.reduce(0, +))
        return tallies.map { arm in
            var mean = 0.0
            var variance = 0.0
            for (period, tally) in arm.enumerated() where tally.units > 0 && total > 0 {
                let share = Double(periodTotals[period]) / total
                mean += share * tally.sum / Double(tally.units)
                variance += share * share * tally.variance / Double(tally.units)
            }
            return BanditEstimate(units: arm.reduce(0) { $0 + $1.units }, mean: mean, variance: variance)
        }
    }

    /// The posterior of an arm's mean: prior precision plus data precision (n / variance of a unit,
    /// i.e. 1 / variance of the mean); an arm without variance keeps the prior's weight only.
    package static func posterior(_ estimate: BanditEstimate) -> BanditPosterior {
        let priorPrecision = 1 / priorVariance
        let dataPrecision = estimate.variance > 0 ? 1 / estimate.variance : 0
        let precision = priorPrecision + dataPrecision
        let mean = (priorPrecision * priorMean + dataPrecision * estimate.mean) / precision
        return BanditPosterior(mean: dataPrecision > 0 ? mean : estimate.mean, sd: (1 / precision).squareRoot())
    }

    /// Each arm's share of `draws` seeded draws from the posteriors in which it is best (highest,
    /// or lowest when `inverse`); ties go to the first arm. Same seed, same shares.
    package static func bestProbabilities(_ posteriors: [BanditPosterior], inverse: Bool, seed: UInt64,
                                          draws: Int = BanditStatistics.draws) -> [Double] {
        guard !posteriors.isEmpty, draws > 0 else { return [] }
        var generator = SeededGenerator(seed: seed)
        var wins = [Int](repeating: 0, count: posteriors.count)
        for _ in 0..<draws {
            var best = 0
            var bestValue = -Double.infinity
            for (arm, posterior) in posteriors.enumerated() {
                let value = (inverse ? -1 : 1) * (posterior.mean + posterior.sd * standardNormal(&generator))
                if value > bestValue {
                    best = arm
                    bestValue = value
                }
            }
            wins[best] += 1
        }
        return wins.map { Double($0) / Double(draws) }
    }

    /// The bandit's sample ratio test: expected units of an arm Σ_p (units in period p) × (its weight
    /// in p), chi-square against the observed; `weights[period][arm]`. Nil without units.
    package static func srmPValue(_ tallies: [[BanditTally]], weights: [[Double]]) -> Double? {
        let arms = tallies.count
        guard arms >= 2 else { return nil }
        var expected = [Double](repeating: 0, count: arms)
        for (period, periodWeights) in weights.enumerated() where periodWeights.count == arms {
            let total = tallies.reduce(0) { $0 + (period < $1.count ? $1[period].units : 0) }
            for arm in 0..<arms { expected[arm] += Double(total) * periodWeights[arm] }
        }
        let observed = tallies.map { $0.reduce(0) { $0 + $1.units } }
        guard observed.reduce(0, +) > 0 else { return nil }
        return SampleRatio.pValue(observed: observed, weights: expected)
    }

    /// A standard normal draw (Box–Muller on two uniforms in (0, 1]).
    private static func standardNormal(_ generator: inout SeededGenerator) -> Double {
        let first = (Double(generator.next() >> 11) + 1) * 0x1.0p-53
        let second = Double(generator.next() >> 11) * 0x1.0p-53
        return (-2 * Foundation.log(first)).squareRoot() * cos(2 * Double.pi * second)
    }
}
