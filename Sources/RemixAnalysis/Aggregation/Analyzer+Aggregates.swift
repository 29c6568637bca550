import Foundation
import RemixExperiments

extension Analyzer {
    /// The report of a source that aggregates itself (an event store's SQL, a warehouse query's
    /// result): the same report a log file of the same events gives, from per-variation
    /// aggregates only. `options.logs` is not read; `--dimension` and `--by` only where the
    /// source can slice and cut.
    package static func run(_ options: AnalysisOptions, queries: some AggregateQueries) async throws(AnalysisError) -> AnalysisReport {
        let started = ContinuousClock.now
        let overview = try await queries.overview()
        guard overview.lines > 0 else { throw .emptyLog(files: [overview.name]) }
        let cuts = options.by == nil ? nil : try await queries.cuts()
        let keys = overview.experiments.keys.filter { !AggregateScope.isScope($0) }.sorted()
        var selected = keys
        if let wanted = options.experiment {
            selected = keys.filter { $0 == wanted }
            if selected.isEmpty { throw .unknownExperiment(key: wanted, known: keys) }
        }
        var otherScreenEvents = 0
        var sliced = false
        var experiments: [AnalysisReport.Experiment] = []
        let source = AggregateSource(queries: queries, overview: overview, options: options)
        for key in selected {
            var (report, others) = try await source.report(key, within: key, selection: options.phaseByExperiment[key] ?? options.phase,
                                                           sliced: options.dimension != nil)
            sliced = sliced || report.slices.contains { $0.value != DimensionSlicer.noneName }
            otherScreenEvents = max(otherScreenEvents, others)
            if let cuts {
                report.overTime = try await source.overTime(of: report, cuts: cuts)
            }
            if options.definitions[key]?.bandit != nil { withholdBanditSRM(&report) }
            experiments.append(report)
        }
        // As a log's analysis: a dimension no unit has a value of is a mistake in its name.
        if let name = options.dimension, !experiments.isEmpty, !sliced {
            throw .noDimensionValues(name: name, path: DimensionTally.path(of: name).map { String(decoding: $0, as: UTF8.self) }.joined(separator: "."))
        }
        let log = AnalysisReport.Log(files: [overview.name], lines: overview.lines, badLines: 0, firstBadLines: [],
                                     otherScreenEvents: otherScreenEvents > 0 ? otherScreenEvents : nil,
                                     runs: overview.runRecords.compactMap(AnalysisReport.RunRecord.init(line:)),
                                     unfinishedShards: overview.unfinishedShards)
        var report = AnalysisReport(experiments: experiments, log: log, alpha: options.alpha, correction: options.correction,
                                    elapsedSeconds: (ContinuousClock.now - started).seconds, settings: options.testSettings)
        report.dimension = options.dimension
        report.by = options.by
        if options.experiment == nil { report.notRunning = notRunning(options.definitions, inLog: Set(keys), found: experiments) }
        return report
    }

    /// A bandit's weights change at each `bandit_update`, and a report from aggregates does not
    /// read them: its SRM test against fixed weights would be a false alarm, so there is none
    /// (nor in its slices), and the report says why and where the bandit's figures are.
    private static func withholdBanditSRM(_ report: inout AnalysisReport.Experiment) {
        report.srmPValue = nil
        report.srmWithheld = "a bandit's weights change at each bandit_update, which an analysis of aggregates (an event "
            + "store, a warehouse result) does not read: no SRM test is made (one against fixed weights would be a false "
            + "alarm) and the comparisons pool every period; for the bandit's period-weighted figures and SRM, export the "
            + "events with 'remix log copy URL events.jsonl' and analyse the file"
        for index in report.slices.indices { report.slices[index].experiment.srmPValue = nil }
    }
}

/// Experiment reports from an aggregating source, as ``Analyzer/run(_:)`` makes them from a log.
private struct AggregateSource<Queries: AggregateQueries> {
    let queries: Queries
    let overview: AggregateOverview
    let options: AnalysisOptions

    /// Experiment `key`'s report over the units `base` names (the experiment, or a cut of it): an
    /// experiment with phases from its phase's own exposures (or all of them), with each phase's
    /// split; with `sliced`, the dimension's slices. Also the screen events its funnel counted as other.
    func report(_ key: String, within base: String, selection: PhaseSelection,
                sliced: Bool) async throws(AnalysisError) -> (AnalysisReport.Experiment, Int) {
        let definition = options.definitions[key]
        let phases = AggregateScope.phases(of: base, in: overview.experiments.keys)
        let scope = try PhasePlan.scope(of: key, selection: selection, definition: definition, logged: phases, whole: base == key)
        var entry = base
        if case .number(let number)? = scope { entry = AggregateScope.phase.name(String(number), of: base) }
        let splits = scope == nil ? [] : try await phaseSplits(key, base: base, phases: phases, definition: definition)
        let phaseFigures = scope == nil ? PhaseAggregates() : try await queries.phaseAggregates(experiment: base)
        let weights = Analyzer.weights(scope, splits: splits, definition: definition) { phaseFigures.firstExposed }
        let slices = sliced ? try await queries.slices(experiment: entry) : []
        var (report, others) = try await figures(entry, key: key, weights: weights)
        for value in slices {
            // A slice's logged variations are its experiment's (or phase's), as a log's slice keeps them.
            let (slice, _) = try await figures(AggregateScope.slice.name(value, of: entry), key: key, weights: weights,
                                               variationsOf: entry)
            report.slices.append(AnalysisReport.DimensionSlice(value: value, experiment: slice))
        }
        report.phase = scope
        report.phases = splits
        if scope != nil { (report.unitsInSeveralPhases, report.unitsSwitchingVariation) = (phaseFigures.unitsInSeveralPhases, phaseFigures.switching) }
        return (report, others)
    }

