import ArgumentParser
import Foundation
import RemixAnalysis
import RemixExperiments
import RemixFiles
import RemixHost
import RemixKit
import RemixStore
import RemixYAML

/// `remix analyze`: per-variant results with statistics from event logs.
struct AnalyzeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Turn event logs into per-variation results with GrowthBook-equal statistics.",
        discussion: """
            For each experiment: units per variation (distinct users exposed with inExperiment and \
            hashUsed), conversions per metric at or after the first exposure, the relative lift with \
            its confidence interval and p-value (two-sided t-test; --sequential for always-valid ones), \
            chance to win, risk and a credible interval (Bayesian; flat prior unless --prior-mean or \
            --prior-stddev), the sample-ratio-mismatch p-value, a funnel and time to conversion; \
            --difference absolute reports treatment − control instead of the lift. Units exposed to \
            more than one variation are excluded and counted.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, json, csv, markdown, html }

    @Argument(help: "Event logs: files, globs (quote them), - for standard input, or one event store URL (postgresql://…).")
    var logs: [String] = ["events.jsonl"]

    @Option(help: "The folder of experiment files (weights, variation order, metrics); default: ./experiments if it exists.")
    var experiments: String?

    @Option(help: "Only this experiment.")
    var experiment: String?

    @Option(help: "A metric to report, by key or event name (repeatable); replaces the experiment files' metrics.")
    var metric: [String] = []

    @Option(help: "The metric definitions file; default: metrics.yaml in the experiments folder, if it is there.")
    var metrics: String?

    @Option(help: ArgumentHelp("Output format: \(Format.allCases.map(\.rawValue).joined(separator: ", ")).",
                               discussion: "html is one self-contained page with charts (give it --output report.html)."))
    var format: Format = .table

    @Option(help: "Write the report into this file (in place: links and mode are kept) instead of standard output.")
    var output: String?

    @Option(parsing: .unconditional, help: "Significance level for confidence intervals and verdicts.")
    var alpha: Double = 0.05

    @Option(help: "Multiple-testing correction across variations × metrics: \(Correction.allCases.map(\.rawValue).joined(separator: ", ")).")
    var correction: Correction = .holm

    @OptionGroup(title: "Statistics")
    var statistics: StatisticsOptions

    @Option(help: ArgumentHelp("Break every result down by this session attribute (platform, country, appVersion …) or persona.",
                               discussion: "Read from each unit's earliest session_started event; the 10 most common values "
                                   + "are shown, the rest as (other).", valueName: "name"))
    var dimension: String?

    @Option(help: ArgumentHelp("Also give cumulative results at every whole hour or day (UTC) of the log: hour, day.",
                               discussion: "Each cut reads the log again; JSON adds overTime to each experiment, CSV "
                                   + "becomes one row per cut × variation × metric.", valueName: "hour|day"))
    var by: TimeBucket?

    @Flag(help: "Fail on any line that does not parse.")
    var strict = false

    @Option(parsing: .unconditional, help: "Reading threads (default: the number of cores).")
    var jobs: Int?

    func validate() throws {
        guard alpha > 0, alpha < 1 else { throw ValidationError("--alpha must be between 0 and 1 (got \(alpha))") }
        if let jobs, jobs <= 0 { throw ValidationError("--jobs must be at least 1 (got \(jobs))") }
        if let dimension, dimension.isEmpty || !dimension.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) {
            throw ValidationError("--dimension is an attribute name such as platform or country, not '\(dimension)'")
        }
        if dimension != nil, by != nil, format == .csv {
            throw ValidationError("--by and --dimension give two tables, and CSV holds one: run them as two reports "
                                  + "(or use --format json or html, which hold both)")
        }
    }

    func run() async throws {
        let folder = experiments ?? "experiments"
        let metricsFile = metrics ?? (folder as NSString).appendingPathComponent(MetricsFileParser.fileName)
        try refuseOutputsOverInputs(
            inputs: LogPaths.files(logs).map { .init("the event log", $0) }
                + [.init("the metrics file", metricsFile), .init("a file of the experiments folder", folder)],
            outputs: output.map { [.init("--output", $0)] } ?? [])
        try await analyze(logs: logs, experimentsFolder: experiments ?? "experiments", experimentsGiven: experiments != nil,
                    experiment: experiment, metrics: metric, metricsFile: metrics, format: format,
                    output: output, alpha: alpha, correction: correction,
                    strict: strict, jobs: usefulJobs(jobs), settings: statistics.settings(alpha: alpha), dimension: dimension,
                    by: by)
    }
}

/// Runs an analysis and prints or writes the report; problems exit 1 with a message. A missing
/// experiments folder is an error when it was asked for (`experimentsGiven`), else a warning.
/// With `html`, the same report is also written there as an HTML page. `metricEvents` are the
/// events a metric may count (default: the built-in features', and those of the plugins in
/// `REMIX_PLUGIN_PATH`).
func analyze(logs: [String], experimentsFolder: String, experimentsGiven: Bool = true, experiment: String?,
             metrics: [String], metricsFile: String? = nil, format: AnalyzeCommand.Format, output: String?, alpha: Double, correction: Correction,
             strict: Bool, jobs: Int, settings: TestSettings? = nil, dimension: String? = nil, by: TimeBucket? = nil,
             html: String? = nil, metricEvents: MetricEvents? = nil) async throws {
    var definitions: [String: ExperimentDefinition] = [:]
    let folderMissing = !FileManager.default.fileExists(atPath: experimentsFolder)
    if !folderMissing {
        let (set, problems) = ExperimentSet.load(paths: [experimentsFolder])
        for problem in problems where problem.severity == .error {
            printError("warning: \(problem) (the analysis goes on without that file)")
        }
        for definition in set.definitions { definitions[definition.key] = definition }
    } else if experimentsGiven {
        printError("experiments folder '\(experimentsFolder)' does not exist (--experiments)")
        throw ExitCode(1)
    }
    var options = AnalysisOptions(logs: logs, definitions: definitions, experiment: experiment, metrics: metrics,
                                  alpha: alpha, correction: correction, strict: strict, jobs: jobs)
    options.readExperimentFiles = true
    options.dimension = dimension
    options.by = by
    if let settings {
        options.difference = settings.difference
        options.sequentialTuning = settings.sequentialTuning
        options.prior = settings.prior
    }
    options.catalog = try loadMetrics(metricsFile, folder: experimentsFolder, named: metrics)
    let report: AnalysisReport
    do {
        report = try await runAnalysis(options)
    } catch {
        printError("\(error)")
        throw ExitCode(1)
    }
    for warning in unmatchedMetricWarnings(metrics, catalog: options.catalog ?? MetricCatalog(), report: report) {
        printError("warning: \(warning)")
    }
    if metrics.isEmpty {
        let events = metricEvents ?? MetricEvents(registry: quietRegistry(),
                                                  more: MetricEvents.simulatedUserEvents(folders: [experimentsFolder]))
        for problem in unknownMetricWarnings(report, definitions: definitions, catalog: options.catalog ?? MetricCatalog(),
                                             events: events) {
            printError(problem.description, prefix: false)
        }
    }
    if folderMissing {
        printError("warning: no experiments folder here ('\(experimentsFolder)'): variations get equal weights in the SRM "
                   + "test and metrics have no guardrails; pass --experiments DIR")
    }
    // The terminal table shows these itself.
    if format != .table || output != nil {
        if report.log.badLines > 0 {
            printError("warning: \(CountText.grouped(report.log.badLines)) line(s) are not events and were skipped (first: "
                       + report.log.firstBadLines.map(\.description).joined(separator: "; ") + ")"
                       + (report.log.tornFinalLine ? "; the final line of \(report.log.tornFiles.joined(separator: ", ")) is torn" : ""))
        }
        for warning in report.warnings { printError("warning: \(warning)") }
    }
    let text: String
    switch format {
    case .table: text = TableReport.render(report, style: .terminal(colour: output == nil && isatty(STDOUT_FILENO) == 1))
    case .markdown: text = TableReport.render(report, style: .markdown)
    case .csv: text = CSVReport.render(report)
    case .json: text = JSONReport.render(report)
    case .html: text = HTMLReport.render(report)
    }
    if let output {
        try writeReport(text, to: output)
    } else {
        writeOut(text)  // a failed write to standard output exits 1 (StandardOutputCheck)
    }
    if let html { try writeReport(HTMLReport.render(report), to: html) }
}

/// `--metric` names that are no metrics-file key and counted no event in any variation: most
/// likely a typo of a key or an event type (a report of zeros would say nothing of it).
func unmatchedMetricWarnings(_ names: [String], catalog: MetricCatalog, report: AnalysisReport) -> [String] {
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
func unknownMetricWarnings(_ report: AnalysisReport, definitions: [String: ExperimentDefinition], catalog: MetricCatalog,
                           events: MetricEvents) -> [Diagnostic] {
    var events = events
    let counted = report.experiments.flatMap(\.variations).flatMap(\.metrics).filter { $0.conversions > 0 }.map(\.metric)
    events.names += counted + counted.compactMap { catalog[$0]?.event }
    let reported = report.experiments.compactMap { definitions[$0.key] }
    return events.problems(in: reported, catalog: catalog).filter { $0.severity == .error }.map { problem in
        Diagnostic(problem.location, .warning, problem.message + "; the report counts nothing for it")
    }
}

/// The built-in features and the plugins of `REMIX_PLUGIN_PATH`, for the events they declare; a
/// plugin that cannot be loaded is left out (the analysis reads logs, not features).
private func quietRegistry() -> FeatureRegistry {
    guard let registry = try? BuiltInModules.registry() else { return FeatureRegistry() }
    _ = try? PluginLoader.load(PluginLoader.requestedPaths(options: []), into: registry)
    return registry
}

/// "--metric 'NAME' is not a key of FILE and WHY; did you mean …?", the nearest of the file's keys
/// and `events`.
func unknownMetric(_ name: String, catalog: MetricCatalog, events: [String], because why: String) -> String {
    let nearest = NameSuggestion.nearest(to: name, among: catalog.keys + events).map { "; did you mean '\($0)'?" } ?? ""
    return "--metric '\(name)' is not a key of " + (catalog.file ?? "a metrics file") + " and \(why)\(nearest)"
}

/// The report of a log file (or several), or of an event store when the one log is a store URL.
private func runAnalysis(_ options: AnalysisOptions) async throws(AnalysisError) -> AnalysisReport {
    guard let first = options.logs.first, StoreURL.isStoreURL(first) || options.logs.contains(where: StoreURL.isStoreURL) else {
        return try Analyzer.run(options)
    }
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

/// Writes a report file; a failure exits 1 with its message.
private func writeReport(_ text: String, to path: String) throws {
    do {
        try ReportFile.write(text, to: path)
    } catch {
        printError(error.description)
        throw ExitCode(1)
    }
}

extension Correction: ExpressibleByArgument {}

/// The metric definitions: `file`, else the experiments folder's metrics.yaml when there is one.
/// A problem in the file is fatal (exit 1); a metric `named` that is not a key but is close to one
/// is a warning (it is read as an event name). The experiments' own metric names are checked
/// after the analysis (`unknownMetricWarnings`), with the events the log holds.
func loadMetrics(_ file: String?, folder: String, named: [String]) throws -> MetricCatalog {
    let beside = (folder as NSString).appendingPathComponent(MetricsFileParser.fileName)
    guard let path = file ?? (FileManager.default.fileExists(atPath: beside) ? beside : nil) else { return MetricCatalog() }
    let (catalog, problems) = MetricsFileParser.load(path)
    for problem in problems { printError(problem.description, prefix: false) }
    if !problems.isEmpty {
        printError("\(path) has \(problems.count) problem(s); fix them (or pass --metrics FILE)")
        throw ExitCode(1)
    }
    var seen = Set<String>()
    for name in named where seen.insert(name).inserted && catalog[name] == nil {
        if let near = NameSuggestion.nearest(to: name, among: catalog.keys), name.contains("-") {
            printError("warning: metric '\(name)' is not a key of \(path), so it is read as the event '\(name)'; "
                       + "did you mean '\(near)'?")
        }
    }
    return catalog
}

extension TimeBucket: ExpressibleByArgument {}
