import ArgumentParser
import RemixApp
import RemixBuiltIns

/// `remix run`: walk an app in the terminal, or script it through standard input.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Walk an app in the terminal: see each screen's data and choose numbered actions.",
        discussion: """
            Each screen lists numbered actions; type a number and press Return. 'b' goes back, \
            'q' quits. Actions that take text read it from the next line. Input may be piped, \
            one answer per line, to script a session; it ends at end of input.
            """)

    @Option(help: "The app to run (see 'remix features').")
    var app: String = BuiltInModules.defaultApp

    @Option(help: "The platform to run on: phone or tablet (default: the app's first platform).")
    var platform: String?

    @Option(parsing: .unconditional, help: "Seed for the session's randomness (e.g. new advert ids).",
            transform: SeedArgument.parse)
    var seed: UInt64 = 1

    @Option(name: .customLong("slot"),
            help: "Fill a slot with a feature, e.g. insertion=AutoGroupInsertion (repeatable).")
    var slots: [String] = []

    @Option(help: "A folder of experiment files that decide which features fill the app's slots.")
    var experiments: String?

    @Option(help: "The session's user id (the 'id' attribute experiments hash).")
    var user: String = "user-1"

    @OptionGroup var attributes: SessionAttributeOptions

    @OptionGroup var plugins: PluginOptions

    @Option(help: ArgumentHelp("Also log the session's events: a JSON Lines file (appended to) or an event store's "
                               + "postgresql:// URL.", valueName: "log"))
    var log: String?

    @Option(name: .customLong("open"),
            help: ArgumentHelp("Start at this navigation state, reached as a user would (e.g. 'adverts > groups > "
                               + "groups(Bicycles)', as the log prints it, or remix://APP/…); see 'remix routes'.",
                               valueName: "route"))
    var route: String?

    @Option(help: ArgumentHelp("Sticky bucketing: keep the user's variations in this store (a JSON Lines file, or a "
                               + "postgres:// URL).", valueName: "file|url"))
    var sticky: String?

    /// The use case these options ask for.
    var session: RunInTerminal {
        var run = RunInTerminal()
        (run.app, run.platform, run.seed, run.slots, run.experiments) = (app, platform, seed, slots, experiments)
        (run.user, run.session, run.plugins, run.log, run.route) = (user, attributes.values, plugins.paths, log, route)
        run.sticky = sticky
        return run
    }

    func run() async throws {
        let console = Console.current
        let terminal = RunInTerminal.Terminal(readLine: console.readLine, write: writeOut)
        let outcome = try await perform { try await session.run(on: terminal, $0) }
        if let first = outcome.inputErrors.first {
            throw AppError("\(outcome.inputErrors.count) input line(s) could not be acted on; the first: \(first)")
        }
    }
}
