/// The result of `remix analyze`: per experiment, each variation's units and metrics, and each
/// variation compared with the baseline; plus what was read.
public struct AnalysisReport: Sendable {
    /// One metric of one variation.
    public struct MetricCount: Sendable, Equatable {
        /// The metric's key (for a bare event name, the event).
        public var metric: String
        /// Units with at least one of the metric's events after exposure (for a ratio, of its
        /// numerator's).
        public var conversions: Int
        /// `conversions` over units.
        public var rate: Double
        /// What `value` is: rate (proportion), mean, ratio or quantile.
        public var type = "rate"
        /// The table's name for it: `rate`, `mean`, `ratio`, `p90`, `p90 of events`, with `, CUPED`.
        public var label = "rate"
        /// Adjusted with CUPED (the comparisons; `value` is unadjusted).
        public var cuped = false
        /// The metric's own prior for the Bayesian test, if its definition has one.
        public var prior: BayesianPrior?
        /// Whether a metrics file declares its direction (false for a bare event name).
        public var directionDeclared = true
        /// The variation's figure: the rate, the mean per unit, or the ratio.
        public var value = 0.0
        /// Lower is better.
        public var inverse = false
        /// Events counted whose numeric field is missing, or is there but not a number (they add 0).
        public var missingValues = 0
        public var nonNumericValues = 0
        /// Why there is no figure (not a number) and no comparison: a unit's sum passed the largest double.
        public var error: String?
        /// What the tests compare, of the values divided by 2^`scale` (``ValueScale``).
        var statistic = MetricStatistic.proportion(ProportionSample(units: 0, conversions: 0))
        var scale = 0
        /// The variance of the per-unit values behind `value` (what a power calculation needs).
        public var unitVariance: Double { statistic.unitVariance * ValueScale.factor(2 * scale) }

        init(metric: String, conversions: Int, rate: Double) {
            self.metric = metric
            self.conversions = conversions
            self.rate = rate
            value = rate
        }
    }

    /// Share of a variation's units that reached a screen after exposure.
    public struct FunnelStep: Sendable, Equatable {
        public var screen: String
        public var units: Int
        public var share: Double
    }

    /// Time from first exposure to the first primary conversion at or after it, in seconds.
    public struct ConversionTime: Sendable, Equatable {
        public var count: Int
        public var medianSeconds: Double?
        public var p90Seconds: Double?
        /// Converted units left out: ``EarliestTimes/kept`` or more distinct times of the metric
        /// came before their first exposure, so the first one after it was not kept.
        public var unknown = 0
    }

    /// Units exposed to a variation the experiment file does not declare: left out of the
    /// variations, the comparisons and the SRM test.
    public struct UndeclaredVariation: Sendable, Equatable {
        public var key: String
        public var variationId: Int
        public var units: Int
    }

    /// One variation.
    public struct Variation: Sendable {
        public var key: String
        public var variationId: Int
        public var feature: String
        public var units: Int
        public var metrics: [MetricCount]
        public var funnel: [FunnelStep]
        public var timeToConversion: ConversionTime
    }

    /// One variation against the baseline on one metric.
    public struct Comparison: Sendable {
        public var variation: String
        public var baseline: String
        public var metric: String
        public var guardrail: Bool
        public var expected: Double
        public var ci: [Double]
        public var pValue: Double
        public var pValueAdjusted: Double
        public var chanceToWin: Double
        public var risk: [Double]
        public var error: String?
        /// The metric's lower values are better: a significant fall is a win.
        public var inverse = false
        /// The Bayesian test's 1 − α credible interval of the effect.
        public var credibleInterval = [0.0, 0.0]
        /// The proper prior of the Bayesian test (the metric's own, else `--prior-*`); nil for flat.
        public var prior: BayesianPrior?
        /// Whether the metric's better direction is declared (see ``MetricCount/directionDeclared``);
        /// when not, chance to win is the chance of a rise.
        public var directionDeclared = true
        /// The baseline's figure is 0, so there is no relative lift: `expected`, `ci`, `risk` and
        /// `credibleInterval` are the absolute difference (treatment − control) the tests compared.
        public var liftUndefined = false

        /// Makes this the result of a comparison that could not be made, as gbstats words one:
        /// `error`, no effect, p-value 1, chance to win 0.5.
        mutating func clear(_ error: String) {
            self.error = error
            expected = 0
            ci = [0, 0]
            pValue = 1
            pValueAdjusted = 1
            chanceToWin = 0.5
            risk = [0, 0]
            credibleInterval = [0, 0]
        }
    }

    /// One experiment.
    public struct Experiment: Sendable {
        public var key: String
        public var primaryMetric: String?
        public var guardrails: [String]
        public var weights: [Double]
        public var srmPValue: Double?
        public var multipleExposureUnits: Int
        public var variations: [Variation]
        public var comparisons: [Comparison]
        public var undeclaredVariations: [UndeclaredVariation] = []
        /// Whether its experiment file was read; without it the metrics are the defaults and no
        /// result is called a winner, a loser or a guardrail.
        public var hasFile = true
        /// With `--dimension`: the same analysis over each value's units.
        public var slices: [DimensionSlice] = []
        /// With `--by`: cumulative results at each cut, the last being these results.
        public var overTime: [OverTimePoint] = []
        /// The first and last first-exposure times of the counted units (ms), nil without units.
        public var exposureSpan: ClosedRange<Int64>?
    }

