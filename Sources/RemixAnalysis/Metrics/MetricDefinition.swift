import RemixKit
import RemixStatistics
import RemixYAML

/// One metric: what is measured per unit after its first exposure, and how variations compare.
package struct MetricDefinition: Sendable, Equatable {
    /// How the per-unit values become a variation's figure.
    package enum Kind: String, Sendable, CaseIterable {
        /// Share of units with at least one `event` (gbstats `ProportionStatistic`).
        case proportion
        /// Per unit the sum of `value` (or the count of `event`s), averaged over all units
        /// (gbstats `SampleMeanStatistic`).
        case mean
        /// Sum of the numerator metric over sum of the denominator metric, delta method
        /// (gbstats `RatioStatistic`).
        case ratio
        /// The `quantile` of `value` over units (gbstats `QuantileStatistic`) or over events
        /// (`QuantileClusteredStatistic`).
        case quantile

        /// The report's word for the figure: rate, mean, ratio or quantile.
        package var figure: String { self == .proportion ? "rate" : rawValue }
    }

    /// What a quantile is taken over.
    package enum Level: String, Sendable, CaseIterable {
        /// Each unit's sum of `value` (units without the event count 0).
        case unit
        /// Each event's `value`, clustered by unit.
        case event
    }

    package var key: String
    package var kind: Kind
    /// The event counted (proportion, mean).
    package var event: String?
    /// The event's numeric field summed per unit (mean); nil counts events.
    package var value: String?
    /// Metric keys of a ratio.
    package var numerator: String?
    package var denominator: String?
    /// Lower is better.
    package var inverse: Bool
    /// Only events less than this many hours after the unit's first exposure count.
    package var windowHours: Double?
    /// Per-unit values above this are set to it (winsorisation).
    package var capAbsolute: Double?
    /// Per-unit values above this percentile of all the experiment's units are set to it.
    package var capPercentile: Double?
    /// A quantile's level, e.g. 0.9.
    package var quantile: Double?
    /// Whether a quantile is over units or events.
    package var level = Level.unit
    /// CUPED: the same metric in the `preWindowHours` before first exposure is the covariate.
    package var cuped = false
    /// Hours before the first exposure that CUPED reads (GrowthBook's 14 days by default).
    package var preWindowHours = MetricDefinition.defaultPreWindowHours
    /// A proper prior for this metric's Bayesian test, overriding `--prior-mean`/`--prior-stddev`.
    package var prior: BayesianPrior?
    /// Whether its direction (`inverse`) was declared in a metrics file; false for a bare event
    /// name, whose better direction nobody said.
    package var declared = true
    package var summary: String?
    /// Where it is defined; nil for a bare event name.
    package var location: SourceLocation?

    package init(key: String, kind: Kind, event: String? = nil, value: String? = nil, numerator: String? = nil,
                denominator: String? = nil, inverse: Bool = false, windowHours: Double? = nil,
                capAbsolute: Double? = nil, capPercentile: Double? = nil, quantile: Double? = nil, level: Level = .unit,
                cuped: Bool = false, preWindowHours: Double = MetricDefinition.defaultPreWindowHours,
                summary: String? = nil, location: SourceLocation? = nil) {
        self.key = key
        self.kind = kind
        self.event = event
        self.value = value
        self.numerator = numerator
        self.denominator = denominator
        self.inverse = inverse
        self.windowHours = windowHours
        self.capAbsolute = capAbsolute
        self.capPercentile = capPercentile
        self.quantile = quantile
        self.level = level
        self.cuped = cuped
        self.preWindowHours = preWindowHours
        self.summary = summary
        self.location = location
    }

    /// GrowthBook's default CUPED lookback, 14 days.
    package static let defaultPreWindowHours = 336.0

    /// The report's name for the figure: `rate`, `mean`, `ratio`, `p90`, `p90 of events`, with
    /// `, CUPED` when adjusted.
    package var label: String {
        guard kind == .quantile, let quantile else { return kind.figure + (cuped ? ", CUPED" : "") }
        let percent = (quantile * 100 * 1e6).rounded() / 1e6
        let name = "p" + (percent == percent.rounded() ? String(Int(percent)) : String(percent))
        return level == .event ? name + " of events" : name
    }

    /// The unit of a figure summed from the event field `field`, read from its name: `ms` for
    /// `…Ms`, `…Millis` or `…Milliseconds` (`durationMs`), `s` for `…Seconds` or `…Secs`; nil
    /// otherwise (a count, or a field whose name says no unit).
    package static func unit(ofField field: String?) -> String? {
        guard let field else { return nil }
        if ["Ms", "Millis", "Milliseconds", "_ms"].contains(where: field.hasSuffix) { return "ms" }
        if ["Seconds", "Secs", "_s"].contains(where: field.hasSuffix) { return "s" }
        return nil
    }

    /// The unit of this metric's figure (nil for a rate or a count): its field's; for a ratio of
    /// `numerator` and `denominator`, the numerator's unit over the denominator's (`ms` over
    /// sessions is `ms`, ms over ms has none).
    package func unit(numerator: MetricDefinition?, denominator: MetricDefinition?) -> String? {
        switch kind {
        case .proportion: return nil
        case .mean, .quantile: return Self.unit(ofField: value)
        case .ratio:
            let (top, bottom) = (numerator?.unit(numerator: nil, denominator: nil), denominator?.unit(numerator: nil, denominator: nil))
            if top == bottom { return nil }
            return bottom.map { "\(top ?? "1")/\($0)" } ?? top
        }
    }

    /// A bare event name in an experiment file: the share of units with that event.
    package static func proportion(of event: String) -> MetricDefinition {
        var definition = MetricDefinition(key: event, kind: .proportion, event: event)
        definition.declared = false
        return definition
    }

    /// Read in the log's first pass (proportions without a window, as before metrics files);
    /// every other metric is summed per unit in a second pass.
    package var isSimpleProportion: Bool { kind == .proportion && windowHours == nil && !cuped }
}

/// The metrics of a metrics file, by key; a name that is not a key is an event's proportion.
package struct MetricCatalog: Sendable {
    package private(set) var definitions: [MetricDefinition]
    /// The file read, if any.
    package var file: String?

    package init(_ definitions: [MetricDefinition] = [], file: String? = nil) {
        self.definitions = definitions
        self.file = file
    }

    package var keys: [String] { definitions.map(\.key) }

    package subscript(key: String) -> MetricDefinition? { definitions.first { $0.key == key } }

    /// The metric `name` names: a defined key, else the proportion of the event `name`.
    package func resolve(_ name: String) -> MetricDefinition { self[name] ?? .proportion(of: name) }
}
