import RemixStatistics

/// An experiment's figures from an event store's aggregates (``AggregateQueries``): the same
/// definitions as ``VariationCounter`` applies to a log file's units — caps over the experiment's
/// counted units, quantile bounds at GrowthBook's ranks, CUPED's covariate before exposure — asked
/// of the store as per-variation sums and order statistics.
package struct AggregatedFigures: ExperimentFigures {
    private(set) var units: [Int]
    private(set) var multiple: Int
    private(set) var exposureSpan: ClosedRange<Int64>?
    private(set) var unslotted: [Int: Int] = [:]
    private var metrics: [(definition: MetricDefinition, first: MetricDefinition?, second: MetricDefinition?,
                           adjusted: Bool, slots: [MetricAccumulator])] = []
    private var screens = ScreenAggregates(names: [], units: [:], other: nil, otherEvents: 0)
    private let slotKeys: [String]
    private var times: [AnalysisReport.ConversionTime]

    /// Asks `queries` for `experiment`'s figures: `slots` are the reported variations' keys in
    /// order, `logged` the logged variations' keys (their indices key `unslotted`). Without
    /// `countsMissing` (a dimension's slice, as a log's), events without a value are not counted.
    init(queries: some AggregateQueries, experiment: String, slots: [String], logged: [String],
         metrics definitions: [MetricDefinition], catalog: MetricCatalog, timed: Set<String>,
         countsMissing: Bool = true) async throws(AnalysisError) {
        slotKeys = slots
        let exposures = try await queries.exposures(experiment: experiment)
        units = slots.map { exposures.variations[$0]?.units ?? 0 }
        multiple = exposures.multiple
        for (index, key) in logged.enumerated() where !slots.contains(key) {
            if let count = exposures.variations[key]?.units, count > 0 { unslotted[index] = count }
        }
        for key in slots {
            guard let found = exposures.variations[key], found.units > 0 else { continue }
            exposureSpan = exposureSpan.map { min($0.lowerBound, found.first)...max($0.upperBound, found.last) }
                ?? found.first...found.last
        }
        times = Array(repeating: .init(count: 0, medianSeconds: nil, p90Seconds: nil), count: slots.count)
        let counted = slots.filter { (exposures.variations[$0]?.units ?? 0) > 0 }
        for (index, definition) in definitions.enumerated() {
            var accumulators = Array(repeating: MetricAccumulator(), count: slots.count)
            var first: MetricDefinition?, second: MetricDefinition?, adjusted = false
            if definition.isSimpleProportion, let event = definition.event {
                let conversions = try await queries.conversions(experiment: experiment, event: event)
                for slot in slots.indices { accumulators[slot].conversions = conversions[slots[slot]] ?? 0 }
                if index == 0, timed.contains(event) { try await timeConversions(queries, experiment: experiment, event: event) }
            } else {
                if definition.kind == .ratio {
                    first = definition.numerator.flatMap { catalog[$0] }
                    second = definition.denominator.flatMap { catalog[$0] }
                } else {
                    first = definition
                }
                guard let part = first else {
                    metrics.append((definition, first, second, adjusted, accumulators))
                    continue
                }
                var x = Self.query(part), y = second.map { Self.query($0) }
                x.cap = try await Self.cap(part, query: x, queries, experiment: experiment, groups: counted)
                if let part = second, var query = y {
                    query.cap = try await Self.cap(part, query: query, queries, experiment: experiment, groups: counted)
                    y = query
                }
                if definition.cuped {
                    adjusted = true
                    var pre = Self.query(definition, pre: true)
                    pre.cap = x.cap
                    pre.capSource = x.capSource
                    y = pre
                }
                let sums = try await queries.valueSums(experiment: experiment, x: x, y: y)
                for slot in slots.indices {
                    guard let found = sums[slots[slot]] else { continue }
                    accumulators[slot].conversions = found.conversions
                    accumulators[slot].sum = ExactSum(found.x)
                    accumulators[slot].squares = ExactSum(found.xSquares)
                    accumulators[slot].denominatorSum = ExactSum(found.y)
                    accumulators[slot].denominatorSquares = ExactSum(found.ySquares)
                    accumulators[slot].products = ExactSum(found.products)
                    if countsMissing, part.kind != .proportion, part.value != nil {
                        accumulators[slot].missing = found.missing
                        accumulators[slot].nonNumeric = found.nonNumeric
                    }
                }
                if definition.kind == .quantile {
                    try await addQuantiles(&accumulators, definition, query: x, queries, experiment: experiment)
                }
            }
            metrics.append((definition, first, second, adjusted, accumulators))
        }
        // Last: a store may be computing the funnel on a connection of its own meanwhile.
        screens = try await queries.screens(experiment: experiment, limit: ScreenTally.limit)
    }

    /// The per-unit value query of a metric part after exposure (or, `pre`, CUPED's before it).
    package static func query(_ part: MetricDefinition, pre: Bool = false) -> UnitValueQuery {
        let hours = pre ? part.preWindowHours : part.windowHours
        var query = UnitValueQuery(event: part.event ?? "", field: part.kind == .proportion ? nil : part.value,
                                   indicator: part.kind == .proportion,
                                   windowMs: hours.map { Int64(min(($0 * 3_600_000).rounded(), 9e18)) }, pre: pre,
                                   cap: part.capAbsolute)
        if !pre, let level = part.capPercentile { query.capSource = "p\(level) of \(query.key)" }
        return query
    }

    /// A part's cap: absolute, or its percentile over the uncapped values of the counted units of
    /// every reported variation together (PERCENTILE_CONT, as GrowthBook).
    private static func cap(_ part: MetricDefinition, query: UnitValueQuery, _ queries: some AggregateQueries,
                            experiment: String, groups: [String]) async throws(AnalysisError) -> Double? {
        guard let level = part.capPercentile else { return part.capAbsolute }
        guard !groups.isEmpty else { return nil }
        var uncapped = query
        uncapped.cap = nil
        uncapped.capSource = nil
        let found = try await queries.unitValues(experiment: experiment, x: uncapped, groups: [groups]) { _, count in
            QuantileSample.percentileRanks(count: count, level)
        }
        guard let values = found.first, values.count > 0 else { return nil }
        return QuantileSample.percentile(count: values.count, level) { values.values[$0] ?? 0 }
    }

    /// Unit- or event-level quantiles per slot.
    private func addQuantiles(_ accumulators: inout [MetricAccumulator], _ definition: MetricDefinition,
                              query: UnitValueQuery, _ queries: some AggregateQueries,
                              experiment: String) async throws(AnalysisError) {
        let level = definition.quantile ?? 0.5
        if definition.level == .unit {
            let groups = slotKeys.map { [$0] }
            let found = try await queries.unitValues(experiment: experiment, x: query, groups: groups) { _, count in
                QuantileSample.ranks(count: count, level: level)
            }
            for slot in slotKeys.indices {
                let values = found[slot]
                accumulators[slot].unitQuantile = QuantileSample(count: values.count, level: level) { values.values[$0] ?? 0 }
            }
            return
        }
        let events = try await queries.eventValues(experiment: experiment, x: query) { QuantileSample.ranks(count: $0, level: level) }
        var quantiles: [String: QuantileSample] = [:]
        for key in slotKeys {
            let values = events[key] ?? RankedValues(count: 0, values: [:])
            quantiles[key] = QuantileSample(count: values.count, level: level) { values.values[$0] ?? 0 }
        }
        let clusters = try await queries.clusterSums(experiment: experiment, x: query, quantiles: quantiles.mapValues(\.quantile))
        for (slot, key) in slotKeys.enumerated() {
            guard let sample = quantiles[key] else { continue }
            let sums = clusters[key] ?? ClusterSums()
            accumulators[slot].clustered = ClusteredQuantileSample(
                events: sample, mainSum: sums.main, mainSumSquares: sums.mainSquares, denominatorSum: sums.count,
                denominatorSumSquares: sums.countSquares, mainDenominatorProducts: sums.products, units: sums.units)
        }
    }

    /// Time to conversion per slot.
    private mutating func timeConversions(_ queries: some AggregateQueries, experiment: String,
                                          event: String) async throws(AnalysisError) {
        let found = try await queries.durations(experiment: experiment, event: event, ranks: VariationCounter.conversionTimeRanks)
        for (slot, key) in slotKeys.enumerated() {
            guard let values = found[key] else { continue }
            times[slot] = VariationCounter.conversionTime(count: values.count, unknown: 0) { values.values[$0] ?? 0 }
        }
    }

    func metricCounts(slot: Int) -> [AnalysisReport.MetricCount] {
        metrics.map { metric in
            metric.slots[slot].metricCount(metric.definition, first: metric.first, second: metric.second,
                                           adjusted: metric.adjusted, units: units[slot])
        }
    }

    func funnel(slot: Int) -> [AnalysisReport.FunnelStep] {
        let key = slotKeys[slot]
        let counts = screens.units[key] ?? [:]
        return VariationCounter.funnel(names: screens.names, units: screens.names.map { counts[$0] ?? 0 },
                                       other: screens.other.map { $0[key] ?? 0 }, of: units[slot])
    }

    func conversionTime(slot: Int) -> AnalysisReport.ConversionTime { times[slot] }

    /// Screen events counted under "other screens".
    var otherScreenEvents: Int { screens.otherEvents }
}
