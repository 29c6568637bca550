import Foundation
import RemixAnalysis
import RemixBuiltIns
import RemixExperiments
import RemixFiles
import RemixFormats
import RemixKit
import RemixStore
import RemixYAML

/// `remix analyze`: per-variation results with statistics from event logs (files, standard input or
/// one event store), as a report in one of five formats, shown or written to a file.
package struct Analyze {
    /// A report's format.
    package enum Format: String, CaseIterable, Sendable {
        case table, json, csv, markdown, html
    }

    /// Event logs: files, globs, `-` for standard input, or one event store URL.
    package var logs: [String]
    /// The folder of experiment files, when one was named: a missing one is then an error, where
    /// the default `experiments` is only a warning.
    package var experiments: String?
    /// Only this experiment.
    package var experiment: String?
    /// Metrics to report by key or event name, instead of the experiment files'.
    package var metrics: [String] = []
    /// The metric definitions file (nil: the experiments folder's metrics.yaml, if there).
    package var metricsFile: String?
    /// The report's format.
    package var format = Format.table
    /// Write the report into this file instead of returning its text.
    package var output: String?
    /// Significance level.
    package var alpha = 0.05
    /// Multiple-testing correction across variations × metrics.
    package var correction = Correction.holm
    /// The tests' settings besides α (nil: GrowthBook's defaults).
    package var settings: TestSettings?
    /// Break every result down by this session attribute.
    package var dimension: String?
    /// Also give cumulative results at every whole hour or day.
    package var by: TimeBucket?
    /// For experiments with phases: `latest` (nil: the same), `all` or a phase number.
    package var phase: String?
    /// Fail on any line that does not parse.
    package var strict = false
    /// Reading threads (nil: one per core).
    package var jobs: Int?
    /// Also write the report as an HTML page to this file.
    package var html: String?
    /// Colour the table (the CLI does when it shows it on a terminal).
    package var colour = false
    /// Print the warehouse query of every aggregate the report needs, in this dialect, instead of a report.
    package var sql: WarehouseDialect?
    /// The flat events table the warehouse query reads.
    package var table = "events"
    /// Build the report from this CSV of the warehouse query's result instead of event logs.
    package var aggregates: String?

    /// The analysis of `logs` with the default options.
    package init(logs: [String]) {
        self.logs = logs
    }

    /// What the analysis found.
    package struct Outcome {
        /// The report.
        package var report: AnalysisReport
        /// The report in the format asked for, unless it was written to `output`.
        package var text: String?
    }

    /// Why the options cannot be analysed with, or nil.
    package func optionProblem() -> String? {
        guard alpha > 0, alpha < 1 else { return "--alpha must be between 0 and 1 (got \(alpha))" }
        if let jobs, jobs <= 0 { return "--jobs must be at least 1 (got \(jobs))" }
        if let phase, PhaseSelection(phase) == nil {
            return "--phase is a phase number from 0 (as GrowthBook numbers them), latest or all, not '\(phase)'"
        }
        if let dimension, dimension.isEmpty || !dimension.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) {
            return "--dimension is an attribute name such as platform or country, not '\(dimension)'"
        }
        if let problem = warehouseProblem() { return problem }
        if dimension != nil, by != nil, format == .csv {
            return "--by and --dimension give two tables, and CSV holds one: run them as two reports "
                + "(or use --format json or html, which hold both)"
        }
        return nil
    }

    /// Why `--sql` or `--aggregates` cannot be used with the other options, or nil.
    func warehouseProblem() -> String? {
        guard sql != nil || aggregates != nil else { return nil }
        if sql != nil, aggregates != nil { return "--sql prints the query and --aggregates reads its result: give one of them" }
        return nil
    }

    /// The warehouse query (`--sql`) of every aggregate the report of these options needs.
    package func query(_ context: AppContext) throws -> String {
        guard let dialect = sql else { throw AppError("--sql names a dialect: postgresql, duckdb or spark") }
        if let problem = optionProblem() { throw AppError(problem) }
        let folder = experiments ?? "experiments"
        if experiments != nil, !FileManager.default.fileExists(atPath: folder) {
            throw AppError("experiments folder '\(folder)' does not exist (--experiments)")
        }
        let options = try analysisOptions(folder: folder, registry: Modules.quiet(context), context)
        return WarehouseQuery.sql(options, dialect: dialect, table: table)
    }

    /// Analyses the logs.
    package func run(_ context: AppContext) async throws -> Outcome {
        try await run(context, metricEvents: nil)
    }

    /// Analyses the logs; `metricEvents` are the events a metric may count (nil: the built-in
    /// features', and those of the plugins in `REMIX_PLUGIN_PATH`).
    func run(_ context: AppContext, metricEvents: MetricEvents?) async throws -> Outcome {
        if let problem = optionProblem() { throw AppError(problem) }
        if phase != nil, logs.contains(where: StoreURL.isStoreURL) {
            throw AppError("--phase reads log files: an event store's analysis does not tell phases apart yet "
                           + "(copy the events to a file with remix log copy, or leave --phase out for all phases together)")
        }
        let folder = experiments ?? "experiments"
        try Outputs.refuseOverInputs(
            inputs: LogPaths.files(logs).map { .init("the event log", $0) }
                + [.init("the metrics file", metricsFile ?? (folder as NSString).appendingPathComponent(MetricsFileParser.fileName)),
                   .init("a file of the experiments folder", folder)] + (aggregates.map { [.init("the aggregates file", $0)] } ?? []),
            outputs: (output.map { [.init("--output", $0)] } ?? []) + (html.map { [.init("--html", $0)] } ?? []))
        let folderMissing = !FileManager.default.fileExists(atPath: folder)
        if folderMissing, experiments != nil { throw AppError("experiments folder '\(folder)' does not exist (--experiments)") }
        let registry = Modules.quiet(context)
        let options = try analysisOptions(folder: folder, registry: registry, context)
        let report: AnalysisReport
        if let aggregates {
            report = try await Self.report(aggregates: aggregates, options)
        } else {
            report = try await Self.report(options)
        }
        warnAboutMetrics(report, options: options, events: metricEvents ?? MetricEvents(registry: registry,
                         more: MetricEvents.simulatedUserEvents(folders: [folder])), context)
        if folderMissing {
            context.warn("no experiments folder here ('\(folder)'): variations get equal weights in the SRM "
                         + "test and metrics have no guardrails; pass --experiments DIR")
        }
        // The terminal table shows these itself.
        if format != .table || output != nil { warnAboutLog(report, context) }
        let text = render(report)
        if let output { try ReportFile.write(text, to: output) }
        if let html { try ReportFile.write(HTMLReport.render(report), to: html) }
        return Outcome(report: report, text: output == nil ? text : nil)
    }

    /// The analysis options: the definitions of the experiments folder (a file with an error is
    /// left out, saying so), the metrics file, and — when nothing names a metric — the default
    /// metric of the experiments' apps, else of the default app (``BuiltInModules/defaultApp``).
    private func analysisOptions(folder: String, registry: FeatureRegistry, _ context: AppContext) throws -> AnalysisOptions {
        let definitions = Definitions.lenient(folder: folder, without: "the analysis goes on without that file", context)
        var options = AnalysisOptions(logs: logs, definitions: definitions, experiment: experiment, metrics: metrics,
                                      alpha: alpha, correction: correction, strict: strict, jobs: context.usefulJobs(jobs))
        options.readExperimentFiles = true
        options.dimension = dimension
        options.by = by
        options.phase = phase.flatMap(PhaseSelection.init) ?? .latest
        options.phaseRequested = phase != nil
        if let settings {
            options.difference = settings.difference
            options.sequentialTuning = settings.sequentialTuning
            options.prior = settings.prior
        }
        options.catalog = try Definitions.metrics(metricsFile, folder: folder, named: metrics, context)
        options.defaultMetrics = Self.defaultMetrics(of: definitions.values, registry: registry)
        return options
    }

    /// The default metrics of the apps `definitions` are of, else that of the default app.
    static func defaultMetrics(of definitions: some Collection<ExperimentDefinition>, registry: FeatureRegistry) -> [String] {
        let apps = Set(definitions.map(\.app)).sorted()
        var metrics: [String] = []
        for app in apps.isEmpty ? [BuiltInModules.defaultApp] : apps {
            if let metric = (try? registry.app(named: app))?.defaultMetric, !metrics.contains(metric) { metrics.append(metric) }
        }
        return metrics
    }

    /// The report of a warehouse query's result (`--aggregates`), through the same code as an event store's.
    static func report(aggregates file: String, _ options: AnalysisOptions) async throws -> AnalysisReport {
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw AnalysisError.cannotRead(path: file, reason: "\((error as NSError).localizedDescription) (--aggregates)")
        }
        return try await Analyzer.run(options, queries: TableAggregates(AggregateTable(csv: text, name: file)))
    }

    /// The report of log files, or of an event store when the one log is a store URL.
    static func report(_ options: AnalysisOptions) async throws(AnalysisError) -> AnalysisReport {
        guard let first = options.logs.first, options.logs.contains(where: StoreURL.isStoreURL) else { return try Analyzer.run(options) }
        guard options.logs.count == 1 else {
            throw .store("an event store URL must be the only log analysed (got \(options.logs.count) logs)")
        }
        let url: StoreURL
        do {
            url = try StoreURL(parsing: first)
        } catch {
            throw .store("\(error)")
        }
        return try await StoreAnalysis.run(url, options)
    }

    /// Warns of the metrics that count nothing: `--metric` names that are no key and no event of the
    /// log, and — without `--metric` — the experiments' metrics that are no key and no event.
    private func warnAboutMetrics(_ report: AnalysisReport, options: AnalysisOptions, events: MetricEvents, _ context: AppContext) {
        for warning in MetricWarnings.unmatched(metrics, catalog: options.catalog, report: report) { context.warn(warning) }
        guard metrics.isEmpty else { return }
        for problem in MetricWarnings.unknown(report, definitions: options.definitions, catalog: options.catalog, events: events) {
            context.notify(.line(problem.description))
        }
    }

    /// The log's bad lines and the report's warnings, which the terminal table shows itself.
    private func warnAboutLog(_ report: AnalysisReport, _ context: AppContext) {
        if report.log.badLines > 0 {
            context.warn("\(CountText.grouped(report.log.badLines)) line(s) are not events and were skipped (first: "
                         + report.log.firstBadLines.map(\.description).joined(separator: "; ") + ")"
                         + (report.log.tornFinalLine ? "; the final line of \(report.log.tornFiles.joined(separator: ", ")) is torn" : ""))
        }
        for warning in report.warnings { context.warn(warning) }
    }

    private func render(_ report: AnalysisReport) -> String {
        switch format {
        case .table: TableReport.render(report, style: .terminal(colour: colour && output == nil))
        case .markdown: TableReport.render(report, style: .markdown)
        case .csv: CSVReport.render(report)
        case .json: JSONReport.render(report)
        case .html: HTMLReport.render(report)
        }
    }
}

