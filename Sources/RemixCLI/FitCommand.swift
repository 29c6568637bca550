import ArgumentParser
import RemixApp

/// `remix fit`: learns a population file from event logs (docs/simulation.md#fitting-a-population).
struct FitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fit",
        abstract: "Learn a population file (who the users are and how they behave) from event logs.",
        discussion: """
            Reads the logs twice, streaming: first for the intents users come with and the screens \
            they step on, then for each user's counts and times (an event store's events are copied \
            into a temporary file first). Lines are gathered by session whatever their order; a line \
            or session the logs hold twice is counted once, with a warning. Personas are fitted as a mixture of classes (--personas K, \
            or auto: the count with the lowest BIC, chosen on a sample of 20 000 users when there are \
            more). The file \
            written runs as it is with 'remix simulate --population'; beside each value it says what \
            the value comes from, and at the top what the log cannot show.
            """)

    @Argument(help: "Event logs: JSON Lines files, or an event store's postgresql:// URL.")
    var logs: [String]

    @Option(help: ArgumentHelp("The app whose sessions to fit (see 'remix features'); sessions of other apps are left out.",
                               discussion: "Default: the app the logs' session_started (or run) lines name."))
    var app: String?

    @Option(help: "Where to write the population file.")
    var output: String = "fitted.population.yaml"

    @Option(help: "How many personas: a number, or auto (the lowest BIC).")
    var personas: String = "auto"

    @Option(parsing: .unconditional, help: "The seed of the mixture's random starts and of the resamples.")
    var seed: UInt64 = 1

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Also fit this many bootstrap resamples of the users, written to OUTPUT's .replicates folder (anew), for 'remix predict'.",
        valueName: "R"))
    var replicates: Int = 0

    @OptionGroup var plugins: PluginOptions

    /// The use case these options ask for.
    var fit: Fit {
        var fit = Fit(logs: logs)
        (fit.app, fit.output, fit.personas, fit.seed, fit.replicates, fit.plugins) = (app, output, personas, seed, replicates, plugins.paths)
        return fit
    }

    func validate() throws { try refuse(fit.optionProblem()) }

    func run() async throws {
        let outcome = try await perform(fit.run)
        let population = outcome.population
        printOut("fitted \(population.personas.count) personas from \(population.users) users, \(population.sessions) sessions "
                 + "(\(population.bytesPerUser) bytes a user); wrote \(outcome.output)")
    }
}
