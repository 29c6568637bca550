import Foundation

/// A quantile of per-unit values in one variation: gbstats' `QuantileStatistic`, with the
/// quantile's confidence bounds as GrowthBook's queries compute them (see `init(values:level:)`).
package struct QuantileSample: TestStatistic, Equatable {
    /// Values the quantile is taken over (gbstats' `n`).
    package var count: Int
    /// The sample size the bounds were computed for (GrowthBook's n*).
    package var nStar: Int
    /// The quantile's level, e.g. 0.9.
    package var level: Double
    package var quantile: Double
    package var lower: Double
    package var upper: Double

    /// norm.ppf(0.975) as SciPy gives it: GrowthBook's bounds are always at 95 %.
    package static let multiplier = 1.959963984540054
    /// GrowthBook's grid of n* (`N_STAR_VALUES`): 100 doubling to 52 428 800.
    package static let nStarGrid = (0..<20).map { 100 << $0 }

    package init(count: Int, nStar: Int, level: Double, quantile: Double, lower: Double, upper: Double) {
        self.count = count
        self.nStar = nStar
        self.level = level
        self.quantile = quantile
        self.lower = lower
        self.upper = upper
    }

    /// The `level` quantile of `values` and its bounds as GrowthBook computes them: n* is the
    /// largest grid size below the number of values (else the smallest), and the bounds are the
    /// sample quantiles at level ∓ z·√(level (1 − level) / n*), all with SQL's PERCENTILE_CONT.
    package init(values: [Double], level: Double) {
        let ordered = values.sorted()
        self.init(count: ordered.count, level: level) { ordered[$0] }
    }

    /// The same from the number of values and `rank`, the k-th smallest value (0-based), which is
    /// asked only for the ranks ``ranks(count:level:)`` lists.
    package init(count: Int, level: Double, rank: (Int) -> Double) {
        guard count > 0 else {
            self.init(count: 0, nStar: Self.nStarGrid[0], level: level, quantile: 0, lower: 0, upper: 0)
            return
        }
        let (nStar, levels) = Self.levels(count: count, level: level)
        self.init(count: count, nStar: nStar, level: level, quantile: Self.percentile(count: count, levels[0], rank: rank),
                  lower: Self.percentile(count: count, levels[1], rank: rank),
                  upper: Self.percentile(count: count, levels[2], rank: rank))
    }

    /// n* and the levels of the quantile and of its lower and upper bounds.
    private static func levels(count: Int, level: Double) -> (nStar: Int, levels: [Double]) {
        let nStar = nStarGrid.last { $0 < count } ?? nStarGrid[0]
        let spread = multiplier * (level * (1 - level) / Double(nStar)).squareRoot()
        return (nStar, [level, max(level - spread, 0.00000001), min(level + spread, 0.99999999)])
    }

    /// The ranks (0-based, ascending, distinct) of the values the statistic of `count` values reads.
    package static func ranks(count: Int, level: Double) -> [Int] {
        guard count > 0 else { return [] }
        return Array(Set(levels(count: count, level: level).levels.flatMap { percentileRanks(count: count, $0) })).sorted()
    }

    /// The two ranks PERCENTILE_CONT at `q` reads of `count` values.
    package static func percentileRanks(count: Int, _ q: Double) -> [Int] {
        let below = Int((Double(count - 1) * q).rounded(.down))
        return [below, min(below + 1, count - 1)]
    }

    /// PERCENTILE_CONT of sorted values: linear interpolation at (count − 1)·q, from the nearer end
    /// as NumPy's `quantile` does, so both give the same double.
    package static func percentile(_ ordered: [Double], _ q: Double) -> Double {
        percentile(count: ordered.count, q) { ordered[$0] }
    }

    /// The same of `count` values of which `rank` gives the k-th smallest.
    package static func percentile(count: Int, _ q: Double, rank: (Int) -> Double) -> Double {
        let position = Double(count - 1) * q
        let below = Int(position.rounded(.down))
        let fraction = position - Double(below)
        let a = rank(below), b = rank(min(below + 1, count - 1))
        let difference = b - a
        return fraction >= 0.5 ? b - difference * (1 - fraction) : a + difference * fraction
    }

    package var n: Double { Double(count) }
    package var mean: Double { quantile }

    /// The variance of the quantile scaled to one value, from the width of its bounds.
    package var varianceInit: Double {
        guard count > 1 else { return 0 }
        let width = (upper - lower) / (2 * Self.multiplier)
        return Double(nStar) / Double(count) * (n - 1) * pow(width, 2)
    }

    package var variance: Double { count < 100 ? varianceInit : max(varianceInit, 1e-5) }

    /// Too few values for the bounds to lie inside (0, 1), or bounds of zero width on few values.
    package var hasZeroVariance: Bool { Self.hasZeroVariance(n: n, level: level, varianceInit: varianceInit) }

    package static func hasZeroVariance(n: Double, level: Double, varianceInit: Double) -> Bool {
        let square = pow(multiplier, 2)
        if n <= square * level / (1 - level) || n <= square * (1 - level) / level { return true }
        return varianceInit <= 0 && n < 1000
    }
}

