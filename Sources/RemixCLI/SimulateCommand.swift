import ArgumentParser
import RemixApp

/// `remix simulate`: batches of simulated users through the real features and experiments.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run simulated user sessions through the app and its experiments, logging every event.",
        discussion: """
            Simulated users act on what the screens show, toward the intents of their persona \
            (docs/simulation.md). The same seed and inputs give a byte-identical log whatever \
            --jobs is. --shard I/N runs the I-th of N contiguous parts of the user indices; N \
            shards together hold exactly the users, with all their sessions, of one full run \
            (append them to one log with --append).
            """)

    @Option(help: "The app to simulate (default: the population file's app).")
    var app: String?

    @Option(parsing: .unconditional, help: "Users in the whole run; each makes their persona's visits (default 10000).")
    var users: Int?

    @Option(parsing: .unconditional, help: "The same as --users (with one visit per user, users and sessions are equal).")
    var sessions: Int?

    @Option(parsing: .unconditional, help: "The run's seed.", transform: SeedArgument.parse)
    var seed: UInt64 = 1

    @Option(parsing: .unconditional, help: "Worker threads, at most the number of cores (default: the number of cores).")
    var jobs: Int?

    @Option(help: ArgumentHelp(
        "The population file: attributes, intents, personas, service behaviour.",
        discussion: """
            Default: the first that exists of APP.population.yaml (APP: --app, else marketplace) and \
            population.yaml, in the --experiments folder, then in experiments/ (as every command finds it).
            """))
    var population: String?

    @Option(help: "The folder of experiment files that fill the app's slots.")
    var experiments: String = "experiments"

    @OptionGroup var plugins: PluginOptions

    @Option(help: ArgumentHelp(
        "The event log to write: a JSON Lines file, or an event store's postgresql:// URL.",
        discussion: "A store keeps every run; see docs/storage.md."))
    var log: String = "events.jsonl"

    @Flag(help: "With a store: complete a run that stopped part-way (blocks already stored are skipped).")
    var resume = false

    @Option(parsing: .unconditional, help: "With a store: seconds to keep retrying after the connection is lost.")
    var retrySeconds: Double = 30

    @Option(parsing: .unconditional, help: "Run only part I of N of the user indices, e.g. 2/4.")
    var shard: String?

    @Flag(help: "Append to the log instead of replacing it.")
    var append = false

    @Flag(help: ArgumentHelp("Replace the log even when `remix simulate` did not write it.",
                             discussion: "Without it, a log of an earlier simulate is replaced (a note says so), and a file "
                                 + "holding other events — of `remix run`, another tool, by hand — or no log at all is kept, and the "
                                 + "run refused."))
    var overwrite = false

    @Flag(help: "Do not print the analysis report at the end.")
    var noReport = false

    @Flag(help: ArgumentHelp("The summary and report with a line per table row whatever its length.",
                             discussion: "By default they fit the terminal's width, else $COLUMNS, else 100 columns."))
    var wide = false

    @Option(help: ArgumentHelp("Also write the run's analysis report as one self-contained HTML page to this file.",
                               valueName: "file"))
    var html: String?

    @Option(help: ArgumentHelp("Sticky bucketing: read users' stored variations from this store at the start and append the "
                               + "run's changes at the end (a JSON Lines file, or a postgres:// URL).", valueName: "file|url"))
    var sticky: String?

    /// The use case these options ask for.
    var simulation: Simulate {
        var simulation = Simulate()
        (simulation.app, simulation.users, simulation.sessions, simulation.seed, simulation.jobs) = (app, users, sessions, seed, jobs)
        (simulation.population, simulation.experiments, simulation.plugins) = (population, experiments, plugins.paths)
        (simulation.log, simulation.resume, simulation.retrySeconds, simulation.shard) = (log, resume, retrySeconds, shard)
        (simulation.append, simulation.overwrite, simulation.report, simulation.html) = (append, overwrite, !noReport, html)
        simulation.colour = Console.current.outIsTerminal
        simulation.width = wide ? nil : Console.current.width
        simulation.sticky = sticky
        return simulation
    }

    func run() async throws {
        let simulation = simulation
        let width = simulation.width
        let outcome = try await perform(width: width, simulation.run)
        switch outcome.destination {
        case .file(let path):
            printOut("simulated \(outcome.app) into \(path) (seed \(outcome.seed), shard \(outcome.shard))", width: width)
        case .store(let url, let run, let written, let skipped):
            printOut("simulated \(outcome.app) into \(url) as \(run) (seed \(outcome.seed), shard \(outcome.shard)): "
                     + "\(written) blocks stored" + (skipped > 0 ? ", \(skipped) already stored" : ""), width: width)
        }
        printOut(outcome.summary)
        if case .store = outcome.destination, !noReport {
            printError("note: no report — the store may hold other runs too; `remix analyze` with the same URL reports "
                       + "on all it holds (docs/storage.md)", width: width)
        }
        if let text = outcome.analysis?.text {
            printOut("")
            writeOut(text)
        }
        for line in outcome.analysis?.written ?? [] { printOut(line, width: width) }
        if let next = outcome.next { printOut(next) }
    }
}
