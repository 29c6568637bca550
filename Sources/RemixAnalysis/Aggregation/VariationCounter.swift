/// Counts one experiment's units per variation: metric conversions at or after the first
/// exposure, screens reached after it, and time from it to the first primary-metric event at or
/// after it. Units exposed to more than one variation are excluded and counted apart; units of a
/// variation without a slot (one the experiment file does not declare) are counted apart too.
struct VariationCounter {
    private(set) var units: [Int]
    private(set) var multiple = 0
    /// Units per logged variation (tally index) that has no slot.
    private(set) var unslotted: [Int: Int] = [:]
    private var conversions: [[Int]]
    private var screenUnits: [[Int]]
    private var otherScreenUnits: [Int]
    private var durations: [[Int64]]
    /// Converted units whose time to conversion was not kept (see ``EarliestTimes``).
    private var unknownDurations: [Int]
    private let metrics: [String]
    private let screenNames: [String]
    private let hasOtherScreens: Bool

    init(tally: LogTally, experiment: LogTally.ExperimentTally, slots: [Int: Int], variationCount: Int,
         metrics: [String]) {
        self.metrics = metrics
        let screens = tally.screens
        screenNames = (0..<screens.names.count).map { screens.names.string($0) }
        hasOtherScreens = screens.overflowed
        units = Array(repeating: 0, count: variationCount)
        conversions = Array(repeating: Array(repeating: 0, count: metrics.count), count: variationCount)
        screenUnits = Array(repeating: Array(repeating: 0, count: screenNames.count), count: variationCount)
        otherScreenUnits = Array(repeating: 0, count: variationCount)
        durations = Array(repeating: [], count: variationCount)
        unknownDurations = Array(repeating: 0, count: variationCount)
        let trackedIndex = metrics.map { tally.tracked.firstIndex(of: $0) }
        for (unit, exposure) in experiment.exposures.enumerated() {
            if exposure.variation == LogTally.Exposure.multiple {
                multiple += 1
                continue
            }
            guard exposure.variation >= 0 else { continue }
            guard let slot = slots[Int(exposure.variation)] else {
                unslotted[Int(exposure.variation), default: 0] += 1
                continue
            }
            units[slot] += 1
            for (metric, index) in trackedIndex.enumerated() {
                guard let index, unit < tally.lastTimes[index].count, tally.lastTimes[index][unit] >= exposure.first
                else { continue }
                conversions[slot][metric] += 1
                if metric == 0, let earliest = tally.earliestTimes[index] {
                    switch earliest.firstTime(unit: unit, atOrAfter: exposure.first) {
                    case .time(let time): durations[slot].append(time - exposure.first)
                    case .unknown: unknownDurations[slot] += 1
                    case .none: break
                    }
                }
            }
            for screen in screenNames.indices where unit < screens.lastShown[screen].count
                && screens.lastShown[screen][unit] >= exposure.first {
                screenUnits[slot][screen] += 1
            }
            if unit < screens.otherLastShown.count, screens.otherLastShown[unit] >= exposure.first {
                otherScreenUnits[slot] += 1
            }
        }
    }

    func metricCounts(slot: Int) -> [AnalysisReport.MetricCount] {
        metrics.enumerated().map { index, metric in
            let count = conversions[slot][index]
            return .init(metric: metric, conversions: count, rate: units[slot] > 0 ? Double(count) / Double(units[slot]) : 0)
        }
    }

    /// Screens by units reached (most first), then "other screens" when the funnel overflowed.
    func funnel(slot: Int) -> [AnalysisReport.FunnelStep] {
        func step(_ name: String, _ count: Int) -> AnalysisReport.FunnelStep {
            AnalysisReport.FunnelStep(screen: name, units: count, share: units[slot] > 0 ? Double(count) / Double(units[slot]) : 0)
        }
        let steps = screenNames.indices.map { step(screenNames[$0], screenUnits[slot][$0]) }
            .filter { $0.units > 0 }
            .sorted { ($0.units, $1.screen) > ($1.units, $0.screen) }
        let other = hasOtherScreens && otherScreenUnits[slot] > 0 ? [step(ScreenTally.otherName, otherScreenUnits[slot])] : []
        return steps + other
    }

    func conversionTime(slot: Int) -> AnalysisReport.ConversionTime {
        let sorted = durations[slot].sorted()
        guard !sorted.isEmpty else {
            return .init(count: 0, medianSeconds: nil, p90Seconds: nil, unknown: unknownDurations[slot])
        }
        return .init(count: sorted.count, medianSeconds: Self.quantile(sorted, 0.5), p90Seconds: Self.quantile(sorted, 0.9),
                     unknown: unknownDurations[slot])
    }

    /// The linear-interpolation quantile (as numpy's default) in seconds.
    static func quantile(_ sorted: [Int64], _ q: Double) -> Double {
        let position = q * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down)), upper = min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return (Double(sorted[lower]) + (Double(sorted[upper]) - Double(sorted[lower])) * fraction) / 1000
    }
}
