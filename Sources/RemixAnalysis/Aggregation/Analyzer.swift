import Foundation
import RemixExperiments
import RemixKit
import RemixLogReader
import RemixStatistics

/// What to analyse and how.
package struct AnalysisOptions: Sendable {
    /// Log files, globs, or `-` for standard input.
    package var logs: [String]
    /// Experiment definitions (for weights, variation order and metrics), by key.
    package var definitions: [String: ExperimentDefinition]
    /// Only this experiment, if set.
    package var experiment: String?
    /// Metrics to report instead of the experiment files' metrics.
    package var metrics: [String]
    /// The metrics reported when neither `metrics` nor an experiment definition names one: the
    /// default metric of the log's app, which the caller knows (`AppDefinition.defaultMetric`).
    /// Empty, such a report has units and no metrics.
    package var defaultMetrics: [String] = []
    package var alpha: Double
    package var correction: Correction
    /// Relative lift (default) or absolute difference.
    package var difference = DifferenceType.relative
    /// With a value, sequential testing with this tuning parameter.
    package var sequentialTuning: Double?
    /// A proper prior for the Bayesian test, on the relative effect; nil for the flat prior.
    package var prior: BayesianPrior?
    /// Bad lines are fatal.
    package var strict: Bool
    /// Bytes the first pass may use to keep the value metrics' events (see ``KeptEvents``); past
    /// them the log is read a second time.
    var keptEventBytes = 128 << 20
    /// Cumulative results at every whole hour or day of the log (`--by`).
    package var by: TimeBucket?
    /// Leave out events at or after this time (ms since the epoch), as if the log ended there.
    package var until = Int64.max
    /// Break every experiment down by this session attribute (or `persona`, `visit`), read from
    /// each unit's earliest `session_started` event.
    package var dimension: String?
    /// Which phase of an experiment with phases to report (`--phase`).
    package var phase = PhaseSelection.latest
    /// Whether `--phase` was given (a warehouse query then reads the `phase` column, which a table
    /// has only when some exposure has one, even without experiment files that declare phases).
    package var phaseRequested = false
    /// The phase to report of single experiments, instead of `phase` (the cuts of `--by` report
    /// the phase the whole log's report does, though a cut may end before it has started).
    var phaseByExperiment: [String: PhaseSelection] = [:]
    /// Threads for reading.
    package var jobs: Int
    /// The metrics that experiment files and `metrics` name by key (see ``MetricsFileParser``);
    /// a name that is not a key is the proportion of units with that event.
    package var catalog = MetricCatalog()
    /// Whether `definitions` come from an experiments folder that was read: then an experiment of
    /// the log without a definition is reported as having no file (no verdicts, a warning). Callers
    /// that analyse without files leave it false.
    package var readExperimentFiles = false
    /// Read sizes; tests make them small to cross chunk and part boundaries.
    var readSizes = LogReader.Sizes()

    /// Makes options.
    package init(logs: [String], definitions: [String: ExperimentDefinition] = [:], experiment: String? = nil,
                metrics: [String] = [], alpha: Double = 0.05, correction: Correction = .holm, strict: Bool = false,
                jobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.logs = logs
        self.definitions = definitions
        self.experiment = experiment
        self.metrics = metrics
        self.alpha = alpha
        self.correction = correction
        self.strict = strict
        self.jobs = max(1, jobs)
    }

    /// The tests' settings these options ask for.
    package var testSettings: TestSettings {
        TestSettings(alpha: alpha, difference: difference, sequentialTuning: sequentialTuning, prior: prior)
    }
}

