import ArgumentParser
import RemixEventLog
import RemixExperiments
import RemixFiles
import RemixHost
import RemixKit
import RemixStore
import RemixTerminal
import RemixSystem

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
    var app: String = "marketplace"

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

    @OptionGroup var session: SessionAttributeOptions

    @OptionGroup var plugins: PluginOptions

    @Option(help: ArgumentHelp("Also log the session's events: a JSON Lines file (appended to) or an event store's "
                               + "postgresql:// URL.", valueName: "log"))
    var log: String?

    @Option(name: .customLong("open"),
            help: ArgumentHelp("Start at this navigation state, reached as a user would (e.g. 'adverts > groups > "
                               + "groups(Bicycles)', as the log prints it, or remix://APP/…); see 'remix routes'.",
                               valueName: "route"))
    var route: String?

    func run() async throws {
        // Every option is checked, whether or not experiments use it.
        var opening: Route?
        if let route {
            do {
                opening = try Route(parsing: route)
            } catch {
                printError(error.description)
                throw ExitCode(1)
            }
            if let other = opening?.app, other != app {
                printError(RouteError.otherApp(route: route, app: other).description + ", not '\(app)'")
                throw ExitCode(1)
            }
        }
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
        var platform = self.platform
        let output = HeldOutput()
        let echo = TerminalEventEcho(write: output.write)
        let sessionLog = log.map { _ in
            TerminalSessionLog(echo: echo, session: "t\(TerminalSessionLog.now())-\(getpid())", user: user)
        }
        let events: any EventSink = sessionLog ?? echo
        if let log, StoreURL.isStoreURL(log) {
            do { _ = try StoreURL(parsing: log) } catch {
                printError(error.description)
                throw ExitCode(1)
            }
        } else if let log, let problem = outputPathProblem(log, option: "--log") {
            printError(problem)
            throw ExitCode(1)
        }
        try refuseOutputsOverInputs(inputs: (experiments.map { [.init("a file of the experiments folder", $0)] } ?? [])
                                        + pluginInputs(plugins.paths),
                                    outputs: log.map { [.init("--log", $0)] } ?? [])
        var attributes = try session.parsedAttributes()
        attributes["id"] = attributes["id"] ?? .string(user)
        if let platform { attributes["platform"] = .string(platform) }
        sessionLog?.write("session_started", [
            EventField("app", .string(app)), EventField("persona", .string("terminal")), EventField("visit", .int(1)),
            EventField("attributes", TerminalSessionLog.eventValue(.object(attributes))),
        ])
        var experimentSet: ExperimentSet?
        let now = try session.date()
        if let experiments {
            experimentSet = try loadExperiments(paths: [experiments], registry: registry)
            platform = platform ?? attributes["platform"]?.stringValue
        }
        // The --slot choices, then the experiments' (their exposures going to `events`).
        let choosers = { [attributes] (events: any EventSink) -> (SlotChooserChain, ExperimentSlotChooser?) in
            let experimentChooser = experimentSet.map {
                ExperimentSlotChooser(experiments: $0, attributes: attributes, now: now, events: events)
            }
            return (SlotChooserChain([fixed] + (experimentChooser.map { [$0] } ?? [])), experimentChooser)
        }
        let (chooser, experimentChooser) = choosers(events)
        // A route may be tried first in a session like this one that logs nowhere (RouteOpener).
        let rehearsal = { [app, platform, seed] () throws -> AppSession in
            let quiet = EventRecorder()
            return try AppSession(app: app, platform: platform, registry: registry, seed: seed, events: quiet,
                                  chooser: choosers(quiet).0)
        }
        let outcome = try runInTerminal(
            app: app, platform: platform, registry: registry, seed: seed, chooser: chooser,
            events: events, output: output, route: opening, rehearsal: rehearsal,
            observe: { session in session.window.addTransitionObserver { sessionLog?.record($0) } }
        ) {
            for decision in experimentChooser?.decisions.values.flatMap({ $0 }) ?? [] {
                let variation = decision.variation.map { " variation \($0) → \(decision.feature ?? "")" } ?? ""
                output.write(JSONText.visible("experiment \(decision.experiment):\(variation) (\(decision.rule))") + "\n")
            }
        }
        for warning in RegexBudget.takeWarnings() { printError(warning) }
        if let log, let sessionLog {
            sessionLog.end()
            try await TerminalLogWriter.write(sessionLog.events, app: app, seed: seed, to: log)
        }
        if !outcome.errors.isEmpty { throw ExitCode(1) }
    }
}
