import Foundation
import RemixBuiltIns
import RemixEventLog
import RemixExperiments
import RemixFiles
import RemixFormats
import RemixHost
import RemixKit
import RemixStore
import RemixSystem
import RemixTerminal

/// `remix run`: a person walks an app in the terminal (or scripts it through standard input),
/// optionally from a route, with slots filled by `--slot` and experiments, and its events logged.
package struct RunInTerminal {
    /// The app.
    package var app = BuiltInModules.defaultApp
    /// The platform (nil: the app's first, or the `platform` attribute with experiments).
    package var platform: String?
    /// The session's seed.
    package var seed: UInt64 = 1
    /// `SLOT=FEATURE` choices, before the experiments'.
    package var slots: [String] = []
    /// A folder of experiment files that fill the app's slots.
    package var experiments: String?
    /// The session's user id.
    package var user = "user-1"
    /// The session's attributes and time.
    package var session = SessionAttributes()
    /// Plugins to load besides the built-in modules.
    package var plugins: [String] = []
    /// Also log the session's events here: a JSON Lines file (appended to) or an event store's URL.
    package var log: String?
    /// Start at this navigation state (a route as the log prints it, or `remix://APP/…`).
    package var route: String?
    /// The sticky-bucket store (``StickyBucketOption``): the user's documents are read before
    /// the session and the changed ones written after it. Sticky bucketing is on only with one.
    package var sticky: String?

    /// A session of the default app.
    package init() {}

    /// The terminal the session runs on: its input lines and where its text goes.
    package struct Terminal {
        /// The next input line; nil at the end of input.
        package var readLine: () -> String?
        /// Writes text (prompts have no newline).
        package var write: (String) -> Void

        /// A terminal reading through `readLine` and writing through `write`.
        package init(readLine: @escaping () -> String?, write: @escaping (String) -> Void) {
            self.readLine = readLine
            self.write = write
        }
    }

    /// How the session ended: the input lines that could not be acted on (the session went on
    /// without them).
    package struct Outcome {
        /// Why each such line could not be acted on.
        package var inputErrors: [String]
    }

    /// Runs the session on `terminal`. Every option is checked first, whether or not it is used; a
    /// route that cannot open fails before anything of the session is shown.
    package func run(on terminal: Terminal, _ context: AppContext) async throws -> Outcome {
        let opening = try parsedRoute()
        var attributes = try session.attributes()
        let now = try session.date()
        let registry = try Modules.load(plugins: plugins, context)
        let fixed = try FixedSlotChooser(specs: slots, app: app, registry: registry)
        try checkLog(context)
        attributes["id"] = attributes["id"] ?? .string(user)
        if let platform { attributes["platform"] = .string(platform) }
        let experimentSet = try experiments.map { try Definitions.experiments(paths: [$0], registry: registry) }
        let stickyStore = try sticky.map(StickyBucketOption.store)
        var stickyBuckets: StickyBuckets?
        if let stickyStore, let experimentSet {
            let identifiers = AssignmentContext(attributes: attributes)
                .stickyBucketIdentifiers(attributeNames: experimentSet.stickyBucketAttributes)
            stickyBuckets = StickyBuckets(try await stickyStore.documents(for: identifiers))
        }
        let chooser = Choosers(fixed: fixed, experiments: experimentSet, attributes: attributes, now: now, sticky: stickyBuckets)
        let output = HeldOutput(terminal.write)
        let sessionLog = log.map { _ in
            TerminalSessionLog(echo: TerminalEventEcho(write: output.write), session: "t\(TerminalSessionLog.now())-\(getpid())", user: user)
        }
        sessionLog?.write("session_started", [
            EventField("app", .string(app)), EventField("persona", .string("terminal")), EventField("visit", .int(1)),
            EventField("attributes", TerminalSessionLog.eventValue(.object(attributes))),
        ])
        let session = Session(app: app, platform: experimentSet == nil ? platform : platform ?? attributes["platform"]?.stringValue,
                              seed: seed, registry: registry, choosers: chooser)
        let (outcome, updated) = try session.run(on: terminal, output: output, events: sessionLog ?? TerminalEventEcho(write: output.write),
                                                 route: opening, sessionLog: sessionLog)
        if let stickyStore, let updated { try await stickyStore.save(updated.changedDocuments) }
        for warning in RegexBudget.takeWarnings(of: experimentSet?.regexPatterns ?? []) { context.notify(.message(warning)) }
        if let log, let sessionLog {
            sessionLog.end()
            try await TerminalLogWriter.write(sessionLog.events, app: app, seed: seed, to: log, context)
        }
        return Outcome(inputErrors: outcome.errors)
    }

    /// The route to open, which must be of this app.
    private func parsedRoute() throws -> Route? {
        guard let route else { return nil }
        let opening = try Route(parsing: route)
        if let other = opening.app, other != app {
            throw AppError(RouteError.otherApp(route: route, app: other).description + ", not '\(app)'")
        }
        return opening
    }

    /// Checks, before the session, that its log can be written: a store URL that parses, a file
    /// whose folder is there and is not one of the inputs.
    private func checkLog(_ context: AppContext) throws {
        if let log, StoreURL.isStoreURL(log) {
            _ = try StoreURL(parsing: log)
        } else if let log, let problem = Outputs.pathProblem(log, option: "--log") {
            throw AppError(problem)
        }
        let inputs = (experiments.map { [OutputCheck.Input("a file of the experiments folder", $0)] } ?? []) + Modules.inputs(plugins, context)
        try Outputs.refuseOverInputs(inputs: inputs, outputs: log.map { [.init("--log", $0)] } ?? [])
        try Outputs.refuseSticky(sticky, inputs: inputs, outputs: log.map { [.init("--log", $0)] } ?? [])
    }
}

