import RemixStatistics

/// Counts one experiment's units per variation: metric conversions at or after the first
/// exposure, screens reached after it, and time from it to the first primary-metric event at or
/// after it. Units exposed to more than one variation are excluded and counted apart; units of a
/// variation without a slot (one the experiment file does not declare) are counted apart too.
struct VariationCounter: ExperimentFigures {
    private(set) var units: [Int]
    private(set) var multiple = 0
    /// The earliest and latest first exposure of the counted units.
    private(set) var exposureSpan: ClosedRange<Int64>?
    /// Units per logged variation (tally index) that has no slot.
    private(set) var unslotted: [Int: Int] = [:]
    /// Slot → metric → sums over the slot's units.
    private var accumulators: [[MetricAccumulator]]
    private var readers: [MetricReader]
    private var screenUnits: [[Int]]
    private var otherScreenUnits: [Int]
    private var durations: [[Int64]]
    /// Converted units whose time to conversion was not kept (see ``EarliestTimes``).
    private var unknownDurations: [Int]
    private let screenNames: [String]
    private let hasOtherScreens: Bool
    /// Only these units count (a dimension's slice); nil counts every unit.
    private let include: ((Int) -> Bool)?

    init(tally: LogTally, experiment: LogTally.ExperimentTally, experimentIndex: Int, slots: [Int: Int],
         variationCount: Int, metrics: [MetricDefinition], catalog: MetricCatalog, values: ValueTally?,
         include: ((Int) -> Bool)? = nil) {
        self.include = include
        var readers = metrics.map { MetricReader($0, catalog: catalog, tally: tally, values: values) }
        if let values {
            for index in readers.indices {
                Self.resolvePercentileCaps(&readers[index], values: values, experiment: experiment,
                                           experimentIndex: experimentIndex, slots: slots, include: include)
                Self.resolveScales(&readers[index], values: values, experimentIndex: experimentIndex)
            }
        }
        self.readers = readers
        let screens = tally.screens
        screenNames = (0..<screens.names.count).map { screens.names.string($0) }
        hasOtherScreens = screens.overflowed
        units = Array(repeating: 0, count: variationCount)
        accumulators = Array(repeating: Array(repeating: MetricAccumulator(), count: metrics.count), count: variationCount)
        screenUnits = Array(repeating: Array(repeating: 0, count: screenNames.count), count: variationCount)
        otherScreenUnits = Array(repeating: 0, count: variationCount)
        durations = Array(repeating: [], count: variationCount)
        unknownDurations = Array(repeating: 0, count: variationCount)
        // What the unit loop reads, without reference-counted parts: copying a reader (its
        // definition's strings) or the value tally for every unit and metric costs more than the rest.
        let plans = readers.map { UnitPlan($0, timed: $0.tracked.map { tally.earliestTimes[$0] != nil } ?? false) }
        let sums: [ValueTally.Sums] = values?.sums[experimentIndex] ?? []
        experiment.exposures.forEach { unit, place, exposure in
            if let include, !include(unit) { return }
            if exposure.variation == LogTally.Exposure.multiple {
                multiple += 1
                return
            }
            guard exposure.variation >= 0 else { return }
            guard let slot = slots[Int(exposure.variation)] else {
                unslotted[Int(exposure.variation), default: 0] += 1
                return
            }
            units[slot] += 1
            exposureSpan = exposureSpan.map { min($0.lowerBound, exposure.first)...max($0.upperBound, exposure.first) }
                ?? exposure.first...exposure.first
            for metric in plans.indices {
                let plan = plans[metric]
                if let first = plan.first, !sums.isEmpty {
                    let (value, count) = Self.value(first, sums, place: place)
                    let second = plan.second.map { Self.value($0, sums, place: place).value }
                    accumulators[slot][metric].add(value, count: count, second: second, keepValue: plan.keepsValue)
                    continue
                }
                guard let index = plan.tracked, unit < tally.lastTimes[index].count,
                      tally.lastTimes[index][unit] >= exposure.first else { continue }
                accumulators[slot][metric].conversions += 1
                if metric == 0, plan.timed {
                    switch tally.earliestTimes[index]?.firstTime(unit: unit, atOrAfter: exposure.first) {
                    case .time(let time): durations[slot].append(time - exposure.first)
                    case .unknown: unknownDurations[slot] += 1
                    case .some(.none), nil: break
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
        // Events without a value are counted per variation over the whole experiment, not per unit.
        if include == nil { countMissing(values: values, experimentIndex: experimentIndex, slots: slots) }
        if let values { addEventQuantiles(values: values, experiment: experiment, experimentIndex: experimentIndex, slots: slots) }
    }

    /// Sets each part's percentile cap to that percentile (SQL's PERCENTILE_CONT) of the part's
    /// uncapped per-unit values over all the experiment's counted units, every variation
    /// together, as GrowthBook computes it; a CUPED covariate is capped at the same value.
    private static func resolvePercentileCaps(_ reader: inout MetricReader, values: ValueTally,
                                              experiment: LogTally.ExperimentTally, experimentIndex: Int, slots: [Int: Int],
                                              include: ((Int) -> Bool)?) {
        func cap(_ part: MetricReader.Part) -> Double? {
            guard let level = part.definition.capPercentile else { return part.cap }
            var all: [Double] = []
            experiment.exposures.forEach { unit, place, exposure in
                guard exposure.variation >= 0, slots[Int(exposure.variation)] != nil, include?(unit) != false else { return }
                all.append(MetricReader.value(part, values: values, experiment: experimentIndex, place: place, capped: false).value)
            }
            all.sort()
            return all.isEmpty ? nil : QuantileSample.percentile(all, level)
        }
        if let first = reader.first { reader.first?.cap = cap(first) }
        if let second = reader.second { reader.second?.cap = cap(second) }
        if reader.pre != nil { reader.pre?.cap = reader.first?.cap }
    }

    /// Sets each part's ``ValueScale`` from the largest of its values over the experiment's units
    /// (a CUPED covariate shares its metric's), or the reader's error when a unit's sum is not finite.
    private static func resolveScales(_ reader: inout MetricReader, values: ValueTally, experimentIndex: Int) {
        func exponent(_ part: MetricReader.Part?) -> Int {
            // Proportions (0 or 1) and counts of events are never large.
            guard let part, part.definition.kind != .proportion, let field = part.definition.value else { return 0 }
            let largest = values.largestMagnitude(experiment: experimentIndex, column: part.column)
            guard let exponent = ValueScale.exponent(largest: largest) else {
                reader.error = ValueScale.overflowMessage(field: field)
                return 0
            }
            return exponent
        }
        let first = exponent(reader.first), second = exponent(reader.second), pre = exponent(reader.pre)
        reader.first?.exponent = reader.pre == nil ? first : max(first, pre)
        reader.second?.exponent = second
        reader.pre?.exponent = reader.first?.exponent ?? 0
    }

    /// One metric as the unit loop reads it.
    private struct UnitPlan {
        /// The first pass's tracked index of a plain proportion's event.
        var tracked: Int?
        /// Whether that event's earliest times are kept (time to conversion).
        var timed: Bool
        var first: PartPlan?
        /// A ratio's denominator or a CUPED covariate.
        var second: PartPlan?
        /// A unit-level quantile keeps each unit's value.
        var keepsValue: Bool

        init(_ reader: MetricReader, timed: Bool) {
            tracked = reader.tracked
            self.timed = timed
            first = reader.first.map(PartPlan.init)
            second = (reader.second ?? reader.pre).map(PartPlan.init)
            keepsValue = reader.definition.kind == .quantile && reader.definition.level == .unit
        }
    }

    /// A metric part as ``MetricReader/value(_:values:experiment:place:capped:)`` reads it.
    private struct PartPlan {
        var column: Int
        var proportion: Bool
        var countsEvents: Bool
        var cap: Double?
        /// What a value is multiplied by after its cap (``ValueScale``): 1 but for huge values.
        var factor: Double

        init(_ part: MetricReader.Part) {
            column = part.column
            proportion = part.definition.kind == .proportion
            countsEvents = part.definition.value == nil
            cap = part.cap
            factor = ValueScale.factor(-part.exponent)
        }
    }

    /// A part's capped value for the unit in exposure slot `place` and its number of events, from
    /// the experiment's sums.
    @inline(__always)
    private static func value(_ part: PartPlan, _ sums: [ValueTally.Sums], place: Int) -> (value: Double, count: Int) {
        let count = place < sums[part.column].count.count ? Int(sums[part.column].count[place]) : 0
        var value: Double
        if part.proportion {
            value = count > 0 ? 1 : 0
        } else if part.countsEvents {
            value = Double(count)
        } else {
            value = place < sums[part.column].sum.count ? sums[part.column].sum[place] : 0
        }
        if let cap = part.cap { value = min(value, cap) }
        if part.factor != 1 { value *= part.factor }
        return (value, count)
    }

    /// Event-level quantiles from the events the value pass kept, per slot.
    private mutating func addEventQuantiles(values: ValueTally, experiment: LogTally.ExperimentTally,
                                            experimentIndex: Int, slots: [Int: Int]) {
        for (metric, reader) in readers.enumerated() {
            guard reader.definition.kind == .quantile, reader.definition.level == .event, let part = reader.first else { continue }
            let sums = values.sums[experimentIndex][part.column]
            let factor = ValueScale.factor(-part.exponent)
            var slotValues = Array(repeating: [Double](), count: units.count)
            var slotUnits = Array(repeating: [Int32](), count: units.count)
            for (unit, value) in zip(sums.eventUnits, sums.eventValues) {
                guard let variation = experiment.exposures.exposure(of: Int(unit)).map({ Int($0.exposure.variation) }),
                      variation >= 0, let slot = slots[variation], include?(Int(unit)) != false else { continue }
                slotValues[slot].append(factor == 1 ? value : value * factor)
                slotUnits[slot].append(unit)
            }
            for slot in units.indices {
                accumulators[slot][metric].clustered = ClusteredQuantileSample(
                    events: slotValues[slot], units: slotUnits[slot], level: reader.definition.quantile ?? 0.5)
            }
        }
    }

    /// Adds the events without a usable value field, per slot, for the metrics that sum one.
    private mutating func countMissing(values: ValueTally?, experimentIndex: Int, slots: [Int: Int]) {
        guard let values else { return }
        for (metric, reader) in readers.enumerated() {
            guard let part = reader.first, part.definition.kind != .proportion, part.definition.value != nil else { continue }
            let sums = values.sums[experimentIndex][part.column]
            for (tallyIndex, slot) in slots {
                if tallyIndex < sums.missing.count { accumulators[slot][metric].missing += sums.missing[tallyIndex] }
                if tallyIndex < sums.notNumber.count { accumulators[slot][metric].nonNumeric += sums.notNumber[tallyIndex] }
            }
        }
    }

    func metricCounts(slot: Int) -> [AnalysisReport.MetricCount] {
        readers.enumerated().map { index, reader in
            accumulators[slot][index].metricCount(reader.definition, first: reader.first?.definition,
                                                  second: reader.second?.definition, adjusted: reader.pre != nil,
                                                  units: units[slot], scale: reader.figureExponent, error: reader.error)
        }
    }

    /// Screens by units reached (most first), then "other screens" when the funnel overflowed.
    func funnel(slot: Int) -> [AnalysisReport.FunnelStep] {
        Self.funnel(names: screenNames, units: screenUnits[slot], other: hasOtherScreens ? otherScreenUnits[slot] : nil,
                    of: units[slot])
    }

    /// Funnel steps from units per screen name and, when the funnel overflowed, units of other screens.
    static func funnel(names: [String], units screenUnits: [Int], other: Int?, of units: Int) -> [AnalysisReport.FunnelStep] {
        func step(_ name: String, _ count: Int) -> AnalysisReport.FunnelStep {
            AnalysisReport.FunnelStep(screen: name, units: count, share: units > 0 ? Double(count) / Double(units) : 0)
        }
        let steps = names.indices.map { step(names[$0], screenUnits[$0]) }
            .filter { $0.units > 0 }
            .sorted { ($0.units, $1.screen) > ($1.units, $0.screen) }
        let rest = other.map { $0 > 0 ? [step(ScreenTally.otherName, $0)] : [] } ?? []
        return steps + rest
    }

    func conversionTime(slot: Int) -> AnalysisReport.ConversionTime {
        let sorted = durations[slot].sorted()
        return Self.conversionTime(count: sorted.count, unknown: unknownDurations[slot]) { sorted[$0] }
    }

    /// Time to conversion from the number of durations and the `rank`-th smallest (0-based).
    static func conversionTime(count: Int, unknown: Int, rank: (Int) -> Int64) -> AnalysisReport.ConversionTime {
        guard count > 0 else { return .init(count: 0, medianSeconds: nil, p90Seconds: nil, unknown: unknown) }
        return .init(count: count, medianSeconds: quantile(count: count, 0.5, rank: rank),
                     p90Seconds: quantile(count: count, 0.9, rank: rank), unknown: unknown)
    }

    /// The ranks (0-based, ascending) that the median and p90 of `count` durations read.
    static func conversionTimeRanks(count: Int) -> [Int] {
        guard count > 0 else { return [] }
        return Array(Set([0.5, 0.9].flatMap { q in quantileRanks(count: count, q) })).sorted()
    }

    static func quantileRanks(count: Int, _ q: Double) -> [Int] {
        let lower = Int((q * Double(count - 1)).rounded(.down))
        return [lower, min(lower + 1, count - 1)]
    }

    /// The linear-interpolation quantile (as numpy's default) in seconds, of `count` sorted
    /// values of which `rank` gives the k-th smallest.
    static func quantile(count: Int, _ q: Double, rank: (Int) -> Int64) -> Double {
        let position = q * Double(count - 1)
        let lower = Int(position.rounded(.down)), upper = min(lower + 1, count - 1)
        let fraction = position - Double(lower)
        let a = Double(rank(lower)), b = Double(rank(upper))
        return (a + (b - a) * fraction) / 1000
    }
}
