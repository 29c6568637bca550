/// What an experiment's report needs per variation slot, however it was counted: from a log
/// file's units (``VariationCounter``) or from an event store's aggregates (``AggregatedFigures``).
protocol ExperimentFigures {
    /// Units per slot.
    var units: [Int] { get }
    /// Units exposed to more than one variation (left out).
    var multiple: Int { get }
    /// The earliest and latest first exposure of the counted units (ms).
    var exposureSpan: ClosedRange<Int64>? { get }
    /// Units per logged variation (its index among the experiment's logged variations) that has no slot.
    var unslotted: [Int: Int] { get }
    func metricCounts(slot: Int) -> [AnalysisReport.MetricCount]
    func funnel(slot: Int) -> [AnalysisReport.FunnelStep]
    func conversionTime(slot: Int) -> AnalysisReport.ConversionTime
}

/// Aggregate queries over a store of events that computes them itself (PostgreSQL): the analysis
/// asks only for counts, exact sums and a few order statistics per variation, never for units or
/// events. "Unit" means what it does for a log file: a user exposed (with `inExperiment` and
/// `hashUsed`) to the experiment, at their first exposure; a unit exposed to more than one
/// variation is left out of everything but `multiple`. Each question is asynchronous I/O to the
/// store, awaited in turn by the one task that builds the report.
package protocol AggregateQueries {
    /// What the store holds: events, run records and experiments with their variations.
    func overview() async throws(AnalysisError) -> AggregateOverview
    /// Units per variation, their first exposures' span, and the units exposed to several.
    func exposures(experiment: String) async throws(AnalysisError) -> ExposureAggregates
    /// Units per variation and screen name (the text before any `(`) shown at or after their first
    /// exposure, for at most `limit` names (those seen first); the rest as one `other` count.
    func screens(experiment: String, limit: Int) async throws(AnalysisError) -> ScreenAggregates
    /// Units per variation with `event` at or after their first exposure.
    func conversions(experiment: String, event: String) async throws(AnalysisError) -> [String: Int]
    /// Per variation, the times (ms) from first exposure to the first `event` at or after it:
    /// their number, and the values at the ranks (0-based, ascending) `ranks` asks for that number.
    func durations(experiment: String, event: String,
                   ranks: (Int) -> [Int]) async throws(AnalysisError) -> [String: RankedValues<Int64>]
    /// Per variation, the sums of `x` (and `y`) over its units, units without events counting 0.
    func valueSums(experiment: String, x: UnitValueQuery, y: UnitValueQuery?) async throws(AnalysisError) -> [String: ValueSums]
    /// The per-unit values of `x` over the units of each group of variations (units without
    /// events counting 0, so a group has as many values as units): at the ranks `ranks` asks for.
    func unitValues(experiment: String, x: UnitValueQuery, groups: [[String]],
                    ranks: (_ group: Int, _ count: Int) -> [Int]) async throws(AnalysisError) -> [RankedValues<Double>]
    /// Per variation, the numeric values of `x`'s events (each event one value): their number and
    /// those at the ranks `ranks` asks for.
    func eventValues(experiment: String, x: UnitValueQuery,
                     ranks: (Int) -> [Int]) async throws(AnalysisError) -> [String: RankedValues<Double>]
    /// Per variation, over units with numeric events of `x`: sums of each unit's count of events at
    /// or below the variation's `quantiles` value and of all its events (see ``ClusterSums``).
    func clusterSums(experiment: String, x: UnitValueQuery, quantiles: [String: Double]) async throws(AnalysisError) -> [String: ClusterSums]
    /// See the extension's default.
    func cuts() async throws(AnalysisError) -> CutAggregates
    /// See the extension's default.
    func slices(experiment: String) async throws(AnalysisError) -> [String]
    /// See the extension's default.
    func phaseAggregates(experiment: String) async throws(AnalysisError) -> PhaseAggregates
}

extension AggregateQueries {
    /// The slices of the experiment (or scope) named `experiment` by the query's dimension, in
    /// report order (``DimensionSlicer``), each reported under ``AggregateScope/slice``'s name.
    /// A source that cannot slice (the event store) says so.
    package func slices(experiment: String) async throws(AnalysisError) -> [String] {
        throw .notFromStore(option: "--dimension")
    }

    /// The cuts of `--by` (each reported under ``AggregateScope/cut``'s names). A source that
    /// cannot cut (the event store) says so.
    package func cuts() async throws(AnalysisError) -> CutAggregates { throw .notFromStore(option: "--by") }

    /// An experiment's phases beyond each phase's exposures: none from a source without them.
    package func phaseAggregates(experiment: String) async throws(AnalysisError) -> PhaseAggregates { PhaseAggregates() }
}

