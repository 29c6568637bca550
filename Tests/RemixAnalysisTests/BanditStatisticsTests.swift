import Foundation
import RemixAnalysis
import RemixDecisions
import RemixKit
import Testing

/// The bandit statistics alone (docs/bandits.md): period weighting, posteriors, seeded best-arm
/// probabilities, the floor, bandit SRM, and the loop on synthetic arms.
@Suite struct BanditStatisticsTests {
    @Test func periodWeightedMeanAndVarianceFollowEachPeriodsShareOfAllUnits() {
        // Period 0: 100 units (arm 0: 50 at 0.2, arm 1: 50 at 0.4); period 1: 300 units (arm 0: 30 at 0.1, arm 1: 270 at 0.3).
        let tallies = [[Self.proportion(50, 10), Self.proportion(30, 3)], [Self.proportion(50, 20), Self.proportion(270, 81)]]
        let estimates = BanditStatistics.estimates(tallies)
        #expect(abs(estimates[0].mean - (0.25 * 0.2 + 0.75 * 0.1)) < 1e-12)
        #expect(abs(estimates[1].mean - (0.25 * 0.4 + 0.75 * 0.3)) < 1e-12)
        let variance0 = 0.0625 * (0.2 * 0.8 * 50 / 49) / 50 + 0.5625 * (0.1 * 0.9 * 30 / 29) / 30
        #expect(abs(estimates[0].variance - variance0) < 1e-12)
        #expect(estimates.map(\.units) == [80, 320])
        // The pooled means (0.1625, 0.3125) differ from the period-weighted ones: the weights moved.
    }

    @Test func posteriorCombinesTheVaguePriorWithTheData() {
        let posterior = BanditStatistics.posterior(BanditEstimate(units: 100, mean: 0.3, variance: 0.0021))
        let precision = 1 / 10_000.0 + 1 / 0.0021
        #expect(abs(posterior.sd - (1 / precision).squareRoot()) < 1e-15)
        #expect(abs(posterior.mean - (0.3 / 0.0021) / precision) < 1e-15)
    }

    @Test func bestProbabilitiesAreSeededAndFavourTheBetterArm() {
        let posteriors = [BanditPosterior(mean: 0.10, sd: 0.01), BanditPosterior(mean: 0.12, sd: 0.01)]
        let first: [Double] = BanditStatistics.bestProbabilities(posteriors, inverse: false, seed: 7)
        let again: [Double] = BanditStatistics.bestProbabilities(posteriors, inverse: false, seed: 7)
        #expect(first == again)
        let total: Double = first.reduce(0, +)
        #expect(abs(total - 1) < 1e-12)
        // P(N(0.12, 0.01) > N(0.10, 0.01)) = Φ(0.02 / √0.0002) ≈ 0.921.
        let better: Double = first[1]
        #expect(abs(better - 0.921) < 0.01)
        let inverse: [Double] = BanditStatistics.bestProbabilities(posteriors, inverse: true, seed: 7)
        let inverseBetter: Double = inverse[0]
        #expect(abs(inverseBetter - 0.921) < 0.01)
    }

    @Test func weightsAreFlooredAndRenormalised() {
        let weights: [Double] = BanditStatistics.weights([0.999, 0.001, 0], minWeight: 0.05)
        let floor: Double = 0.05 - 1e-12
        #expect(weights.allSatisfy { (weight: Double) -> Bool in weight >= floor })
        let total: Double = weights.reduce(0, +)
        #expect(abs(total - 1) < 1e-12)
        let largest: Double = weights[0]
        #expect(abs(largest - 0.9) < 1e-9)
        let even: [Double] = BanditStatistics.weights([0.5, 0.5], minWeight: 0.01)
        let half: [Double] = [0.5, 0.5]
        #expect(even == half)
    }

    @Test func noUpdateUntilEveryArmHasAHundredUnits() {
        let few = [[Self.proportion(99, 10)], [Self.proportion(400, 40)]]
        #expect(BanditStatistics.update(few, inverse: false, minWeight: 0.01, seed: 1) == nil)
        let enough = [[Self.proportion(100, 10)], [Self.proportion(400, 40)]]
        #expect(BanditStatistics.update(enough, inverse: false, minWeight: 0.01, seed: 1)?.count == 2)
    }

