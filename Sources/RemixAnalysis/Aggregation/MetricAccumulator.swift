/// How one metric of one experiment is read per unit: from the first pass (a plain proportion)
/// or from a ``ValueTally`` column (anything else; a ratio from its two parts' columns).
struct MetricReader {
    /// A metric summed per unit in a value column.
    struct Part {
        var definition: MetricDefinition
        var column: Int
    }

    let definition: MetricDefinition
    /// The first pass's tracked index of a plain proportion's event.
    let tracked: Int?
    /// The metric itself (proportion with a window, mean) or a ratio's numerator.
    let first: Part?
    /// A ratio's denominator.
    let second: Part?

    init(_ definition: MetricDefinition, catalog: MetricCatalog, tally: LogTally, values: ValueTally?) {
        self.definition = definition
        func part(_ metric: MetricDefinition?) -> Part? {
            guard let metric, let column = values?.columns.firstIndex(of: Self.column(metric)) else { return nil }
            return Part(definition: metric, column: column)
        }
        tracked = definition.isSimpleProportion ? definition.event.flatMap { tally.tracked.firstIndex(of: $0) } : nil
        switch definition.kind {
        case _ where definition.isSimpleProportion:
            first = nil
            second = nil
        case .ratio:
            first = part(definition.numerator.flatMap { catalog[$0] })
            second = part(definition.denominator.flatMap { catalog[$0] })
        default:
            first = part(definition)
            second = nil
        }
    }

    /// The value column a proportion or mean metric is summed in.
    static func column(_ metric: MetricDefinition) -> ValueTally.Column {
        ValueTally.Column(event: metric.event ?? "", value: metric.kind == .mean ? metric.value : nil,
                          windowHours: metric.windowHours)
    }

    /// The value columns `metric` needs (none for a plain proportion).
    static func columns(_ metric: MetricDefinition, catalog: MetricCatalog) -> [ValueTally.Column] {
        switch metric.kind {
        case _ where metric.isSimpleProportion: []
        case .ratio: [metric.numerator, metric.denominator].compactMap { $0.flatMap { catalog[$0] } }.map(column)
        default: [column(metric)]
        }
    }

    /// A part's value for `unit` (0 or 1 for a proportion, the sum or count for a mean), capped.
    static func value(_ part: Part, values: ValueTally, experiment: Int, unit: Int) -> (value: Double, count: Int) {
        let (sum, count) = values.values(experiment: experiment, column: part.column, unit: unit)
        var value = part.definition.kind == .proportion ? (count > 0 ? 1 : 0) : (part.definition.value == nil ? Double(count) : sum)
        if let cap = part.definition.capAbsolute { value = min(value, cap) }
        return (value, count)
    }
}

/// One metric's running sums over one variation's units.
struct MetricAccumulator {
    var conversions = 0
    var sum = 0.0
    var squares = 0.0
    var denominatorSum = 0.0
    var denominatorSquares = 0.0
    var products = 0.0
    var missing = 0
    var nonNumeric = 0

    /// Adds one unit's values (`second` for a ratio's denominator).
    mutating func add(_ value: Double, count: Int, second: Double? = nil) {
        if count > 0 { conversions += 1 }
        sum += value
        squares += value * value
        if let second {
            denominatorSum += second
            denominatorSquares += second * second
            products += value * second
        }
    }

    /// The statistic the tests compare, for `units` units.
    func statistic(_ reader: MetricReader, units: Int) -> MetricStatistic {
        func part(_ part: MetricReader.Part?, _ sum: Double, _ squares: Double) -> RatioPart {
            part?.definition.kind == .proportion ? RatioPart(ProportionSample(units: units, conversions: Int(sum)))
                : RatioPart(MeanSample(units: units, sum: sum, sumSquares: squares))
        }
        switch reader.definition.kind {
        case .proportion: return .proportion(ProportionSample(units: units, conversions: conversions))
        case .mean: return .mean(MeanSample(units: units, sum: sum, sumSquares: squares))
        case .ratio:
            return .ratio(RatioSample(units: units, numerator: part(reader.first, sum, squares),
                                      denominator: part(reader.second, denominatorSum, denominatorSquares),
                                      sumOfProducts: products))
        }
    }
}
