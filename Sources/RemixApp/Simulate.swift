import Foundation
import RemixAnalysis
import RemixDecisions
import RemixEventLog
import RemixExperiments
import RemixFiles
import RemixKit
import RemixSimulation
import RemixStore
import RemixYAML

/// `remix simulate`: batches of simulated users through the real features and experiments, into a
/// JSON Lines file or an event store, then (for a file) the analysis of the run.
package struct Simulate {
    /// The app (nil: the population file's).
    package var app: String?
    /// Users in the whole run (default 10 000); `sessions` is the same, and only one may be given.
    package var users: Int?
    /// The same as `users`.
    package var sessions: Int?
    /// The run's seed.
    package var seed: UInt64 = 1
    /// Worker threads (nil: one per core).
    package var jobs: Int?
    /// The population file (nil: the one ``InputFiles`` finds for the app: APP.population.yaml,
    /// then population.yaml, in the experiments folder, then in `experiments/`).
    package var population: String?
    /// The folder of experiment files.
    package var experiments = "experiments"
    /// Plugins to load besides the built-in modules.
    package var plugins: [String] = []
    /// The log: a JSON Lines file, or an event store's URL.
    package var log = "events.jsonl"
    /// With a store: complete a run that stopped part-way.
    package var resume = false
    /// With a store: seconds to keep retrying after the connection is lost.
    package var retrySeconds = 30.0
    /// Only part I of N of the user indices, as `I/N`.
    package var shard: String?
    /// Append to the log file instead of replacing it.
    package var append = false
    /// Replace the log file even when `remix simulate` did not write it (``LogTarget/Contents``).
    package var overwrite = false
    /// Analyse the run's log (a file) after it.
    package var report = true
    /// Also write the run's report as an HTML page to this file.
    package var html: String?
    /// Colour the report's table (the CLI does on a terminal).
    package var colour = false
    /// The terminal's width the summary and the report fit, which end with a `next:` line; nil: a
    /// line per table row whatever its length (`--wide`).
    package var width: Int?
    /// The sticky-bucket store (``StickyBucketOption``): read at the start, the run's changed
    /// documents appended at the end. Sticky bucketing is on only with one.
    package var sticky: String?

    /// User indices stay far from overflow in shard arithmetic and virtual time.
    package static let maximumUsers = 1 << 40

    /// The default options: 10 000 users into `events.jsonl`.
    package init() {}

    /// Where the run went.
    package enum Destination: Equatable, Sendable {
        /// The JSON Lines file at this path.
        case file(String)
        /// An event store (its URL without the password), as run `run`, with the blocks stored now
        /// and those a run that stopped had stored already.
        case store(url: String, run: String, blocksWritten: Int, blocksSkipped: Int)
    }

    /// What the run did.
    package struct Outcome {
        /// The app simulated.
        package var app: String
        /// The run's seed and shard.
        package var seed: UInt64, shard: Shard
        /// Where its events went.
        package var destination: Destination
        /// The run's summary (sessions, outcomes, exposures), as text.
        package var summary: String
        /// The analysis of the log, when one was asked for and the log is a file.
        package var analysis: Analyze.Outcome?
        /// The line that ends the output: what to do next (``NextStep``).
        package var next: String?
    }

    /// Runs the simulation; bad options, inputs and failures to write are errors, before anything is
    /// written where they can be found first.
    package func run(_ context: AppContext) async throws -> Outcome {
        if let problem = optionProblem() { throw AppError(problem) }
        let path = try InputFiles.population(given: population, app: app, experiments: experiments)
        let outputs: [OutputCheck.Output] = [.init("--log", log)] + (html.map { [.init("--html", $0)] } ?? [])
        try Outputs.refuseOverInputs(inputs: inputs(population: path, context), outputs: outputs)
        try Outputs.refuseSticky(sticky, inputs: inputs(population: path, context), outputs: outputs)
        let registry = try Modules.load(plugins: plugins, context)
        let (population, appDefinition) = try PopulationInput.load(path, app: app, registry: registry, context)
        if appDefinition.name != population.app {
            context.warn("\(path) describes users of '\(population.app)', not '\(appDefinition.name)'; intents the app "
                         + "cannot serve will show as stuck (give --population, or write \(appDefinition.name).population.yaml)")
        }
        let set = try Definitions.experiments(paths: [experiments], registry: registry)
        // A metric that counts nothing is said before the run, not found as zeros in its report.
        let metricsFolder = InputFiles.folders(experiments)[0]
        let catalog = try Definitions.metrics(nil, folder: metricsFolder, named: [], context)
        var metricEvents = MetricEvents(registry: registry,
                                        populations: ExperimentPopulations(folders: [metricsFolder], apps: [appDefinition.name]))
        metricEvents.names += population.observedEvents
        let ofApp = set.definitions.filter { $0.app == appDefinition.name }
        try refuseUnknownMetrics(ExperimentSet(definitions: ofApp), catalog: catalog, events: metricEvents)
        for gap in metricEvents.populationGaps(in: ofApp, catalog: catalog, population: population, path: path) {
            context.notify(.line(gap.description))
        }
        var plan = SimulationPlan(app: appDefinition.name, users: userCount, seed: seed, jobs: context.usefulJobs(jobs),
                                  shard: shard.flatMap(Shard.init(spec:)) ?? .whole, population: population, experiments: set,
                                  sources: sources(set, population: path))
        if let problem = plan.problem() { throw AppError(problem) }
        let rollouts = RolloutController.follows(set, app: plan.app)
        let bandits = BanditController.follows(set, app: plan.app)
        let follows = rollouts || bandits
        // A rollout decides at its step boundaries from the log so far (docs/rollouts.md): shards meet in a store.
        if follows, plan.shard != .whole, !StoreURL.isStoreURL(log) { throw AppError(VirtualTimeControllerMessages.shardsNeedStore) }
        let stickyStore = try sticky.map(StickyBucketOption.store)
        if let stickyStore {
            plan.stickyBuckets = StickyBucketStart(try await stickyStore.allDocuments(), experiments: set)
        }
        var run = Run(plan: plan, registry: registry, population: population, context: context, sticky: stickyStore)
        run.replica = Modules.replica(plugins: plugins, context)
        if follows {
            var controllers: [any VirtualTimeController] = []
            if rollouts {
                controllers.append(try RolloutController(experiments: set, app: plan.app, start: population.startMilliseconds,
                                                         catalog: catalog))
            }
            if bandits {
                controllers.append(BanditController(experiments: set, app: plan.app, start: population.startMilliseconds, catalog: catalog))
            }
            run.controller = controllers.count == 1 ? controllers[0] : CombinedController(controllers)
        }
        run.width = width
        if StoreURL.isStoreURL(log) {
            var outcome = try await run.intoStore(try StoreURL(parsing: log), resume: resume, retrySeconds: retrySeconds)
            if case .store(let url, _, _, _) = outcome.destination { outcome.next = NextStep.afterRun(log: url, width: width) }
            return outcome
        }
        try checkLogFile(context)
        var outcome = try await run.intoFile(log, append: append)
        outcome.analysis = try await analysis(jobs: plan.jobs, events: metricEvents, metricsFile: catalog.file, context)
        outcome.next = report ? outcome.analysis?.next : NextStep.afterRun(log: log, width: width)
        return outcome
    }

    /// The analysis after a run into a file: the table (unless `report` is false), and the HTML page;
    /// with the run's metrics file (`metricsFile`), found once.
    private func analysis(jobs: Int, events: MetricEvents, metricsFile: String?, _ context: AppContext) async throws -> Analyze.Outcome? {
        guard report || html != nil else { return nil }
        var analyze = Analyze(logs: [log])
        analyze.experiments = experiments
        analyze.metricsFile = metricsFile
        analyze.format = report ? .table : .html
        analyze.output = report ? nil : html
        analyze.html = report ? html : nil
        analyze.jobs = jobs
        analyze.colour = colour
        analyze.width = width
        return try await analyze.run(context, metricEvents: events)
    }

    /// Bad option values, found before anything is read.
    func optionProblem() -> String? {
        if users != nil, sessions != nil { return "give --users or --sessions, not both (they mean the same)" }
        let option = users != nil || sessions == nil ? "--users" : "--sessions"
        if userCount <= 0 { return "\(option) must be at least 1 (got \(userCount))" }
        if userCount > Self.maximumUsers {
            return "\(option) must be at most \(Self.maximumUsers) (got \(userCount)); split larger runs with --shard"
        }
        if let jobs, jobs <= 0 { return "--jobs must be at least 1 (got \(jobs))" }
        if overwrite, append { return "give --overwrite or --append, not both: --overwrite replaces the log, --append adds to it" }
        if let problem = storeOptionProblem() { return problem }
        if let shard, Shard(spec: shard) == nil { return "--shard must be I/N with 1 ≤ I ≤ N, e.g. 2/4 (got '\(shard)')" }
        if let shard = shard.flatMap(Shard.init(spec:)), let problem = shard.emptinessProblem(users: userCount) { return problem }
        if let html, let problem = Outputs.pathProblem(html, option: "--html") { return problem }
        if let sticky, sticky == log || sticky == html { return "--sticky must name another file than --log and --html" }
        return nil
    }

    /// Option combinations that make no sense with the log given.
    private func storeOptionProblem() -> String? {
        let isStore = StoreURL.isStoreURL(log)
        if isStore, append { return "--append is for files: an event store keeps every run (use --resume to complete one)" }
        if isStore, overwrite { return "--overwrite is for files: an event store keeps every run" }
        if isStore, html != nil { return "--html writes the report of a log file, not of an event store: give --log a .jsonl file" }
        if !isStore, resume { return "--resume completes a run in an event store; --log is a file here (use --append for files)" }
        if !(retrySeconds >= 0) || !retrySeconds.isFinite { return "--retry-seconds must be 0 or more (got \(retrySeconds))" }
        return nil
    }

    private var userCount: Int { users ?? sessions ?? 10_000 }

    /// Checks the log file before the run writes it: the log of an earlier `remix simulate` is
    /// replaced, with a note (running the same command twice works); events it did not write, or
    /// a file that is no log, are replaced only with `--overwrite` (appended to only when a log).
    func checkLogFile(_ context: AppContext) throws {
        switch LogTarget.contents(of: log) {
        case .nothing: break
        case .notALog where append || !overwrite:
            throw AppError("refusing to \(append ? "append to" : "replace") \(log): \(LogTarget.notALog); "
                           + (append ? "choose another --log" : "give --overwrite to replace it, or --log FILE to write elsewhere"))
        case .otherEvents where !append && !overwrite:
            throw AppError("refusing to replace \(log): its events were not written by `remix simulate` (its first line is no "
                           + "simulate run's record); give --overwrite to replace them, --append to add this run to them, or "
                           + "--log FILE to write elsewhere")
        case .simulatedLog where !append && !overwrite:
            context.notify(.note("replacing \(log), the log of an earlier `remix simulate` run; --append adds to it instead, "
                                 + "--log FILE writes elsewhere"))
        default: break
        }
    }

    /// The files this run reads, which its outputs must never overwrite.
    private func inputs(population: String, _ context: AppContext) -> [OutputCheck.Input] {
        [.init("the population file", population), .init("a file of the experiments folder", experiments)]
            + Modules.inputs(plugins, context)
    }

    private func sources(_ set: ExperimentSet, population: String) -> [RunSource] {
        var files = [("population", population)]
        files += set.definitions.map { ("experiment", $0.file) }
        files += set.slotRules.map { ("slot rules", $0.file) }
        return files.map { role, path in
            let bytes = FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
            return RunSource(role: role, path: path, bytes: bytes)
        }
    }
}

