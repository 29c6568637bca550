import Foundation
import RemixAnalysis
import RemixBuiltIns
import RemixExperiments
import RemixFiles
import RemixFormats
import RemixKit
import RemixLogReader
import RemixReports
import RemixStatistics
import RemixStore
import RemixWarehouse
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
    /// The folder of experiment files (nil: the files the logs' run records name when they are as the
    /// run read them, else `experiments`, else none; ``AnalysisExperimentFiles``). A folder named
    /// that does not exist is an error.
    package var experiments: String?
    /// Only this experiment.
    package var experiment: String?
    /// Metrics to report by key or event name, instead of the experiment files'.
    package var metrics: [String] = []
    /// The metric definitions file (nil: the experiments folder's metrics.yaml, else the one
    /// ``InputFiles/metrics(experiments:)`` falls back to).
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
    /// The terminal's width the table fits, ending with a `next:` line (``TableReport``); nil: a
    /// line per table row whatever its length (`--wide`).
    package var width: Int?
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
        /// A line for each file written: `wrote report.md (markdown, 12,345 bytes)`.
        package var written: [String] = []
        /// The line that ends the table on standard output: what to do next (``NextStep``).
        package var next: String?
    }

    /// Why the options cannot be analysed with, or nil.
    package func optionProblem() -> String? {
        guard alpha > 0, alpha < 1 else { return "--alpha must be between 0 and 1 (got \(alpha))" }
        if let jobs, jobs <= 0 { return "--jobs must be at least 1 (got \(jobs))" }
        if let phase, PhaseSelection(phase) == nil {
            return "--phase is a phase number from 0 (as GrowthBook numbers them), latest or all, not \(Excerpt.quoted(phase))"
        }
        if let dimension, dimension.isEmpty || !dimension.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) {
            return "--dimension is an attribute name such as platform or country, not \(Excerpt.quoted(dimension))"
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
        if let sql, sql.table(table) == nil {
            return "--table is the events table's name, a plain identifier optionally after its schema (events, "
                + "analytics.events: letters, digits and _), not \(JSONText.printableQuoted(table))"
        }
        return nil
    }

    /// The warehouse query (`--sql`) of every aggregate the report of these options needs.
    package func query(_ context: AppContext) throws -> String {
        guard let dialect = sql else { throw AppError("--sql names a dialect: postgresql, duckdb or spark") }
        if let problem = optionProblem() { throw AppError(problem) }
        let files = try AnalysisExperimentFiles.find(experiments: experiments, logs: logs, context)
        let options = try analysisOptions(files, registry: Modules.quiet(context), context)
        guard let query = WarehouseQuery.sql(options, dialect: dialect, table: table) else {
            throw AppError(warehouseProblem() ?? "--table names no table")
        }
        return query
    }

    /// Analyses the logs.
    package func run(_ context: AppContext) async throws -> Outcome {
        try await run(context, metricEvents: nil)
    }

    /// Analyses the logs; `metricEvents` are the events a metric may count (nil: the built-in
    /// features', and those of the plugins in `REMIX_PLUGIN_PATH`).
    func run(_ context: AppContext, metricEvents: MetricEvents?) async throws -> Outcome {
        if let problem = optionProblem() { throw AppError(problem) }
        let files = try AnalysisExperimentFiles.find(experiments: experiments, logs: logs, context)
        let folder = files.folder
        try Outputs.refuseOverInputs(
            inputs: LogPaths.files(logs).map { .init("the event log", $0) }
                + [.init("the metrics file", metricsFile ?? InputFiles.metricsCandidates(experiments: folder)[0])]
                + files.inputs.map { .init("a file of the experiments folder", $0) }
                + (aggregates.map { [.init("the aggregates file", $0)] } ?? []),
            outputs: (output.map { [.init("--output", $0)] } ?? []) + (html.map { [.init("--html", $0)] } ?? []))
        // Said before the report, which would otherwise lead with figures that assume the files.
        if files.origin == .none {
            context.warn("no experiment file: no --experiments, the log's run record names none that still exists as the "
                         + "run read it, and there is no \(folder)/ here; so no SRM verdict (the weights are unknown), "
                         + "default metrics and no guardrails; pass --experiments DIR")
        }
        let registry = Modules.quiet(context)
        let options = try analysisOptions(files, registry: registry, context)
        let report: AnalysisReport
        if let aggregates {
            report = try await Self.report(aggregates: aggregates, options)
        } else {
            report = try await Self.report(options)
        }
        warnAboutMetrics(report, options: options, events: metricEvents ?? MetricEvents(registry: registry,
                         more: MetricEvents.simulatedUserEvents(folders: [folder])), context)
        // The terminal table shows these itself.
        if format != .table || output != nil { warnAboutLog(report, context) }
        let text = render(report)
        var outcome = Outcome(report: report, text: output == nil ? text : nil)
        if let output {
            try ReportFile.write(text, to: output)
            outcome.written.append(Self.wrote(output, format: format, bytes: text.utf8.count))
        }
        if let html {
            let page = HTMLReport.render(report)
            try ReportFile.write(page, to: html)
            outcome.written.append(Self.wrote(html, format: .html, bytes: page.utf8.count))
        }
        if format == .table, output == nil { outcome.next = NextStep.afterReport(report, logs: logs, width: width) }
        return outcome
    }

    /// The line that says a report was written.
    static func wrote(_ path: String, format: Format, bytes: Int) -> String {
        "wrote \(path) (\(format.rawValue), \(CountText.grouped(bytes)) bytes)"
    }

    /// The analysis options: the definitions of `files` (``AnalysisExperimentFiles``), the metrics
    /// file, and — when nothing names a metric — the default metric of the experiments' apps, else
    /// of the app the log's run record names, else of the default app (``BuiltInModules/defaultApp``).
    private func analysisOptions(_ files: AnalysisExperimentFiles, registry: FeatureRegistry,
                                 _ context: AppContext) throws -> AnalysisOptions {
        let definitions = files.definitions
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
        options.catalog = try Definitions.metrics(metricsFile, folder: files.folder, named: metrics, context)
        options.defaultMetrics = Self.defaultMetrics(of: definitions.values, registry: registry, app: files.runApp)
        return options
    }

    /// The default metrics of the apps `definitions` are of, else that of `app`, else that of the
    /// default app.
    static func defaultMetrics(of definitions: some Collection<ExperimentDefinition>, registry: FeatureRegistry,
                               app: String? = nil) -> [String] {
        let apps = Set(definitions.map(\.app)).sorted()
        var metrics: [String] = []
        for app in apps.isEmpty ? [app ?? BuiltInModules.defaultApp] : apps {
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
        return try await Analyzer.run(options, queries: try TableAggregates(AggregateTable(csv: text, name: file)))
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
        for note in report.notes { context.notify(.note(note)) }
    }

    private func render(_ report: AnalysisReport) -> String {
        switch format {
        case .table: TableReport.render(report, style: .terminal(colour: colour && output == nil, width: width))
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