/// Streams logs into per-experiment, per-variation results with statistics.
package enum Analyzer {
    /// Reads the logs and computes the report.
    package static func run(_ options: AnalysisOptions) throws(AnalysisError) -> AnalysisReport {
        let started = ContinuousClock.now
        let files = try AnalysisError.reading { () throws(LogReadError) in try LogPaths.expand(options.logs) }
        let reading = try LogReading(options)
        var tally = try LogReader.tally(paths: files, tracked: reading.events, timed: reading.timed, until: options.until,
                                        kept: reading.makeKept(limitBytes: options.keptEventBytes),
                                        keptFieldNames: reading.fieldNames, jobs: options.jobs, sizes: options.readSizes)
        if options.strict, tally.badLineCount > 0 { throw .strict(badLines: tally.badLineCount, first: tally.badLines) }
        guard tally.lines > 0 else { throw .emptyLog(files: files.map(LogReader.displayName)) }
        // A log of mostly bad lines is not an event log (a binary, a text file): an error, not a report.
        guard tally.badLineCount * 2 <= tally.lines else {
            throw .noEvents(files: files.map(LogReader.displayName), badLines: tally.badLineCount, lines: tally.lines,
                            first: tally.badLines)
        }
        var (experiments, keys) = try experimentReports(&tally, files: files, reading: reading, options: options)
        attachRolloutTimelines(&experiments, files: files, definitions: options.definitions)
        attachBanditReports(&experiments, files: files, definitions: options.definitions, catalog: options.catalog)
        let log = AnalysisReport.Log(files: files, lines: tally.lines, badLines: tally.badLineCount,
                                     firstBadLines: tally.badLines, tornFiles: tally.tornFiles,
                                     otherScreenEvents: tally.screens.overflowed ? tally.screens.otherEvents : nil,
                                     runs: tally.runRecords)
        var report = AnalysisReport(experiments: experiments, log: log, alpha: options.alpha, correction: options.correction,
                                    elapsedSeconds: (ContinuousClock.now - started).seconds, settings: options.testSettings)
        report.dimension = options.dimension
        if let by = options.by {
            if let path = files.first(where: { !LogReader.isRereadable($0) }) {
                throw .notRereadable(path: LogReader.displayName(path), metrics: ["--by \(by.rawValue)"])
            }
            report.by = by
            try addOverTime(&report, tally: tally, options: options, bucket: by)
        }
        if options.experiment == nil { report.notRunning = notRunning(options.definitions, inLog: Set(keys), found: experiments) }
        return report
    }

    /// The experiments' reports from a log's tally (`files` are read again only for a second pass
    /// the tally's kept events cannot spare, or `--dimension`), and the keys of every experiment logged.
    static func experimentReports(_ tally: inout LogTally, files: [String], reading: LogReading,
                                  options: AnalysisOptions) throws(AnalysisError) -> ([AnalysisReport.Experiment], [String]) {
        let tracked = reading.tracked
        let plan = PhasePlan(tally: tally)
        let keys = plan.logged.map(\.element)
        var selected = plan.logged.sorted { $0.element < $1.element }
        if let wanted = options.experiment {
            selected = selected.filter { $0.element == wanted }
            if selected.isEmpty { throw .unknownExperiment(key: wanted, known: keys) }
        }
        // Each experiment with phases is reported from its phase's own exposures (or all of them).
        var reported: [String: (index: Int, scope: PhaseScope?)] = [:]
        for (index, key) in selected {
            let scope = try plan.scope(of: key, selection: options.phaseByExperiment[key] ?? options.phase,
                                       definition: options.definitions[key], whole: options.until == .max)
            reported[key] = (plan.index(of: key, scope: scope, logged: index, tally: &tally), scope)
        }
        let values = try sumValues(reading.resolved, columns: reading.columns, files: files, tally: tally, options: options)
        let dimension = try readDimension(files: files, tally: tally, options: options)
        let experiments = selected.map { logged, key in
            let (index, scope) = reported[key] ?? (logged, nil)
            let splits = scope == nil ? [] : plan.splits(of: key, tally: tally, definition: options.definitions[key])
            let weights = Self.weights(scope, splits: splits, definition: options.definitions[key]) {
                plan.firstExposures(of: key, tally: tally)
            }
            var report = experimentReport(key: key, tally: tally, index: index, options: options, tracked: tracked, values: values,
                                          weights: weights)
            if let dimension {
                report.slices = DimensionSlicer.slices(of: tally.experiments[index], dimension: dimension) { include in
                    experimentReport(key: key, tally: tally, index: index, options: options, tracked: tracked, values: values,
                                     weights: weights, include: include)
                }
            }
            report.phase = scope
            report.phases = splits
            if scope != nil { (report.unitsInSeveralPhases, report.unitsSwitchingVariation) = plan.crossings(of: key, tally: tally) }
            return report
        }
        return (experiments, keys)
    }

    /// Each experiment of the files that is absent from the log, with why, as of the log's first
    /// exposure (a simulated log's time, virtual as it is; else now) and for the apps of the
    /// experiments `found` in it — what a log read from a file, a store or a warehouse's result
    /// all tell alike.
    static func notRunning(_ definitions: [String: ExperimentDefinition], inLog: Set<String>,
                           found: [AnalysisReport.Experiment]) -> [NotRunning] {
        let first = found.compactMap { $0.exposureSpan?.lowerBound }.min()
        return notRunning(definitions, inLog: inLog, apps: Set(found.compactMap { definitions[$0.key]?.app }),
                          now: first.map { Date(timeIntervalSince1970: Double($0) / 1000) } ?? Date())
    }

    /// Each experiment of the files that is absent from the log, with why
    /// (``NotRunning/reason(_:at:apps:)`` at `now` for `apps`, the apps of the log's runs; else "no
    /// exposure in the log").
    static func notRunning(_ definitions: [String: ExperimentDefinition], inLog: Set<String>, apps: Set<String> = [],
                           now: Date = Date()) -> [NotRunning] {
        definitions.values.filter { !inLog.contains($0.key) }.sorted { $0.key < $1.key }.map { definition in
            NotRunning(key: definition.key, reason: NotRunning.reason(definition, at: now, apps: apps) ?? "no exposure in the log")
        }
    }

    /// Every metric any selected experiment reports.
    package static func trackedMetrics(_ options: AnalysisOptions) -> [String] {
        if !options.metrics.isEmpty { return unique(options.metrics) }
        let all = options.definitions.values.sorted { $0.key < $1.key }.flatMap(\.metrics.all)
        return unique(all.isEmpty ? options.defaultMetrics : all)
    }

    /// The events whose time to conversion is reported: each experiment's primary metric's, when
    /// it is a plain proportion.
    package static func timedMetrics(_ options: AnalysisOptions, tracked: [String]) -> Set<String> {
        var primaries = Set(options.definitions.values.compactMap { $0.metrics.all.first })
        if let first = options.metrics.first { primaries = [first] }
        if let first = tracked.first { primaries.insert(first) }
        return Set(primaries.map(options.catalog.resolve).filter(\.isSimpleProportion).compactMap(\.event))
    }

    /// The value columns the metrics that are not plain proportions read (see ``ValueTally``).
    static func valueColumns(_ metrics: [MetricDefinition], catalog: MetricCatalog) -> [ValueTally.Column] {
        var columns: [ValueTally.Column] = []
        for metric in metrics {
            for column in MetricReader.columns(metric, catalog: catalog) where !columns.contains(column) {
                columns.append(column)
            }
        }
        return columns
    }

    /// Per-unit sums for the metrics that are not plain proportions, from the events the first
    /// pass kept, or — when they did not fit its budget — from a second pass; nil when there are none.
    private static func sumValues(_ metrics: [MetricDefinition], columns: [ValueTally.Column], files: [String],
                                  tally: LogTally, options: AnalysisOptions) throws(AnalysisError) -> ValueTally? {
        guard !columns.isEmpty else { return nil }
        let keys = metrics.filter { !$0.isSimpleProportion }.map(\.key)
        guard var empty = ValueTally(columns: columns, first: tally) else {
            throw .tooManyValueFields(limit: LineFields.numericLimit, metrics: keys)
        }
        if let kept = tally.kept, !kept.overflowed {
            empty.add(kept)
            return empty
        }
        if let path = files.first(where: { !LogReader.isRereadable($0) }) {
            throw .notRereadable(path: LogReader.displayName(path), metrics: keys)
        }
        return try LogReader.sumValues(paths: files, empty: empty, jobs: options.jobs, sizes: options.readSizes)
    }

    /// The pass for `--dimension`; nil without one.
    private static func readDimension(files: [String], tally: LogTally,
                                      options: AnalysisOptions) throws(AnalysisError) -> DimensionTally? {
        guard let name = options.dimension else { return nil }
        if let path = files.first(where: { !LogReader.isRereadable($0) }) {
            throw .notRereadable(path: LogReader.displayName(path), metrics: ["--dimension \(name)"])
        }
        let dimension = try LogReader.readDimension(paths: files, empty: DimensionTally(dimension: name, first: tally),
                                                    jobs: options.jobs, sizes: options.readSizes)
        guard dimension.values.count > 0 else {
            throw .noDimensionValues(name: name, path: dimension.path.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "."))
        }
        return dimension
    }

    static func unique(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }

    /// The split a report in `scope` expects: its phase's weights, or all phases' mixed by the units
    /// first exposed in each; nil (the file's weights) without phases.
    static func weights(_ scope: PhaseScope?, splits: [AnalysisReport.PhaseSplit], definition: ExperimentDefinition?,
                                firstExposed: () -> [Int: Int]) -> [Double]? {
        switch scope {
        case nil: nil
        case .number(let number)?: PhasePlan.weights(of: definition, phase: number)
        case .all?: PhasePlan.mixedWeights(splits, firstExposed: firstExposed())
        }
    }

    private static func experimentReport(key: String, tally: LogTally, index: Int, options: AnalysisOptions,
                                         tracked: [String], values: ValueTally?, weights: [Double]? = nil,
                                         include: ((Int) -> Bool)? = nil) -> AnalysisReport.Experiment {
        let experiment = tally.experiments[index]
        return experimentReport(key: key, experiment: experiment, options: options, tracked: tracked,
                                weights: weights) { slots, order, metrics in
            VariationCounter(tally: tally, experiment: experiment, experimentIndex: index, slots: slots,
                             variationCount: order.count, metrics: metrics, catalog: options.catalog, values: values,
                             include: include)
        }
    }

    /// The metrics an experiment reports: `--metric`s, else its file's, else all tracked ones.
    package static func metrics(of definition: ExperimentDefinition?, options: AnalysisOptions, tracked: [String]) -> [String] {
        options.metrics.isEmpty ? (definition?.metrics.all).flatMap { $0.isEmpty ? nil : $0 } ?? tracked : unique(options.metrics)
    }

    /// One experiment's report from its logged variations and the figures `count` gives for the
    /// slots (logged variation index → slot), the variations in slot order and the metrics.
    static func experimentReport<Figures: ExperimentFigures, Failure: Error>(
        key: String, experiment: LogTally.ExperimentTally, options: AnalysisOptions, tracked: [String],
        weights expected: [Double]? = nil,
        count: ([Int: Int], [(key: String, id: Int, feature: String, tallyIndex: Int?)], [MetricDefinition]) throws(Failure) -> Figures
    ) throws(Failure) -> AnalysisReport.Experiment {
        let definition = options.definitions[key]
        let metrics = metrics(of: definition, options: options, tracked: tracked)
        let guardrails = Set(options.metrics.isEmpty ? definition?.metrics.guardrails ?? [] : [])
        let order = slotOrder(definition, experiment)
        let slotOf = Dictionary(order.enumerated().compactMap { slot, entry in entry.tallyIndex.map { ($0, slot) } },
                                uniquingKeysWith: { first, _ in first })
        let counts = try count(slotOf, order, metrics.map(options.catalog.resolve))
        let variations = order.enumerated().map { slot, entry in
            AnalysisReport.Variation(
                key: entry.key, variationId: entry.id,
                feature: entry.feature.isEmpty ? (entry.tallyIndex.map { experiment.features[$0] } ?? "") : entry.feature,
                units: counts.units[slot], metrics: counts.metricCounts(slot: slot),
                funnel: counts.funnel(slot: slot), timeToConversion: counts.conversionTime(slot: slot))
        }
        let undeclared = counts.unslotted.keys.sorted().map { index in
            AnalysisReport.UndeclaredVariation(key: experiment.variations.string(index), variationId: experiment.variationIDs[index],
                                               units: counts.unslotted[index] ?? 0)
        }
        let weights = expected.flatMap { $0.count == order.count ? $0 : nil }
            ?? definition.map { normalizedWeights($0) } ?? equalWeights(order.count)
        let comparisons = ComparisonBuilder.compare(variations: variations, metrics: metrics, guardrails: guardrails,
                                                    settings: options.testSettings, correction: options.correction)
        // Without its file the weights are unknown (equal is a guess), so there is no SRM verdict.
        let hasFile = definition != nil || !options.readExperimentFiles
        let srm = order.count >= 2 && hasFile ? ComparisonBuilder.sampleRatio(units: variations.map(\.units), weights: weights) : nil
        var report = AnalysisReport.Experiment(
            key: key, primaryMetric: metrics.first, guardrails: metrics.filter { guardrails.contains($0) },
            weights: weights, srmPValue: srm, multipleExposureUnits: counts.multiple, variations: variations,
            comparisons: comparisons, undeclaredVariations: undeclared,
            hasFile: hasFile)
        report.exposureSpan = counts.exposureSpan
        return report
    }

    /// The variations an experiment reports, in slot order: the file's order when there is a file
    /// (others are undeclared), else all logged ones by variationId; each with its index among the
    /// logged variations, if it was logged.
    static func slotOrder(_ definition: ExperimentDefinition?,
                          _ experiment: LogTally.ExperimentTally) -> [(key: String, id: Int, feature: String, tallyIndex: Int?)] {
        var order: [(key: String, id: Int, feature: String, tallyIndex: Int?)] = []
        if let definition {
            for (id, variation) in definition.variations.enumerated() {
                let found = experiment.variations.find(Array(variation.key.utf8).span)
                order.append((variation.key, id, variation.feature, found))
            }
        } else {
            for index in 0..<experiment.variations.count {
                order.append((experiment.variations.string(index), experiment.variationIDs[index], experiment.features[index], index))
            }
            order.sort { $0.id < $1.id }
        }
        return order
    }

    static func normalizedWeights(_ definition: ExperimentDefinition) -> [Double] {
        let count = definition.variations.count
        guard let weights = definition.experiment.weights, weights.count == count else { return equalWeights(count) }
        let total = weights.reduce(0, +)
        return total > 0 ? weights.map { $0 / total } : equalWeights(count)
    }

    private static func equalWeights(_ count: Int) -> [Double] {
        count == 0 ? [] : Array(repeating: 1 / Double(count), count: count)
    }
}