/// A planned simulation, run into a file or a store.
private struct Run {
    let plan: SimulationPlan
    let registry: FeatureRegistry
    let population: Population
    let context: AppContext
    /// Where the run's changed sticky-bucket documents go, when sticky bucketing is on.
    let sticky: (any StickyBucketStore)?
    /// Decides at boundaries in virtual time (a rollout's), if the experiments need one.
    var controller: (any VirtualTimeController)?
    /// Loads the registry again, without a word, for each simulating worker after the first.
    var replica: (@Sendable () throws -> FeatureRegistry)?
    /// The width the summary fits (nil: no wrapping).
    var width: Int?

    /// Runs into the JSON Lines file at `path` (checked: ``Simulate/checkLogFile(_:)``), replacing it unless `append`.
    func intoFile(_ path: String, append: Bool) async throws -> Simulate.Outcome {
        let file = try JSONLinesFile(path: path, truncate: !append)
        if file.endedTorn {
            context.warn("\(path) ended inside a line (a writer stopped mid-line); a newline was added so "
                         + "that line stays one bad line and this run starts on a line of its own")
        }
        ExitFlusher.shared.watch(file)
        let summary: SimulationSummary
        do {
            if let controller {
                summary = try await SimulationRunner(plan: plan, registry: registry, controller: controller, replica: replica)
                    .run(into: AwaitedSink(file), progress: progress)
            } else {
                summary = try SimulationRunner(plan: plan, registry: registry, log: file, replica: replica).run(progress: progress)
            }
            try file.close()
        } catch {
            try? file.close()
            throw error
        }
        ExitFlusher.shared.remove(file)
        try await sticky?.save(summary.stickyDocuments)
        return outcome(.file(path), summary)
    }

