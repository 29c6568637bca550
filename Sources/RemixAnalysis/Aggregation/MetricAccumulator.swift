import RemixStatistics

/// How one metric of one experiment is read per unit: from the first pass (a plain proportion)
/// or from ``ValueTally`` columns (anything else; a ratio from its two parts' columns, CUPED from
/// the metric's column after exposure and its column before).
struct MetricReader {
    /// A metric summed per unit in a value column.
    struct Part {
        var definition: MetricDefinition
        var column: Int
        /// Per-unit values above this count as this: the absolute cap, or the percentile cap
        /// once ``VariationCounter`` has computed it over the experiment's units.
        var cap: Double?
        /// Values are divided by 2^exponent before they are summed (``ValueScale``).
        var exponent = 0
    }

    let definition: MetricDefinition
    /// The first pass's tracked index of a plain proportion's event.
    let tracked: Int?
    /// The metric itself (proportion with a window, mean, quantile) or a ratio's numerator.
    var first: Part?
    /// A ratio's denominator.
    var second: Part?
    /// The CUPED covariate: the metric before exposure.
    var pre: Part?
    /// Why the metric has no figure (a unit's sum passed the largest double), if it has none.
    var error: String?

    /// The power of two the metric's figure is divided by: its part's, a ratio's numerator's over
    /// its denominator's.
    var figureExponent: Int { (first?.exponent ?? 0) - (definition.kind == .ratio ? second?.exponent ?? 0 : 0) }

    init(_ definition: MetricDefinition, catalog: MetricCatalog, tally: LogTally, values: ValueTally?) {
        self.definition = definition
        func part(_ metric: MetricDefinition?, _ column: (MetricDefinition) -> ValueTally.Column = Self.column) -> Part? {
            guard let metric, let index = values?.columns.firstIndex(of: column(metric)) else { return nil }
            return Part(definition: metric, column: index, cap: metric.capAbsolute)
        }
        tracked = definition.isSimpleProportion ? definition.event.flatMap { tally.tracked.firstIndex(of: $0) } : nil
        switch definition.kind {
        case _ where definition.isSimpleProportion:
            break
        case .ratio:
            first = part(definition.numerator.flatMap { catalog[$0] })
            second = part(definition.denominator.flatMap { catalog[$0] })
        default:
            first = part(definition)
            if definition.cuped { pre = part(definition, Self.preColumn) }
        }
    }

    /// The value column a proportion, mean or quantile metric is read from after exposure.
    static func column(_ metric: MetricDefinition) -> ValueTally.Column {
        ValueTally.Column(event: metric.event ?? "", value: metric.kind == .proportion ? nil : metric.value,
                          windowHours: metric.windowHours,
                          keepEvents: metric.kind == .quantile && metric.level == .event)
    }

    /// The value column of a CUPED covariate: the same events in the pre-window before exposure.
    static func preColumn(_ metric: MetricDefinition) -> ValueTally.Column {
        ValueTally.Column(event: metric.event ?? "", value: metric.kind == .proportion ? nil : metric.value,
                          windowHours: metric.preWindowHours, pre: true)
    }

    /// The value columns `metric` needs (none for a plain proportion).
    static func columns(_ metric: MetricDefinition, catalog: MetricCatalog) -> [ValueTally.Column] {
        switch metric.kind {
        case _ where metric.isSimpleProportion: []
        case .ratio: [metric.numerator, metric.denominator].compactMap { $0.flatMap { catalog[$0] } }.map(column)
        default: [column(metric)] + (metric.cuped ? [preColumn(metric)] : [])
        }
    }

    /// A part's value for the unit in exposure slot `place` of `experiment` (0 or 1 for a
    /// proportion, the sum or count for a mean or a quantile's unit value), capped unless `capped`
    /// is false.
    static func value(_ part: Part, values: ValueTally, experiment: Int, place: Int,
                      capped: Bool = true) -> (value: Double, count: Int) {
        let (sum, count) = values.values(experiment: experiment, column: part.column, place: place)
        var value = part.definition.kind == .proportion ? (count > 0 ? 1 : 0) : (part.definition.value == nil ? Double(count) : sum)
        if capped, let cap = part.cap { value = min(value, cap) }
        return (value, count)
    }
}

/// A sum kept as an unevaluated pair, `high + low`, so that its value is the exact sum of what
/// was added rounded once (save for ties within 2⁻⁵⁰ of its last bit): it does not depend on the
/// order units come in, and equals the same sum done exactly elsewhere (an event store's SQL).
package struct ExactSum: Sendable, Equatable {
    package private(set) var high = 0.0
    package private(set) var low = 0.0

    package init(_ value: Double = 0) { high = value }

    /// Adds `value` (Knuth's two-sum: the rounding error goes into `low`).
    package mutating func add(_ value: Double) {
        let sum = high + value
        let virtual = sum - high
        low += (high - (sum - virtual)) + (value - virtual)
        high = sum
    }

    /// Adds `a × b` exactly (the product's rounding error from a fused multiply-add).
    package mutating func add(_ a: Double, times b: Double) {
        let product = a * b
        add(product)
        low += (-product).addingProduct(a, b)
    }

    package var value: Double { high + low }
}