/// A quantile of event values whose units hold several events: gbstats'
/// `QuantileClusteredStatistic`, the event-level quantile with its variance widened for the
/// clustering of events in units. Per unit, the sums count its events at or below the quantile
/// (main) and all its events (denominator).
package struct ClusteredQuantileSample: TestStatistic, Equatable {
    /// The quantile over all events (its `count` is the number of events).
    package var events: QuantileSample
    package var mainSum: Double
    package var mainSumSquares: Double
    package var denominatorSum: Double
    package var denominatorSumSquares: Double
    package var mainDenominatorProducts: Double
    /// Units (gbstats' `n_clusters`).
    package var units: Int

    /// The event-level statistic from each unit's event values, with GrowthBook's bounds.
    package init(unitEvents: [[Double]], level: Double) {
        let events = QuantileSample(values: unitEvents.flatMap { $0 }, level: level)
        self.init(events: events, clusters: unitEvents.map { values in
            (Double(values.reduce(0) { $1 <= events.quantile ? $0 + 1 : $0 }), Double(values.count))
        })
    }

    /// The event-level statistic from a flat list of event values and the unit of each: the
    /// clusters are the units with at least one event.
    package init(events values: [Double], units: [Int32], level: Double) {
        let events = QuantileSample(values: values, level: level)
        var perUnit: [Int32: (below: Double, count: Double)] = [:]
        for (value, unit) in zip(values, units) {
            perUnit[unit, default: (0, 0)].count += 1
            if value <= events.quantile { perUnit[unit, default: (0, 0)].below += 1 }
        }
        self.init(events: events, clusters: perUnit.values.sorted { ($0.below, $0.count) < ($1.below, $1.count) })
    }

    /// The statistic from each cluster's count of events at or below the quantile and of all its events.
    private init(events: QuantileSample, clusters: [(below: Double, count: Double)]) {
        var main = 0.0, mainSquares = 0.0, denominator = 0.0, denominatorSquares = 0.0, products = 0.0
        for (below, count) in clusters {
            main += below
            mainSquares += below * below
            denominator += count
            denominatorSquares += count * count
            products += count * below
        }
        self.init(events: events, mainSum: main, mainSumSquares: mainSquares, denominatorSum: denominator,
                  denominatorSumSquares: denominatorSquares, mainDenominatorProducts: products, units: clusters.count)
    }

    package init(events: QuantileSample, mainSum: Double, mainSumSquares: Double, denominatorSum: Double,
         denominatorSumSquares: Double, mainDenominatorProducts: Double, units: Int) {
        self.events = events
        self.mainSum = mainSum
        self.mainSumSquares = mainSumSquares
        self.denominatorSum = denominatorSum
        self.denominatorSumSquares = denominatorSumSquares
        self.mainDenominatorProducts = mainDenominatorProducts
        self.units = units
    }

    package var n: Double { events.n }
    package var mean: Double { events.quantile }

    /// The independent-events variance scaled by the clustered over the independent variance of
    /// the share of events below the quantile (a ratio by the delta method).
    package var varianceInit: Double {
        guard events.count > 1, events.level != 0, units > 1, denominatorSum > 0 else { return 0 }
        let independent = events.level * (1 - events.level) / events.n
        return events.varianceInit * clusterVariance / independent
    }

    private var clusterVariance: Double {
        let clusters = Double(units)
        let meanMain = mainSum / clusters, meanDenominator = denominatorSum / clusters
        let varianceMain = (mainSumSquares / clusters - meanMain * meanMain) * clusters / (clusters - 1)
        let varianceDenominator = (denominatorSumSquares / clusters - meanDenominator * meanDenominator) * clusters / (clusters - 1)
        let covariance = (mainDenominatorProducts / clusters - meanMain * meanDenominator) * clusters / (clusters - 1)
        let numerator = varianceMain - 2 * meanMain * covariance / meanDenominator
            + pow(meanMain, 2) * varianceDenominator / pow(meanDenominator, 2)
        return numerator / (clusters * pow(meanDenominator, 2))
    }

    package var variance: Double { events.count < 100 ? varianceInit : max(varianceInit, 1e-5) }

    package var hasZeroVariance: Bool {
        QuantileSample.hasZeroVariance(n: n, level: events.level, varianceInit: varianceInit)
    }
}