/// The cuts of `--by`: every whole hour or day after the first exposure to the end of the events.
package struct CutAggregates: Sendable {
    /// The cuts (ms), the last excepted: it is the whole report's.
    package var cuts: [Int64] = []
    /// The number of cuts, the last included (none are made past ``Analyzer/maximumCuts``), and the last.
    package var count = 0, last: Int64 = 0

    package init() {}
}

/// What a report of an experiment with phases needs besides each phase's own exposures
/// (reported under ``AggregateScope/phase``'s names).
package struct PhaseAggregates: Sendable {
    /// Units by the phase they were first exposed in.
    package var firstExposed: [Int: Int] = [:]
    /// Units exposed in more than one phase, and how many of them saw more than one variation.
    package var unitsInSeveralPhases = 0, switching = 0

    package init() {}
}

/// What an event store holds.
package struct AggregateOverview: Sendable {
    /// How the report names the source (a redacted URL).
    package var name: String
    /// Events and run records stored.
    package var lines: Int
    /// The first run records as JSON objects (the report's provenance).
    package var runRecords: [[UInt8]]
    /// Experiments with their variations: key, variationId, feature (as logged with it).
    package var experiments: [String: [(key: String, id: Int, feature: String)]]
    /// Shards of simulation runs the store holds only part of.
    package var unfinishedShards: [UnfinishedShard] = []

    package init(name: String, lines: Int, runRecords: [[UInt8]], experiments: [String: [(key: String, id: Int, feature: String)]]) {
        self.name = name
        self.lines = lines
        self.runRecords = runRecords
        self.experiments = experiments
    }
}

/// One experiment's exposures.
package struct ExposureAggregates: Sendable {
    /// Per variation: units, and the earliest and latest first exposure (ms).
    package var variations: [String: (units: Int, first: Int64, last: Int64)]
    package var multiple: Int

    package init(variations: [String: (units: Int, first: Int64, last: Int64)], multiple: Int) {
        self.variations = variations
        self.multiple = multiple
    }
}

/// One experiment's screens reached after exposure.
package struct ScreenAggregates: Sendable {
    /// The screen names counted on their own.
    package var names: [String]
    /// Per variation, units per name (absent: none).
    package var units: [String: [String: Int]]
    /// Per variation, units shown any other screen; nil when every name has a count of its own.
    package var other: [String: Int]?
    /// Screen events under "other".
    package var otherEvents: Int

    package init(names: [String], units: [String: [String: Int]], other: [String: Int]?, otherEvents: Int) {
        self.names = names
        self.units = units
        self.other = other
        self.otherEvents = otherEvents
    }
}

/// A number of values and some of them by rank (0-based, ascending).
package struct RankedValues<Value: Sendable>: Sendable {
    package var count: Int
    package var values: [Int: Value]

    package init(count: Int, values: [Int: Value]) {
        self.count = count
        self.values = values
    }
}

/// How a store computes one per-unit value of a metric part: over the unit's events of type
/// `event` at or after its first exposure and before `windowMs` has passed (or, `pre`, in the
/// `windowMs` before it), the sum of the numeric `field`, or the number of events (`field` nil),
/// or 1 when there is any (`indicator`); then at most `cap`. Sums are exact (the store's decimal
/// arithmetic) and rounded once.
package struct UnitValueQuery: Sendable, Hashable {
    package var event: String
    package var field: String?
    package var indicator: Bool
    package var windowMs: Int64?
    package var pre: Bool
    package var cap: Double?
    /// Where a percentile cap comes from (``key`` of the uncapped part it is taken over, with its
    /// level), so that a query whose cap is computed elsewhere (a warehouse's SQL) keeps one name.
    package var capSource: String?

    /// The query's name in a warehouse result (``AggregateTable``): every field, the cap by its source.
    package var key: String {
        var text = "\(event.count):\(event)|\(field.map { "\($0.count):\($0)" } ?? "-")|\(indicator ? "any" : "sum")"
        text += "|\(windowMs.map(String.init) ?? "-")|\(pre ? "pre" : "post")|"
        return text + (capSource ?? cap.map { "\($0)" } ?? "-")
    }
}

/// Sums over one variation's units of a per-unit value x (and y), each rounded once.
package struct ValueSums: Sendable, Equatable {
    /// Units with at least one of x's events.
    package var conversions = 0
    package var x = 0.0, xSquares = 0.0, y = 0.0, ySquares = 0.0, products = 0.0
    /// x's events whose field is missing, or present but not a number.
    package var missing = 0, nonNumeric = 0

    package init() {}
}

/// An event-level quantile's clusters in one variation: per unit with events, `main` is its count
/// of events at or below the quantile and `count` of all of them; these are their sums.
package struct ClusterSums: Sendable, Equatable {
    package var units = 0
    package var main = 0.0, mainSquares = 0.0, count = 0.0, countSquares = 0.0, products = 0.0

    package init() {}
}