/// The warnings of metrics that a report counts nothing for.
enum MetricWarnings {
    /// `--metric` names that are no metrics-file key and counted no event in any variation: most
    /// likely a typo of a key or an event type (a report of zeros would say nothing of it).
    static func unmatched(_ names: [String], catalog: MetricCatalog, report: AnalysisReport) -> [String] {
        let counts = report.experiments.flatMap(\.variations).flatMap(\.metrics)
        let seen = Set(counts.filter { $0.conversions > 0 }.map(\.metric))
        let reported = Set(counts.map(\.metric))
        return names.filter { catalog[$0] == nil && !seen.contains($0) && reported.contains($0) }
            .map { name in
                let events = Set(catalog.definitions.compactMap(\.event)).union(reported).subtracting([name]).sorted()
                return unknownMetric(name, catalog: catalog, events: events, because: "no exposed unit has an event of that type")
            }
    }

    /// The metrics the report's experiments name that are no key of `catalog` and no event (as `remix
    /// validate` says, with the nearest name), as warnings: the report shows them as zeros. A metric
    /// that counted something in the log is an event after all (of a plugin not loaded here).
    static func unknown(_ report: AnalysisReport, definitions: [String: ExperimentDefinition], catalog: MetricCatalog,
                        events: MetricEvents) -> [Diagnostic] {
        var events = events
        let counted = report.experiments.flatMap(\.variations).flatMap(\.metrics).filter { $0.conversions > 0 }.map(\.metric)
        events.names += counted + counted.compactMap { catalog[$0]?.event }
        let reported = report.experiments.compactMap { definitions[$0.key] }
        return events.problems(in: reported, catalog: catalog).filter { $0.severity == .error }.map { problem in
            Diagnostic(problem.location, .warning, problem.message + "; the report counts nothing for it")
        }
    }
}