    /// The results of `report` at each cut the experiment had exposures before, then at the last
    /// (the report's own), as ``Analyzer/addOverTime`` gives them.
    func overTime(of report: AnalysisReport.Experiment, cuts: CutAggregates) async throws(AnalysisError) -> [AnalysisReport.OverTimePoint] {
        guard let by = options.by, cuts.count > 0 else { return [] }
        guard cuts.count <= Analyzer.maximumCuts else {
            throw .tooManyCuts(count: cuts.count, limit: Analyzer.maximumCuts, bucket: by.rawValue)
        }
        var selection = options.phaseByExperiment[report.key] ?? options.phase
        if case .number(let number) = report.phase { selection = .number(number) }
        var points: [AnalysisReport.OverTimePoint] = []
        for cut in cuts.cuts {
            let base = AggregateScope.cut.name(String(cut), of: report.key)
            guard overview.experiments[base] != nil else { continue }
            let (found, _) = try await self.report(report.key, within: base, selection: selection, sliced: false)
            points.append(OverTimePointBuilder.point(found, until: cut))
        }
        points.append(OverTimePointBuilder.point(report, until: cuts.last))
        return points
    }

    /// The logged variations of what `name` reports (an experiment or a scope of it) as a tally entry.
    private func tally(_ name: String) -> LogTally.ExperimentTally {
        var tally = LogTally.ExperimentTally()
        for variation in overview.experiments[name] ?? [] {
            _ = tally.variations.intern(Array(variation.key.utf8).span)
            tally.variationIDs.append(variation.id)
            tally.features.append(variation.feature)
        }
        return tally
    }

    /// The report of experiment `key` over the units `name` reports — its logged variations those
    /// of `variationsOf` (default: `name`) — and the screen events its funnel counted as other.
    private func figures(_ name: String, key: String, weights: [Double]?,
                         variationsOf listed: String? = nil) async throws(AnalysisError) -> (AnalysisReport.Experiment, Int) {
        let tally = tally(listed ?? name)
        let definition = options.definitions[key]
        let tracked = Analyzer.trackedMetrics(options)
        // The source is asked first (asynchronously), for the slots and metrics the report will have.
        let figures = try await AggregatedFigures(
            queries: queries, experiment: name, slots: Analyzer.slotOrder(definition, tally).map(\.key),
            logged: (overview.experiments[listed ?? name] ?? []).map(\.key),
            metrics: Analyzer.metrics(of: definition, options: options, tracked: tracked).map(options.catalog.resolve),
            catalog: options.catalog, timed: Analyzer.timedMetrics(options, tracked: tracked),
            countsMissing: !name.hasPrefix(AggregateScope.separator + AggregateScope.slice.rawValue))
        let report = Analyzer.experimentReport(key: key, experiment: tally, options: options, tracked: tracked,
                                               weights: weights) { _, _, _ in figures }
        return (report, figures.otherScreenEvents)
    }

    /// Each phase's units by variation (in its report's slot order) and SRM test, as ``PhasePlan/splits``.
    private func phaseSplits(_ key: String, base: String, phases: [Int],
                             definition: ExperimentDefinition?) async throws(AnalysisError) -> [AnalysisReport.PhaseSplit] {
        var splits: [AnalysisReport.PhaseSplit] = []
        for number in phases {
            let name = AggregateScope.phase.name(String(number), of: base)
            let order = Analyzer.slotOrder(definition, tally(name))
            let exposures = try await queries.exposures(experiment: name)
            let units = order.map { entry in entry.tallyIndex == nil ? 0 : exposures.variations[entry.key]?.units ?? 0 }
            let weights = PhasePlan.weights(of: definition, phase: number)
                ?? definition.map(Analyzer.normalizedWeights) ?? Array(repeating: 1 / Double(max(order.count, 1)), count: order.count)
            let srm = order.count >= 2 ? ComparisonBuilder.sampleRatio(units: units, weights: weights) : nil
            splits.append(AnalysisReport.PhaseSplit(phase: number, units: units, weights: weights, srmPValue: srm))
        }
        return splits
    }
}
