import Foundation

extension Analyzer {
    /// The report of a store that aggregates itself (an event store's SQL): the same report a log
    /// file of the same events gives, from per-variation aggregates only. `options.logs` is not
    /// read; `--dimension` and `--by` are not available here.
    package static func run(_ options: AnalysisOptions, queries: some AggregateQueries) async throws(AnalysisError) -> AnalysisReport {
        let started = ContinuousClock.now
        if options.dimension != nil || options.by != nil {
            throw .notFromStore(option: options.dimension != nil ? "--dimension" : "--by")
        }
        let overview = try await queries.overview()
        guard overview.lines > 0 else { throw .emptyLog(files: [overview.name]) }
        let tracked = trackedMetrics(options)
        let timed = timedMetrics(options, tracked: tracked)
        let keys = overview.experiments.keys.sorted()
        var selected = keys
        if let wanted = options.experiment {
            selected = keys.filter { $0 == wanted }
            if selected.isEmpty { throw .unknownExperiment(key: wanted, known: keys) }
        }
        var otherScreenEvents = 0
        var experiments: [AnalysisReport.Experiment] = []
        for key in selected {
            let logged = overview.experiments[key] ?? []
            var tally = LogTally.ExperimentTally()
            for variation in logged {
                _ = Array(variation.key.utf8).withUnsafeBufferPointer { tally.variations.intern($0) }
                tally.variationIDs.append(variation.id)
                tally.features.append(variation.feature)
            }
            // The store is asked first (asynchronously), for the slots and metrics the report will have.
            let definition = options.definitions[key]
            let figures = try await AggregatedFigures(
                queries: queries, experiment: key, slots: slotOrder(definition, tally).map(\.key), logged: logged.map(\.key),
                metrics: metrics(of: definition, options: options, tracked: tracked).map(options.catalog.resolve),
                catalog: options.catalog, timed: timed)
            otherScreenEvents = max(otherScreenEvents, figures.otherScreenEvents)
            experiments.append(experimentReport(key: key, experiment: tally, options: options, tracked: tracked) { _, _, _ in figures })
        }
        let log = AnalysisReport.Log(files: [overview.name], lines: overview.lines, badLines: 0, firstBadLines: [],
                                     otherScreenEvents: otherScreenEvents > 0 ? otherScreenEvents : nil,
                                     runs: overview.runRecords.compactMap(AnalysisReport.RunRecord.init(line:)))
        var report = AnalysisReport(experiments: experiments, log: log, alpha: options.alpha, correction: options.correction,
                                    elapsedSeconds: (ContinuousClock.now - started).seconds, settings: options.testSettings)
        if options.experiment == nil { report.notRunning = notRunning(options.definitions, inLog: Set(keys)) }
        return report
    }
}