    @Test func banditSampleRatioUsesEachPeriodsWeights() throws {
        // 1000 units at 50/50, then 1000 at 90/10: expected 1400 and 600.
        let tallies = [[BanditTally(units: 500), BanditTally(units: 900)], [BanditTally(units: 500), BanditTally(units: 100)]]
        let fair = try #require(BanditStatistics.srmPValue(tallies, weights: [[0.5, 0.5], [0.9, 0.1]]))
        #expect(fair > 0.99)
        let pooled = try #require(BanditStatistics.srmPValue(tallies, weights: [[0.5, 0.5], [0.5, 0.5]]))
        #expect(pooled < 0.001)
    }

    @Test func aClearlyBetterArmEndsWithMostTrafficAndLessRegretThanAnEqualSplit() throws {
        let run = SyntheticBandit(rates: [0.10, 0.10, 0.16], seed: 11).run(periods: 12, unitsPerPeriod: 600, draws: 2000)
        let last = try #require(run.weights.last)
        #expect(last[2] >= 0.8)
        #expect(run.weights.allSatisfy { $0.allSatisfy { $0 >= 0.01 - 1e-12 } })
        let equalRegret = Double(run.units) * (0.16 - (0.10 + 0.10 + 0.16) / 3)
        #expect(run.regret < equalRegret)
    }

    @Test func anAABanditKeepsTheFalsePositiveRateAndSampleRatioAtAlpha() {
        var falsePositives = 0
        var srmAlarms = 0
        let runs = 200
        for seed in 0..<runs {
            let run = SyntheticBandit(rates: [0.2, 0.2], seed: UInt64(seed) + 1000).run(periods: 6, unitsPerPeriod: 400, draws: 1000)
            let estimates = BanditStatistics.estimates(run.tallies)
            let z = (estimates[1].mean - estimates[0].mean) / (estimates[0].variance + estimates[1].variance).squareRoot()
            if abs(z) > 1.959964 { falsePositives += 1 }
            if let p = BanditStatistics.srmPValue(run.tallies, weights: run.weights), p < 0.05 { srmAlarms += 1 }
        }
        print("bandit A/A: \(falsePositives) of \(runs) false positives, \(srmAlarms) SRM alarms at α = 0.05")
        // α = 0.05 over 200 runs: 10 expected, 3 binomial standard deviations allow 19.
        #expect(falsePositives <= 19)
        #expect(srmAlarms <= 19)
    }

    static func proportion(_ units: Int, _ conversions: Int) -> BanditTally {
        BanditTally(units: units, sum: Double(conversions), sumSquares: Double(conversions))
    }
}

/// Bernoulli arms run through the bandit's statistics loop: each period's units are assigned by
/// the weights in force, then the weights are updated from all periods so far.
struct SyntheticBandit {
    var rates: [Double]
    var seed: UInt64

    struct Run {
        var tallies: [[BanditTally]]
        /// The weights in force in each period.
        var weights: [[Double]]
        var units: Int
        /// Σ over units of (best rate − the rate of the unit's arm).
        var regret: Double
    }

    func run(periods: Int, unitsPerPeriod: Int, draws: Int) -> Run {
        var generator = SeededGenerator(seed: seed)
        var tallies = rates.map { _ in [BanditTally]() }
        var weights = rates.map { _ in 1 / Double(rates.count) }
        var history: [[Double]] = []
        var regret = 0.0
        let best = rates.max() ?? 0
        for period in 0..<periods {
            history.append(weights)
            for arm in tallies.indices { tallies[arm].append(BanditTally()) }
            for _ in 0..<unitsPerPeriod {
                let draw = Double(generator.next() >> 11) * 0x1.0p-53
                var arm = 0
                var cumulative = weights[0]
                while draw >= cumulative, arm < weights.count - 1 {
                    arm += 1
                    cumulative += weights[arm]
                }
                let converted = Double(generator.next() >> 11) * 0x1.0p-53 < rates[arm]
                tallies[arm][period].add(converted ? 1 : 0)
                regret += best - rates[arm]
            }
            if let update = BanditStatistics.update(tallies, inverse: false, minWeight: 0.01, seed: seed &+ UInt64(period),
                                                    draws: draws) {
                weights = update.map(\.weight)
            }
        }
        return Run(tallies: tallies, weights: history, units: periods * unitsPerPeriod, regret: regret)
    }
}