/// The slot choosers of a terminal session: the `--slot` choices, then the experiments'.
private struct Choosers {
    let fixed: FixedSlotChooser
    let experiments: ExperimentSet?
    let attributes: [String: AttributeValue]
    let now: Date
    /// The user's sticky-bucket documents, when sticky bucketing is on.
    let sticky: StickyBuckets?

    /// The chain whose experiments' exposures go to `events`, and its experiment chooser.
    func make(events: any EventSink) -> (SlotChooserChain, ExperimentSlotChooser?) {
        let chooser = experiments.map {
            ExperimentSlotChooser(experiments: $0, attributes: attributes, now: now, events: events, stickyBuckets: sticky)
        }
        return (SlotChooserChain([fixed] + (chooser.map { [$0] } ?? [])), chooser)
    }
}

/// One terminal session of an app.
private struct Session {
    let app: String
    let platform: String?
    let seed: UInt64
    let registry: FeatureRegistry
    let choosers: Choosers

    /// Runs the session on `terminal`. With a `route`, what the session prints is held until the
    /// route has opened: a route that cannot open prints only why — an unknown screen name when the
    /// route gives one, found in fresh sessions (rehearsals) that log nowhere.
    /// Also returns the user's sticky-bucket documents as the session left them (nil when off).
    func run(on terminal: RunInTerminal.Terminal, output: HeldOutput, events: any EventSink, route: Route?,
             sessionLog: TerminalSessionLog?) throws -> (TerminalOutcome, StickyBuckets?) {
        let (chooser, experimentChooser) = choosers.make(events: events)
        let session = try AppSession(app: app, platform: platform, registry: registry, seed: seed, events: events, chooser: chooser)
        session.window.addTransitionObserver { sessionLog?.record($0) }
        if route != nil { output.hold() }
        for decision in experimentChooser?.decisions.values.flatMap({ $0 }) ?? [] {
            let variation = decision.variation.map { " variation \($0) → \(decision.feature ?? "")" } ?? ""
            output.write(JSONText.visible("experiment \(decision.experiment):\(variation) (\(decision.rule))") + "\n")
        }
        if let route {
            session.start()
            try open(route, in: session)
            output.release()
        }
        let outcome = TerminalDriver(session: session, readLine: terminal.readLine, write: terminal.write).run(started: route != nil)
        return (outcome, experimentChooser?.stickyBuckets)
    }

    /// Opens `route`, trying it first in rehearsals (``RouteOpener``).
    private func open(_ route: Route, in session: AppSession) throws {
        let rehearsal = { () throws -> AppSession in
            let quiet = EventRecorder()
            return try AppSession(app: app, platform: platform, registry: registry, seed: seed, events: quiet,
                                  chooser: choosers.make(events: quiet).0)
        }
        do {
            try RouteOpener.open(route, in: session, rehearsal: rehearsal)
        } catch {
            let routes = "remix routes --app \(app)" + (platform.map { " --platform \($0)" } ?? "")
            let unknown = UnknownScreenError.find(in: route, app: app, routesCommand: routes, session: rehearsal)
            throw AppError(unknown?.description ?? error.description)
        }
    }
}
