import ArgumentParser
import RemixAnalysis
import RemixApp
import RemixWarehouse

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

    @Option(help: ArgumentHelp("Output format: \(Analyze.Format.allCases.map(\.rawValue).joined(separator: ", ")).",
                               discussion: "html is one self-contained page with charts (give it --output report.html)."))
    var format: Analyze.Format = .table

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

    @Option(help: ArgumentHelp("For experiments with phases: the phase to report, from 0, or all (default: the latest).",
                               discussion: "The SRM test of each phase uses that phase's weights; all compares every "
                                   + "phase's exposures together.", valueName: "N|all"))
    var phase: String?

    @Option(help: ArgumentHelp("Print one query of every aggregate the report needs, in this SQL dialect: "
                               + "\(WarehouseDialect.allCases.map(\.rawValue).joined(separator: ", ")).",
                               discussion: "Run it where the events are; give its result (CSV with a header row) to --aggregates. "
                                   + "See docs/scale.md.", valueName: "dialect"))
    var sql: WarehouseDialect?

    @Option(help: "The events table the --sql query reads (one row per log line), optionally after its schema: analytics.events.")
    var table = "events"

    @Option(help: ArgumentHelp("Build the report from this CSV of the --sql query's result instead of event logs.",
                               valueName: "result.csv"))
    var aggregates: String?

    @Flag(help: "Fail on any line that does not parse.")
    var strict = false

    @Flag(help: ArgumentHelp("The table with a line per row whatever its length, as wide as it needs.",
                             discussion: "By default the table fits the terminal's width, else $COLUMNS, else 100 "
                                 + "columns, a row that does not fit shown as a block of lines."))
    var wide = false

    @Option(parsing: .unconditional, help: "Reading threads (default: the number of cores).")
    var jobs: Int?

    /// The use case these options ask for.
    var analysis: Analyze {
        var analysis = Analyze(logs: logs)
        (analysis.experiments, analysis.experiment, analysis.metrics, analysis.metricsFile) = (experiments, experiment, metric, metrics)
        (analysis.format, analysis.output, analysis.alpha, analysis.correction) = (format, output, alpha, correction)
        (analysis.dimension, analysis.by, analysis.strict, analysis.jobs) = (dimension, by, strict, jobs)
        analysis.settings = statistics.settings(alpha: alpha)
        analysis.phase = phase
        (analysis.sql, analysis.table, analysis.aggregates) = (sql, table, aggregates)
        analysis.colour = Console.current.outIsTerminal
        analysis.width = wide ? nil : Console.current.width
        return analysis
    }

    func validate() throws { try refuse(analysis.optionProblem()) }

    func run() async throws {
        // A failed write to standard output fails the command (StandardOutputCheck).
        if sql != nil {
            writeOut(try await perform(analysis.query))
        } else {
            let outcome = try await perform(width: analysis.width, analysis.run)
            if let text = outcome.text { writeOut(text) }
            for line in outcome.written { printOut(line, width: analysis.width) }
            if let next = outcome.next { printOut(next) }
        }
    }
}

extension Analyze.Format: ExpressibleByArgument {}
extension Correction: ExpressibleByArgument {}
extension TimeBucket: ExpressibleByArgument {}
extension WarehouseDialect: ExpressibleByArgument {}