    /// An experiment's results over the units of one dimension value (or of the values not shown
    /// on their own, `(other)`; of units without one, `(none)`).
    public struct DimensionSlice: Sendable {
        public var value: String
        public var experiment: Experiment
    }

    /// What was read.
    public struct Log: Sendable, Equatable {
        public var files: [String]
        public var lines: Int
        public var badLines: Int
        public var firstBadLines: [BadLine]
        /// Logs whose final line has no newline and does not parse (a writer stopped mid-line).
        public var tornFiles: [String] = []
        /// Screen events counted under "(other screens)" because the funnel follows at most
        /// ``ScreenTally/limit`` screen names; nil when it follows them all.
        public var otherScreenEvents: Int?
        /// The first run records (see ``RunRecord``), in log order: what produced the log.
        public var runs: [RunRecord] = []
        /// Whether the one "file" is an event store's (redacted) URL, analysed in its database.
        public var isStore: Bool { files.count == 1 && (files[0].hasPrefix("postgresql://") || files[0].hasPrefix("postgres://")) }

        public var tornFinalLine: Bool { !tornFiles.isEmpty }

        /// Says that screens were left out of the funnel, if they were.
        public var funnelWarning: String? {
            otherScreenEvents.map { events in
                "the log names more than \(ScreenTally.limit) screens: the funnel follows at most \(ScreenTally.limit) "
                    + "(those met first) and counts \(events) screen event(s) of the others as '\(ScreenTally.otherName)'"
            }
        }
    }

    public var experiments: [Experiment]
    public var log: Log
    public var alpha: Double
    public var correction: Correction
    /// Wall-clock seconds spent reading and computing.
    public var elapsedSeconds: Double
    /// How the comparisons were tested: difference type, sequential tuning, prior (`alpha` above).
    public var settings = TestSettings()
    /// Experiments of the experiment files that are absent from the log and not running now (status
    /// or schedule), each with why, e.g. `uk-manual-first: scheduled from 2026-12-01T00:00:00Z`.
    public var notRunning: [String] = []
    /// The `--dimension` the experiments are broken down by.
    public var dimension: String?
    /// The `--by` cuts of `overTime`.
    public var by: TimeBucket?
}

extension AnalysisReport {
    /// What a reader must know to trust the numbers, in every format: variations the experiment
    /// file does not declare, times to conversion left out, screens left out of the funnel.
    public var warnings: [String] {
        var warnings: [String] = []
        for experiment in experiments {
            warnings += experiment.warnings
        }
        if let warning = log.funnelWarning { warnings.append(warning) }
        return warnings
    }
}

extension AnalysisReport.Experiment {
    /// This experiment's warnings (see ``AnalysisReport/warnings``).
    public var warnings: [String] {
        var warnings: [String] = []
        if !hasFile {
            warnings.append("\(key): no experiment file for it was read, so its metrics are "
                            + (primaryMetric.map { "the defaults (\($0)…)" } ?? "unknown")
                            + " and no result is called WINNER, LOSER or a guardrail; give its folder with --experiments")
        }
        if !undeclaredVariations.isEmpty {
            let units = undeclaredVariations.reduce(0) { $0 + $1.units }
            let list = undeclaredVariations.map { "'\($0.key)' (variationId \($0.variationId)): \($0.units)" }
            warnings.append("\(key): \(units) unit(s) exposed to variation(s) its experiment file does not declare are "
                            + "left out of the results and the SRM test — " + list.joined(separator: ", "))
        }
        for (index, metric) in (variations.first?.metrics ?? []).enumerated() {
            if let error = metric.error { warnings.append("\(key): \(metric.metric): \(error)") }
            let missing = variations.reduce(0) { $0 + $1.metrics[index].missingValues }
            let other = variations.reduce(0) { $0 + $1.metrics[index].nonNumericValues }
            if missing + other > 0 {
                let treatment = metric.label.hasSuffix(" of events") ? "leaves out" : "counts"
                warnings.append("\(key): \(metric.metric) \(treatment) \(missing) event(s) without the value field and \(other) "
                                + "whose value is not a number" + (treatment == "counts" ? " as 0" : ""))
            }
            let covariates = variations.compactMap { variation -> Double? in
                guard case .regressionAdjusted(let sample) = variation.metrics[index].statistic else { return nil }
                return abs(sample.pre.sum)
            }
            if metric.cuped, !covariates.isEmpty, covariates.allSatisfy({ $0 == 0 }) {
                warnings.append("\(key): \(metric.metric) has no value before any unit's first exposure (in its pre-window), "
                                + "so CUPED cannot adjust it; its results are the unadjusted ones")
            }
        }
        let unknown = variations.reduce(0) { $0 + $1.timeToConversion.unknown }
        if unknown > 0, let metric = primaryMetric {
            warnings.append("\(key): time to \(metric) leaves out \(unknown) converted unit(s) with \(EarliestTimes.kept) or "
                            + "more distinct \(metric) times before their first exposure")
        }
        return warnings
    }
}

/// How p-values are adjusted for testing many variations × metrics.
public enum Correction: String, Sendable, CaseIterable {
    case none, holm, bh
}

/// The SRM p-value below which a sample ratio mismatch is flagged.
public let srmThreshold = 0.001
