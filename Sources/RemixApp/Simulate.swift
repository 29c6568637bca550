import Foundation
import RemixAnalysis
import RemixControllers
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
    /// The population file (nil: the first that exists of APP.population.yaml and
    /// population.yaml in the experiments folder, then in `experiments/`).
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
    /// Analyse the run's log (a file) after it.
    package var report = true
    /// Also write the run's report as an HTML page to this file.
    package var html: String?
    /// Colour the report's table (the CLI does on a terminal).
    package var colour = false
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
    }

    /// Runs the simulation; bad options, inputs and failures to write are errors, before anything is
    /// written where they can be found first.
    package func run(_ context: AppContext) async throws -> Outcome {
        if let problem = optionProblem() { throw AppError(problem) }
        try Outputs.refuseOverInputs(inputs: inputs(context), outputs: [.init("--log", log)] + (html.map { [.init("--html", $0)] } ?? []))
        try Outputs.refuseSticky(sticky, inputs: inputs(context), outputs: [.init("--log", log)] + (html.map { [.init("--html", $0)] } ?? []))
        let registry = try Modules.load(plugins: plugins, context)
        let path = populationPath
        let (population, appDefinition) = try PopulationInput.load(path, app: app, registry: registry, context)
        if appDefinition.name != population.app {
            context.warn("\(path) describes users of '\(population.app)', not '\(appDefinition.name)'; intents the app "
                         + "cannot serve will show as stuck (give --population, or write \(appDefinition.name).population.yaml)")
        }
        let set = try Definitions.experiments(paths: [experiments], registry: registry)
        // A metric that counts nothing is said before the run, not found as zeros in its report.
        let metricsFolder = MetricEvents.folders(of: [experiments]).first ?? experiments
        let catalog = try Definitions.metrics(nil, folder: metricsFolder, named: [], context)
        let metricEvents = MetricEvents(registry: registry, more: population.observedEvents
                                            + MetricEvents.simulatedUserEvents(folders: [metricsFolder]))
        try refuseUnknownMetrics(ExperimentSet(definitions: set.definitions.filter { $0.app == appDefinition.name }), catalog: catalog,
                                 events: metricEvents)
        var plan = SimulationPlan(app: appDefinition.name, users: userCount, seed: seed, jobs: context.usefulJobs(jobs),
                                  shard: shard.flatMap(Shard.init(spec:)) ?? .whole, population: population, experiments: set,
                                  sources: sources(set))
        if let problem = plan.problem() { throw AppError(problem) }
        let rollouts = RolloutController.follows(set, app: plan.app)
        let bandits = BanditController.follows(set, app: plan.app)
        let follows = rollouts || bandits
        if follows {
            // A rollout decides at its step boundaries from the log so far (docs/rollouts.md).
            if StoreURL.isStoreURL(log) { throw AppError(VirtualTimeControllerMessages.needsFileLog) }
            if plan.shard != .whole { throw AppError(VirtualTimeControllerMessages.needsWholeRun) }
        }
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
        if StoreURL.isStoreURL(log) { return try await run.intoStore(try StoreURL(parsing: log), resume: resume, retrySeconds: retrySeconds) }
        var outcome = try await run.intoFile(log, append: append)
        outcome.analysis = try await analysis(jobs: plan.jobs, events: metricEvents, context)
        return outcome
    }

    /// The analysis after a run into a file: the table (unless `report` is false), and the HTML page.
    private func analysis(jobs: Int, events: MetricEvents, _ context: AppContext) async throws -> Analyze.Outcome? {
        guard report || html != nil else { return nil }
        var analyze = Analyze(logs: [log])
        analyze.experiments = experiments
        analyze.format = report ? .table : .html
        analyze.output = report ? nil : html
        analyze.html = report ? html : nil
        analyze.jobs = jobs
        analyze.colour = colour
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
        if isStore, html != nil { return "--html writes the report of a log file, not of an event store: give --log a .jsonl file" }
        if !isStore, resume { return "--resume completes a run in an event store; --log is a file here (use --append for files)" }
        if !(retrySeconds >= 0) || !retrySeconds.isFinite { return "--retry-seconds must be 0 or more (got \(retrySeconds))" }
        return nil
    }

    private var userCount: Int { users ?? sessions ?? 10_000 }

    /// The population file: as given, or else the first that exists of APP.population.yaml and
    /// population.yaml in the experiments folder, then in `experiments/`.
    var populationPath: String {
        if let population { return population }
        let folder = YAMLFile.kind(of: experiments) == .file ? (experiments as NSString).deletingLastPathComponent : experiments
        let names = (app.map { ["\($0).population.yaml"] } ?? []) + ["population.yaml"]
        let candidates = [folder, "experiments"].flatMap { folder in names.map { (folder as NSString).appendingPathComponent($0) } }
        return candidates.first { YAMLFile.kind(of: $0) == .file } ?? "experiments/population.yaml"
    }

    /// The files this run reads, which its outputs must never overwrite.
    private func inputs(_ context: AppContext) -> [OutputCheck.Input] {
        [.init("the population file", populationPath), .init("a file of the experiments folder", experiments)]
            + Modules.inputs(plugins, context)
    }

    private func sources(_ set: ExperimentSet) -> [RunSource] {
        var files = [("population", populationPath)]
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

    /// Runs into the JSON Lines file at `path`, replacing it unless `append`.
    func intoFile(_ path: String, append: Bool) async throws -> Simulate.Outcome {
        if let problem = LogTarget.problem(path: path, replacing: !append) { throw AppError(problem) }
        let file = try JSONLinesFile(path: path, truncate: !append)
        if file.endedTorn {
            context.warn("\(path) ended inside a line (a writer stopped mid-line); a newline was added so "
                         + "that line stays one bad line and this run starts on a line of its own")
        }
        ExitFlusher.shared.watch(file)
        let summary: SimulationSummary
        do {
            let runner = controller.map { SimulationRunner(plan: plan, registry: registry, log: file, controller: $0, replica: replica) }
                ?? SimulationRunner(plan: plan, registry: registry, log: file, replica: replica)
            summary = try runner.run(progress: progress)
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
            summary = try await SimulationRunner(plan: plan, registry: registry, replica: replica).run(into: sink) { done, total in
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
                                summary: summary.text(variationOrder: order, intentOrder: population.intents.map(\.name)))
    }
}
