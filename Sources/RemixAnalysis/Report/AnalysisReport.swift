import RemixLogReader
import RemixStatistics

/// The result of `remix analyze`: per experiment, each variation's units and metrics, and each
/// variation compared with the baseline; plus what was read.
package struct AnalysisReport: Sendable {
    /// One metric of one variation.
    package struct MetricCount: Sendable, Equatable {
        /// The metric's key (for a bare event name, the event).
        package var metric: String
        /// Units with at least one of the metric's events after exposure (for a ratio, of its
        /// numerator's).
        package var conversions: Int
        /// `conversions` over units.
        package var rate: Double
        /// What `value` is: rate (proportion), mean, ratio or quantile.
        package var type = "rate"
        /// The table's name for it: `rate`, `mean`, `ratio`, `p90`, `p90 of events`, with `, CUPED`.
        package var label = "rate"
        /// Adjusted with CUPED (the comparisons; `value` is unadjusted).
        package var cuped = false
        /// The unit of `value` and of absolute differences, from the name of the field summed
        /// (``MetricDefinition/unit(numerator:denominator:)``): `ms` for `durationMs`; nil for
        /// rates and counts.
        package var unit: String?
        /// The metric's own prior for the Bayesian test, if its definition has one.
        package var prior: BayesianPrior?
        /// Whether a metrics file declares its direction (false for a bare event name).
        package var directionDeclared = true
        /// The variation's figure: the rate, the mean per unit, or the ratio.
        package var value = 0.0
        /// Lower is better.
        package var inverse = false
        /// Events counted whose numeric field is missing, or is there but not a number (they add 0).
        package var missingValues = 0
        package var nonNumericValues = 0
        /// Why there is no figure (not a number) and no comparison: a unit's sum passed the largest double.
        package var error: String?
        /// What the tests compare, of the values divided by 2^`scale` (``ValueScale``).
        package var statistic = MetricStatistic.proportion(ProportionSample(units: 0, conversions: 0))
        package var scale = 0
        /// The variance of the per-unit values behind `value` (what a power calculation needs).
        package var unitVariance: Double { statistic.unitVariance * ValueScale.factor(2 * scale) }

        init(metric: String, conversions: Int, rate: Double) {
            self.metric = metric
            self.conversions = conversions
            self.rate = rate
            value = rate
        }
    }

    /// Share of a variation's units that reached a screen after exposure.
    package struct FunnelStep: Sendable, Equatable {
        package var screen: String
        package var units: Int
        package var share: Double
    }

    /// Time from first exposure to the first primary conversion at or after it, in seconds.
    package struct ConversionTime: Sendable, Equatable {
        package var count: Int
        package var medianSeconds: Double?
        package var p90Seconds: Double?
        /// Converted units left out: ``EarliestTimes/kept`` or more distinct times of the metric
        /// came before their first exposure, so the first one after it was not kept.
        package var unknown = 0
    }

    /// Units exposed to a variation the experiment file does not declare: left out of the
    /// variations, the comparisons and the SRM test.
    package struct UndeclaredVariation: Sendable, Equatable {
        package var key: String
        package var variationId: Int
        package var units: Int
    }

    /// One variation.
    package struct Variation: Sendable {
        package var key: String
        package var variationId: Int
        package var feature: String
        package var units: Int
        package var metrics: [MetricCount]
        package var funnel: [FunnelStep]
        package var timeToConversion: ConversionTime
    }

    /// One variation against the baseline on one metric.
    package struct Comparison: Sendable {
        package var variation: String
        package var baseline: String
        package var metric: String
        package var guardrail: Bool
        package var expected: Double
        package var ci: [Double]
        package var pValue: Double
        package var pValueAdjusted: Double
        package var chanceToWin: Double
        package var risk: [Double]
        package var error: String?
        /// The metric's lower values are better: a significant fall is a win.
        package var inverse = false
        /// The Bayesian test's 1 − α credible interval of the effect.
        package var credibleInterval = [0.0, 0.0]
        /// The proper prior of the Bayesian test (the metric's own, else `--prior-*`); nil for flat.
        package var prior: BayesianPrior?
        /// Whether the metric's better direction is declared (see ``MetricCount/directionDeclared``);
        /// when not, chance to win is the chance of a rise.
        package var directionDeclared = true
        /// The baseline's figure is 0, so there is no relative lift: `expected`, `ci`, `risk` and
        /// `credibleInterval` are the absolute difference (treatment − control) the tests compared.
        package var liftUndefined = false

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
    package struct Experiment: Sendable {
        package var key: String
        package var primaryMetric: String?
        package var guardrails: [String]
        package var weights: [Double]
        package var srmPValue: Double?
        /// Why there is no SRM test where one would be expected (a bandit analysed from aggregates), if so.
        package var srmWithheld: String?
        package var multipleExposureUnits: Int
        package var variations: [Variation]
        package var comparisons: [Comparison]
        package var undeclaredVariations: [UndeclaredVariation] = []
        /// Whether its experiment file was read; without it the metrics are the defaults and no
        /// result is called a winner, a loser or a guardrail.
        package var hasFile = true
        /// For an experiment whose exposures carry `phase`: the phase reported (`--phase`), else nil.
        package var phase: PhaseScope?
        /// For an experiment whose exposures carry `phase`: each phase's units and SRM test.
        package var phases: [PhaseSplit] = []
        /// Units exposed in more than one phase (returning users), and how many of them were
        /// exposed to another variation in a later phase than in an earlier one (re-randomised).
        package var unitsInSeveralPhases = 0
        package var unitsSwitchingVariation = 0
        /// With `--dimension`: the same analysis over each value's units.
        package var slices: [DimensionSlice] = []
        /// With `--by`: cumulative results at each cut, the last being these results.
        package var overTime: [OverTimePoint] = []
        /// The first and last first-exposure times of the counted units (ms), nil without units.
        package var exposureSpan: ClosedRange<Int64>?
        /// For a rollout: its controller's decisions in the log, in order (docs/rollouts.md).
        package var rolloutTimeline: [RolloutDecision] = []
        /// For a rollout: its `rollout_decision` lines the timeline leaves out (an unknown decision), each said.
        package var rolloutWarnings: [String] = []
        /// For a bandit: its arms' period-weighted estimates, weight history and SRM (docs/bandits.md).
        package var bandit: BanditReport?
    }

    /// An experiment's results over the units of one dimension value (or of the values not shown
    /// on their own, `(other)`; of units without one, `(none)`).
    package struct DimensionSlice: Sendable {
        package var value: String
        package var experiment: Experiment
    }

    /// What was read.
    package struct Log: Sendable, Equatable {
        package var files: [String]
        package var lines: Int
        package var badLines: Int
        package var firstBadLines: [BadLine]
        /// Logs whose final line has no newline and does not parse (a writer stopped mid-line).
        package var tornFiles: [String] = []
        /// Screen events counted under "(other screens)" because the funnel follows at most
        /// ``ScreenTally/limit`` screen names; nil when it follows them all.
        package var otherScreenEvents: Int?
        /// The first run records (see ``RunRecord``), in log order: what produced the log.
        package var runs: [RunRecord] = []
        /// Shards of simulation runs an event store holds only part of (see ``UnfinishedShard``).
        package var unfinishedShards: [UnfinishedShard] = []
        /// Whether the one "file" is an event store's (redacted) URL, analysed in its database.
        package var isStore: Bool { files.count == 1 && (files[0].hasPrefix("postgresql://") || files[0].hasPrefix("postgres://")) }

        package var tornFinalLine: Bool { !tornFiles.isEmpty }

        /// Says that screens were left out of the funnel, if they were.
        package var funnelWarning: String? {
            otherScreenEvents.map { events in
                "the log names more than \(ScreenTally.limit) screens: the funnel follows at most \(ScreenTally.limit) "
                    + "(those met first) and counts \(events) screen event(s) of the others as '\(ScreenTally.otherName)'"
            }
        }
    }

    package var experiments: [Experiment]
    package var log: Log
    package var alpha: Double
    package var correction: Correction
    /// Wall-clock seconds spent reading and computing.
    package var elapsedSeconds: Double
    /// How the comparisons were tested: difference type, sequential tuning, prior (`alpha` above).
    package var settings = TestSettings()
    /// Experiments of the experiment files that are absent from the log, each with why (its
    /// status, its schedule, another app, or no exposure), e.g. `uk-manual-first: scheduled from
    /// 2026-12-01T00:00:00Z`.
    package var notRunning: [NotRunning] = []
    /// The `--dimension` the experiments are broken down by.
    package var dimension: String?
    /// The `--by` cuts of `overTime`.
    package var by: TimeBucket?
}

extension AnalysisReport {
    /// What a reader must know to trust the numbers, in every format: variations the experiment
    /// file does not declare, times to conversion left out, screens left out of the funnel.
    package var warnings: [String] {
        var warnings: [String] = []
        for experiment in experiments {
            warnings += experiment.warnings
        }
        warnings += log.warnings
        return warnings
    }

    /// What helps to read the numbers but is no fault of the log (``Experiment/notes``).
    package var notes: [String] { experiments.flatMap(\.notes) }
}

extension AnalysisReport.Log {
    /// What a reader must know about the log as a whole: runs it holds only part of, screens left
    /// out of the funnel.
    package var warnings: [String] {
        UnfinishedShard.warnings(unfinishedShards) + (funnelWarning.map { [$0] } ?? [])
    }
}

extension AnalysisReport.Experiment {
    /// This experiment's warnings (see ``AnalysisReport/warnings``).
    package var warnings: [String] {
        var warnings: [String] = []
        if !hasFile {
            warnings.append("\(key): no experiment file for it was read, so its metrics are "
                            + (primaryMetric.map { "the defaults (\($0)…)" } ?? "unknown")
                            + " and no result is called WINNER, LOSER or a guardrail; give its folder with --experiments")
        }
        if let srmWithheld { warnings.append("\(key): \(srmWithheld)") }
        warnings += rolloutWarnings
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
        }
        let unknown = variations.reduce(0) { $0 + $1.timeToConversion.unknown }
        if unknown > 0, let metric = primaryMetric {
            warnings.append("\(key): time to \(metric) leaves out \(unknown) converted unit(s) with \(EarliestTimes.kept) or "
                            + "more distinct \(metric) times before their first exposure")
        }
        return warnings
    }

    /// What helps to read this experiment's numbers but is no fault of the log: a CUPED metric
    /// with nothing before exposure to adjust with, as in every run where users are exposed on
    /// their first visit (the shipped simulations), whose results are then the unadjusted ones.
    package var notes: [String] {
        (variations.first?.metrics ?? []).indices.compactMap { index in
            let metric = variations[0].metrics[index]
            let covariates = variations.compactMap { variation -> Double? in
                guard case .regressionAdjusted(let sample) = variation.metrics[index].statistic else { return nil }
                return abs(sample.pre.sum)
            }
            guard metric.cuped, !covariates.isEmpty, covariates.allSatisfy({ $0 == 0 }) else { return nil }
            return "\(key): \(metric.metric) has no value before any unit's first exposure (in its pre-window), "
                + "so CUPED cannot adjust it; its results are the unadjusted ones"
        }
    }
}

/// How p-values are adjusted for testing many variations × metrics.
package enum Correction: String, Sendable, CaseIterable {
    case none, holm, bh
}

/// The SRM p-value below which a sample ratio mismatch is flagged.
package let srmThreshold = 0.001
