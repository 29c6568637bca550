import ArgumentParser
import RemixExperiments
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

    @Option(help: "A folder of experiment files that decide which features fill the app's slots.")
    var experiments: String?

    @Option(help: "The session's user id (the 'id' attribute experiments hash).")
    var user: String = "user-1"

    @OptionGroup var session: SessionAttributeOptions

    @OptionGroup var plugins: PluginOptions

    func run() throws {
        // Every option is checked, whether or not experiments use it.
        _ = try session.parsedAttributes()
        _ = try session.date()
        let registry = try loadRegistry(plugins: plugins.paths)
        let fixed: FixedSlotChooser
        do {
            fixed = try FixedSlotChooser(specs: slots, app: app, registry: registry)
        } catch {
            printError(String(describing: error))
            throw ExitCode(1)
        }
        var choosers: [any SlotChooser] = [fixed]
        var experimentChooser: ExperimentSlotChooser?
        var platform = self.platform
        let echo = TerminalEventEcho(write: writeOut)
        if let experiments {
            let set = try loadExperiments(paths: [experiments], registry: registry)
            var attributes = try session.parsedAttributes()
            attributes["id"] = attributes["id"] ?? .string(user)
            if let platform { attributes["platform"] = .string(platform) }
            platform = platform ?? attributes["platform"]?.stringValue
            let chooser = ExperimentSlotChooser(experiments: set, attributes: attributes, now: try session.date(),
                                                events: echo)
            choosers.append(chooser)
            experimentChooser = chooser
        }
        let outcome = try runInTerminal(
            app: app, platform: platform, registry: registry, seed: seed, chooser: SlotChooserChain(choosers),
            events: echo
        ) {
            for decision in experimentChooser?.decisions.values.flatMap({ $0 }) ?? [] {
                let variation = decision.variation.map { " variation \($0) → \(decision.feature ?? "")" } ?? ""
                print("experiment \(decision.experiment):\(variation) (\(decision.rule))")
            }
        }
        for warning in RegexBudget.takeWarnings() { printError(warning) }
        if !outcome.errors.isEmpty { throw ExitCode(1) }
    }
}
