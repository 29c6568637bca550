import Foundation
import RemixExperiments

extension Analyzer {
    /// The report of a source that aggregates itself (an event store's SQL, a warehouse query's
    /// result): the same report a log file of the same events gives, from per-variation
    /// aggregates only. `options.logs` is not read; `--by` is not available here, `--dimension`
    /// only where the source can slice.
    package static func run(_ options: AnalysisOptions, queries: some AggregateQueries) async throws(AnalysisError) -> AnalysisReport {
        let started = ContinuousClock.now
        if options.by != nil { throw .notFromStore(option: "--by") }
        let overview = try await queries.overview()
        guard overview.lines > 0 else { throw .emptyLog(files: [overview.name]) }
        let tracked = trackedMetrics(options)
        let keys = overview.experiments.keys.filter { !AggregateScope.isScope($0) }.sorted()
        var selected = keys
        if let wanted = options.experiment {
            selected = keys.filter { $0 == wanted }
            if selected.isEmpty { throw .unknownExperiment(key: wanted, known: keys) }
        }
        var otherScreenEvents = 0
        var sliced = false
        var experiments: [AnalysisReport.Experiment] = []
        for key in selected {
            let definition = options.definitions[key]
            let phases = AggregateScope.phases(of: key, in: overview.experiments.keys)
            var scope: PhaseScope?
            if let highest = phases.last {
                switch options.phaseByExperiment[key] ?? options.phase {
                case .all: scope = .all
                case .number(let number): scope = .number(number)
                case .latest: scope = .number(definition?.phases.last?.number ?? highest)
                }
            }
            // An experiment with phases is reported from its phase's own exposures (or all of them).
            var entry = key
            if case .number(let number)? = scope { entry = AggregateScope.phase.name(String(number), of: key) }
            let splits = scope == nil ? [] : try await phaseSplits(key, phases: phases, overview: overview, queries: queries,
                                                                  definition: definition)
            let phaseFigures = scope == nil ? PhaseAggregates() : try await queries.phaseAggregates(experiment: key)
            let weights = Self.weights(scope, splits: splits, definition: definition) { phaseFigures.firstExposed }
            let slices = options.dimension == nil ? [] : try await queries.slices(experiment: entry)
            sliced = sliced || slices.contains { $0 != DimensionSlicer.noneName }
            var (report, others) = try await aggregatedReport(entry, key: key, overview: overview, queries: queries,
                                                              options: options, tracked: tracked, weights: weights)
            otherScreenEvents = max(otherScreenEvents, others)
            for value in slices {
                let (slice, _) = try await aggregatedReport(AggregateScope.slice.name(value, of: entry), key: key, overview: overview,
                                                            queries: queries, options: options, tracked: tracked, weights: weights)
                report.slices.append(AnalysisReport.DimensionSlice(value: value, experiment: slice))
            }
            report.phase = scope
            report.phases = splits
            if scope != nil { (report.unitsInSeveralPhases, report.unitsSwitchingVariation) = (phaseFigures.unitsInSeveralPhases, phaseFigures.switching) }
            experiments.append(report)
        }
        // As a log's analysis: a dimension no unit has a value of is a mistake in its name.
        if let name = options.dimension, !experiments.isEmpty, !sliced {
            throw .noDimensionValues(name: name, path: DimensionTally.path(of: name).map { String(decoding: $0, as: UTF8.self) }.joined(separator: "."))
        }
        let log = AnalysisReport.Log(files: [overview.name], lines: overview.lines, badLines: 0, firstBadLines: [],
                                     otherScreenEvents: otherScreenEvents > 0 ? otherScreenEvents : nil,
                                     runs: overview.runRecords.compactMap(AnalysisReport.RunRecord.init(line:)))
        var report = AnalysisReport(experiments: experiments, log: log, alpha: options.alpha, correction: options.correction,
                                    elapsedSeconds: (ContinuousClock.now - started).seconds, settings: options.testSettings)
        report.dimension = options.dimension
        if options.experiment == nil { report.notRunning = notRunning(options.definitions, inLog: Set(keys)) }
        return report
    }

    /// The logged variations of what `name` reports (an experiment or a scope of it) as a tally entry.
    private static func tally(_ name: String, overview: AggregateOverview) -> LogTally.ExperimentTally {
        var tally = LogTally.ExperimentTally()
        for variation in overview.experiments[name] ?? [] {
            _ = Array(variation.key.utf8).withUnsafeBufferPointer { tally.variations.intern($0) }
            tally.variationIDs.append(variation.id)
            tally.features.append(variation.feature)
        }
        return tally
    }

    /// The report of experiment `key` over the units `name` reports (the experiment or a scope of
    /// it), and the screen events its funnel counted as other.
    private static func aggregatedReport(_ name: String, key: String, overview: AggregateOverview, queries: some AggregateQueries,
                                         options: AnalysisOptions, tracked: [String],
                                         weights: [Double]?) async throws(AnalysisError) -> (AnalysisReport.Experiment, Int) {
        let tally = tally(name, overview: overview)
        let definition = options.definitions[key]
        // The source is asked first (asynchronously), for the slots and metrics the report will have.
        let figures = try await AggregatedFigures(
            queries: queries, experiment: name, slots: slotOrder(definition, tally).map(\.key),
            logged: (overview.experiments[name] ?? []).map(\.key),
            metrics: metrics(of: definition, options: options, tracked: tracked).map(options.catalog.resolve),
            catalog: options.catalog, timed: timedMetrics(options, tracked: tracked),
            countsMissing: !name.hasPrefix(AggregateScope.separator + AggregateScope.slice.rawValue))
        let report = experimentReport(key: key, experiment: tally, options: options, tracked: tracked,
                                      weights: weights) { _, _, _ in figures }
        return (report, figures.otherScreenEvents)
    }

    /// Each phase's units by variation (in its report's slot order) and SRM test, as ``PhasePlan/splits``.
    private static func phaseSplits(_ key: String, phases: [Int], overview: AggregateOverview, queries: some AggregateQueries,
                                    definition: ExperimentDefinition?) async throws(AnalysisError) -> [AnalysisReport.PhaseSplit] {
        var splits: [AnalysisReport.PhaseSplit] = []
        for number in phases {
            let name = AggregateScope.phase.name(String(number), of: key)
            let order = slotOrder(definition, tally(name, overview: overview))
            let exposures = try await queries.exposures(experiment: name)
            let units = order.map { entry in entry.tallyIndex == nil ? 0 : exposures.variations[entry.key]?.units ?? 0 }
            let weights = PhasePlan.weights(of: definition, phase: number)
                ?? definition.map(normalizedWeights) ?? Array(repeating: 1 / Double(max(order.count, 1)), count: order.count)
            let srm = order.count >= 2 ? ComparisonBuilder.sampleRatio(units: units, weights: weights) : nil
            splits.append(AnalysisReport.PhaseSplit(phase: number, units: units, weights: weights, srmPValue: srm))
        }
        return splits
    }
}
