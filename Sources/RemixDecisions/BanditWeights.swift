import RemixAnalysis

extension BanditStatistics {
    /// The rule: each probability floored at `minWeight`, then all renormalised to sum 1.
    /// (GrowthBook today floors additively, p = f + (1 − n f) w; see docs/bandits.md.) Renormalising
    /// can push a floored arm a little below the floor, so flooring repeats until none is.
    package static func weights(_ probabilities: [Double], minWeight: Double) -> [Double] {
        guard !probabilities.isEmpty else { return [] }
        let floor = min(minWeight, 1 / Double(probabilities.count))
        var weights = probabilities
        for _ in 0..<probabilities.count + 1 {
            weights = weights.map { max($0, floor) }
            let total = weights.reduce(0, +)
            weights = weights.map { $0 / total }
            if weights.allSatisfy({ $0 >= floor - 1e-12 }) { break }
            // Hold the floored arms at the floor and share the rest among the others.
            let floored = weights.indices.filter { weights[$0] <= floor + 1e-12 }
            let free = 1 - floor * Double(floored.count)
            let others = weights.indices.filter { !floored.contains($0) }.reduce(0) { $0 + weights[$1] }
            weights = weights.indices.map { floored.contains($0) ? floor : weights[$0] / others * free }
        }
        return weights
    }

    /// Whether every arm has at least ``minimumUnits`` units.
    package static func enoughUnits(_ estimates: [BanditEstimate]) -> Bool {
        !estimates.isEmpty && estimates.allSatisfy { $0.units >= minimumUnits }
    }
}

/// One arm's figures at a bandit update.
package struct BanditArmUpdate: Sendable, Equatable {
    package var units: Int
    package var weight: Double
    package var bestProbability: Double
    package var posterior: BanditPosterior
}

extension BanditStatistics {
    /// A whole update from `tallies[arm][period]`: nil until every arm has ``minimumUnits`` units
    /// (the weights stay as they are), else each arm's units, posterior, probability of being best
    /// and new weight.
    package static func update(_ tallies: [[BanditTally]], inverse: Bool, minWeight: Double,
                               seed: UInt64, draws: Int = BanditStatistics.draws) -> [BanditArmUpdate]? {
        let estimates = estimates(tallies)
        guard enoughUnits(estimates) else { return nil }
        let posteriors = estimates.map(posterior)
        let best = bestProbabilities(posteriors, inverse: inverse, seed: seed, draws: draws)
        let weights = weights(best, minWeight: minWeight)
        return estimates.indices.map { arm in
            BanditArmUpdate(units: estimates[arm].units, weight: weights[arm], bestProbability: best[arm],
                            posterior: posteriors[arm])
        }
    }
}