    /// Runs into the store at `url`: one transaction per block of users, retried on a lost
    /// connection, never stored twice.
    func intoStore(_ url: StoreURL, resume: Bool, retrySeconds: Double) async throws -> Simulate.Outcome {
        let warnings = RetryWarnings()
        let sink = StoreBlockSink(url: url, run: plan.runID, shard: plan.shard.index, shards: plan.shard.count,
                                  resume: resume, retrySeconds: retrySeconds, onRetry: warnings.keep)
        let summary: SimulationSummary
        let progress = context.progress
        do {
            summary = try await SimulationRunner(plan: plan, registry: registry, controller: controller, replica: replica).run(into: sink) { done, total in
                progress(WorkProgress(.users, done: done, total: total))
            }
            await sink.close()
        } catch {
            await sink.close()
            warnings.say(context)
            throw error
        }
        warnings.say(context)
        try await sticky?.save(summary.stickyDocuments)
        return outcome(.store(url: url.redacted, run: plan.runID, blocksWritten: await sink.blocksWritten,
                              blocksSkipped: await sink.blocksSkipped), summary)
    }

    private func progress(_ done: Int, _ total: Int) {
        context.progress(WorkProgress(.users, done: done, total: total))
    }

    /// The outcome, with the summary's text and the warnings it found.
    private func outcome(_ destination: Simulate.Destination, _ summary: SimulationSummary) -> Simulate.Outcome {
        let order = Dictionary(plan.experiments.definitions.map { ($0.key, $0.variations.map(\.key)) }, uniquingKeysWith: { first, _ in first })
        for warning in summary.unusedAbandonScreens(population) { context.notify(.line(warning.description)) }
        for warning in RegexBudget.takeWarnings(of: plan.experiments.regexPatterns) { context.notify(.message(warning)) }
        return Simulate.Outcome(app: plan.app, seed: plan.seed, shard: plan.shard, destination: destination,
                                summary: summary.text(variationOrder: order, intentOrder: population.intents.map(\.name),
                                                      notRunning: notRunning(summary), width: width))
    }

    /// Every experiment of the run's files that no session was exposed to, and why
    /// (``NotRunning/reason(_:at:apps:)`` at the run's start; else its targeting or slot).
    private func notRunning(_ summary: SimulationSummary) -> [String] {
        let start = Date(timeIntervalSince1970: Double(population.startMilliseconds) / 1000)
        return plan.experiments.definitions.sorted { $0.key < $1.key }.compactMap { definition in
            guard (summary.variations[definition.key]?.values.reduce(0) { $0 + $1.exposed } ?? 0) == 0 else { return nil }
            let reason = NotRunning.reason(definition, at: start, apps: [plan.app])
                ?? "targeting: no session that reached slot '\(definition.slot)' matched its condition, coverage, namespace "
                    + "and filters"
            return "\(definition.key) (\(reason))"
        }
    }
}
