import ArgumentParser
import RemixHost
import RemixKit
import RemixTerminal

/// `remix run`: walk an app in the terminal, or script it through standard input.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Walk an app in the terminal: see each screen's data and choose numbered actions.",
        discussion: """
            Each screen lists numbered actions; type a number and press Return. 'b' goes back, \
            'q' quits. Actions that take text read it from the next line. Input may be piped, \
            one answer per line, to script a session; it ends at end of input.
            """)

    @Option(help: "The app to run (see 'remix features').")
    var app: String = "marketplace"

    @Option(help: "The platform to run on: phone or tablet (default: the app's first platform).")
    var platform: String?

    @Option(help: "Seed for the session's randomness (e.g. new advert ids).")
    var seed: UInt64 = 1

    @Option(name: .customLong("slot"),
            help: "Fill a slot with a feature, e.g. insertion=AutoGroupInsertion (repeatable).")
    var slots: [String] = []

    func run() throws {
        let registry = try loadRegistry()
        let chooser: FixedSlotChooser
        do {
            chooser = try FixedSlotChooser(specs: slots, app: app, registry: registry)
        } catch {
            printError(String(describing: error))
            throw ExitCode(1)
        }
        let outcome = try runInTerminal(app: app, platform: platform, registry: registry, seed: seed,
                                        chooser: chooser)
        if !outcome.errors.isEmpty { throw ExitCode(1) }
    }
}