/// One metric's running sums over one variation's units.
struct MetricAccumulator {
    var conversions = 0
    var sum = ExactSum()
    var squares = ExactSum()
    var denominatorSum = ExactSum()
    var denominatorSquares = ExactSum()
    var products = ExactSum()
    var missing = 0
    var nonNumeric = 0
    /// A unit-level quantile's per-unit values.
    var unitValues: [Double] = []
    /// A unit-level quantile computed elsewhere (instead of from `unitValues`).
    var unitQuantile: QuantileSample?
    /// An event-level quantile, computed from the kept events.
    var clustered: ClusteredQuantileSample?

    /// Adds one unit's values (`second` for a ratio's denominator or a CUPED covariate).
    mutating func add(_ value: Double, count: Int, second: Double? = nil, keepValue: Bool = false) {
        if count > 0 { conversions += 1 }
        sum.add(value)
        squares.add(value, times: value)
        if keepValue { unitValues.append(value) }
        if let second {
            denominatorSum.add(second)
            denominatorSquares.add(second, times: second)
            products.add(value, times: second)
        }
    }

    /// The report's figures of this metric in a variation of `units` units: `first` and `second`
    /// are a ratio's parts, `adjusted` says whether a CUPED covariate was read.
    /// `scale` is the power of two the values were divided by (``ValueScale``), `error` why there is
    /// no figure.
    func metricCount(_ definition: MetricDefinition, first: MetricDefinition?, second: MetricDefinition?, adjusted: Bool,
                     units: Int, scale: Int = 0, error: String? = nil) -> AnalysisReport.MetricCount {
        var metric = AnalysisReport.MetricCount(metric: definition.key, conversions: conversions,
                                                rate: units > 0 ? Double(conversions) / Double(units) : 0)
        metric.type = definition.kind.figure
        metric.label = definition.label
        metric.cuped = definition.cuped
        metric.unit = definition.unit(numerator: first, denominator: second)
        metric.prior = definition.prior
        metric.directionDeclared = definition.declared
        metric.inverse = definition.inverse
        metric.statistic = statistic(definition, first: first, second: second, adjusted: adjusted, units: units)
        metric.scale = scale
        metric.error = error
        metric.value = error == nil ? metric.statistic.figure * ValueScale.factor(scale) : .nan
        metric.missingValues = missing
        metric.nonNumericValues = nonNumeric
        return metric
    }

    /// The statistic the tests compare, for `units` units.
    func statistic(_ definition: MetricDefinition, first: MetricDefinition?, second: MetricDefinition?, adjusted: Bool,
                   units: Int) -> MetricStatistic {
        let (sum, squares) = (self.sum.value, self.squares.value)
        let (denominatorSum, denominatorSquares) = (self.denominatorSum.value, self.denominatorSquares.value)
        func part(_ definition: MetricDefinition?, _ sum: Double, _ squares: Double) -> RatioPart {
            definition?.kind == .proportion ? RatioPart(ProportionSample(units: units, conversions: Int(sum)))
                : RatioPart(MeanSample(units: units, sum: sum, sumSquares: squares))
        }
        func cupedPart(_ sum: Double, _ squares: Double) -> CupedPart {
            definition.kind == .proportion ? .proportion(ProportionSample(units: units, conversions: Int(sum)))
                : .mean(MeanSample(units: units, sum: sum, sumSquares: squares))
        }
        if definition.cuped, adjusted {
            return .regressionAdjusted(RegressionAdjustedSample(units: units, post: cupedPart(sum, squares),
                                                                pre: cupedPart(denominatorSum, denominatorSquares),
                                                                sumOfProducts: products.value))
        }
        switch definition.kind {
        case .proportion: return .proportion(ProportionSample(units: units, conversions: conversions))
        case .mean: return .mean(MeanSample(units: units, sum: sum, sumSquares: squares))
        case .ratio:
            return .ratio(RatioSample(units: units, numerator: part(first, sum, squares),
                                      denominator: part(second, denominatorSum, denominatorSquares),
                                      sumOfProducts: products.value))
        case .quantile:
            let level = definition.quantile ?? 0.5
            if definition.level == .event {
                return .clusteredQuantile(clustered ?? ClusteredQuantileSample(events: [], units: [], level: level))
            }
            return .quantile(unitQuantile ?? QuantileSample(values: unitValues, level: level))
        }
    }
}
