/// Counts one experiment's units per variation: metric conversions at or after the first
/// exposure, screens reached after it, and time to the primary conversion. Units exposed to more
/// than one variation are excluded and counted apart.
struct VariationCounter {
    private(set) var units: [Int]
    private(set) var multiple = 0
    private var conversions: [[Int]]
    private var screenUnits: [[Int]]
    private var durations: [[Int64]]
    private let metrics: [String]
    private let screenNames: [String]

    init(tally: LogTally, experiment: LogTally.ExperimentTally, slots: [Int: Int], variationCount: Int,
         metrics: [String]) {
        self.metrics = metrics
        screenNames = (0..<tally.screens.count).map { tally.screens.string($0) }
        units = Array(repeating: 0, count: variationCount)
        conversions = Array(repeating: Array(repeating: 0, count: metrics.count), count: variationCount)
        screenUnits = Array(repeating: Array(repeating: 0, count: tally.screens.count), count: variationCount)
        durations = Array(repeating: [], count: variationCount)
        let trackedIndex = metrics.map { tally.tracked.firstIndex(of: $0) }
        for (unit, exposure) in experiment.exposures.enumerated() {
            if exposure.variation == LogTally.Exposure.multiple {
                multiple += 1
                continue
            }
            guard exposure.variation >= 0, let slot = slots[Int(exposure.variation)] else { continue }
            units[slot] += 1
            for (metric, index) in trackedIndex.enumerated() {
                guard let index, unit < tally.lastTimes[index].count, tally.lastTimes[index][unit] >= exposure.first
                else { continue }
                conversions[slot][metric] += 1
                if metric == 0 {
                    let first = tally.firstTimes[index][unit]
                    durations[slot].append((first >= exposure.first ? first : tally.lastTimes[index][unit]) - exposure.first)
                }
            }
            for screen in 0..<tally.screens.count where unit < tally.screenTimes[screen].count
                && tally.screenTimes[screen][unit] >= exposure.first {
                screenUnits[slot][screen] += 1
            }
        }
    }

    func metricCounts(slot: Int) -> [AnalysisReport.MetricCount] {
        metrics.enumerated().map { index, metric in
            let count = conversions[slot][index]
            return .init(metric: metric, conversions: count, rate: units[slot] > 0 ? Double(count) / Double(units[slot]) : 0)
        }
    }

    func funnel(slot: Int) -> [AnalysisReport.FunnelStep] {
        screenNames.indices.map { screen in
            AnalysisReport.FunnelStep(screen: screenNames[screen], units: screenUnits[slot][screen],
                                      share: units[slot] > 0 ? Double(screenUnits[slot][screen]) / Double(units[slot]) : 0)
        }
        .filter { $0.units > 0 }
        .sorted { ($0.units, $1.screen) > ($1.units, $0.screen) }
    }

    func conversionTime(slot: Int) -> AnalysisReport.ConversionTime {
        let sorted = durations[slot].sorted()
        guard !sorted.isEmpty else { return .init(count: 0, medianSeconds: nil, p90Seconds: nil) }
        return .init(count: sorted.count, medianSeconds: Self.quantile(sorted, 0.5), p90Seconds: Self.quantile(sorted, 0.9))
    }

    /// The linear-interpolation quantile (as numpy's default) in seconds.
    static func quantile(_ sorted: [Int64], _ q: Double) -> Double {
        let position = q * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down)), upper = min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return (Double(sorted[lower]) + (Double(sorted[upper]) - Double(sorted[lower])) * fraction) / 1000
    }
}
