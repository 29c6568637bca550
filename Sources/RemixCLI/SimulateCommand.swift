import ArgumentParser
import Foundation
import RemixEventLog
import RemixExperiments
import RemixFiles
import RemixHost
import RemixKit
import RemixSimulation
import RemixYAML

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
            Default: the first that exists of APP.population.yaml (with --app APP) and population.yaml, \
            in the --experiments folder, then in experiments/.
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

    @Flag(help: "Do not print the analysis report at the end.")
    var noReport = false

    @Option(help: ArgumentHelp("Also write the run's analysis report as one self-contained HTML page to this file.",
                               valueName: "file"))
    var html: String?

    /// Bad option values are input errors: a message and exit status 1, like every other bad input.
    private func optionProblem() -> String? {
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
        if let html, let problem = outputPathProblem(html, option: "--html") { return problem }
        return nil
    }

    /// User indices stay far from overflow in shard arithmetic and virtual time.
    static let maximumUsers = 1 << 40

    private var userCount: Int { users ?? sessions ?? 10_000 }

    /// The population file: as given, or else the first that exists of APP.population.yaml and
    /// population.yaml in the experiments folder, then in `experiments/`.
    private var populationPath: String {
        if let population { return population }
        let folder = YAMLFile.kind(of: experiments) == .file ? (experiments as NSString).deletingLastPathComponent : experiments
        let names = (app.map { ["\($0).population.yaml"] } ?? []) + ["population.yaml"]
        let candidates = [folder, "experiments"].flatMap { folder in names.map { (folder as NSString).appendingPathComponent($0) } }
        return candidates.first { YAMLFile.kind(of: $0) == .file } ?? "experiments/population.yaml"
    }

    func run() async throws {
        if let problem = optionProblem() {
            printError(problem)
            throw ExitCode(1)
        }
        try refuseOutputsOverInputs(inputs: inputs(), outputs: [.init("--log", log)] + (html.map { [.init("--html", $0)] } ?? []))
        let registry = try loadRegistry(plugins: plugins.paths)
        let (population, problems) = PopulationFile.load(path: populationPath)
        for problem in problems { printError(problem.description, prefix: false) }
        guard let population else { throw ExitCode(1) }
        let appName = app ?? population.app
        let appDefinition: AppDefinition
        do {
            appDefinition = try registry.app(named: appName)
        } catch {
            printError(error.description)
            throw ExitCode(1)
        }
        if appName != population.app {
            printError("warning: \(populationPath) describes users of '\(population.app)', not '\(appName)'; intents the app "
                       + "cannot serve will show as stuck (give --population, or write \(appName).population.yaml)")
        }
        let checked = PopulationCheck.problems(population, app: appDefinition, events: registry.declaredEvents.map(\.name),
                                               features: registry.features.map(\.name))
        for problem in checked { printError(problem.description, prefix: false) }
        if !checked.isEmpty { throw ExitCode(1) }
        for warning in PopulationCheck.renamedScreenWarnings(population, app: appDefinition) {
            printError(warning.description, prefix: false)
        }
        let set = try loadExperiments(paths: [experiments], registry: registry)
        // A metric that counts nothing is said before the run, not found as zeros in its report.
        let metricsFolder = MetricEvents.folders(of: [experiments]).first ?? experiments
        let catalog = try loadMetrics(nil, folder: metricsFolder, named: [])
        let metricEvents = MetricEvents(registry: registry, more: population.observedEvents
                                            + MetricEvents.simulatedUserEvents(folders: [metricsFolder]))
        try refuseUnknownMetrics(ExperimentSet(definitions: set.definitions.filter { $0.app == appName }), catalog: catalog,
                                 events: metricEvents)
        let jobs = usefulJobs(self.jobs)
        let plan = SimulationPlan(
            app: appName, users: userCount, seed: seed, jobs: jobs,
            shard: shard.flatMap(Shard.init(spec:)) ?? .whole, population: population, experiments: set,
            sources: sources(set))
        if let problem = plan.problem() {
            printError(problem)
            throw ExitCode(1)
        }
        if let url = try storeURL() {
            return try await simulate(plan, into: url, registry: registry, population: population, experiments: set)
        }
        if let problem = LogTarget.problem(path: log, replacing: !append) {
            printError(problem)
            throw ExitCode(1)
        }
        let file: JSONLinesFile
        do {
            file = try JSONLinesFile(path: log, truncate: !append)
        } catch {
            printError(error.description)
            throw ExitCode(1)
        }
        if file.endedTorn {
            printError("warning: \(log) ended inside a line (a writer stopped mid-line); a newline was added so "
                       + "that line stays one bad line and this run starts on a line of its own")
        }
        ExitFlusher.shared.watch(file)
        let reporter = ProgressReporter(total: plan.shard.range(of: userCount).count)
        let summary: SimulationSummary
        do {
            summary = try SimulationRunner(plan: plan, registry: registry, log: file).run(progress: reporter.update)
            try file.close()
        } catch {
            try? file.close()
            printError(String(describing: error))
            throw ExitCode(1)
        }
        ExitFlusher.shared.remove(file)
        reporter.finish()
        printOut("simulated \(appName) into \(log) (seed \(seed), shard \(plan.shard))")
        printSummary(summary, population: population, experiments: set)
        if noReport {
            guard let html else { return }
            return try await analyze(logs: [log], experimentsFolder: experiments, experiment: nil, metrics: [], format: .html,
                               output: html, alpha: 0.05, correction: .holm, strict: false, jobs: jobs, metricEvents: metricEvents)
        }
        printOut("")
        try await analyze(logs: [log], experimentsFolder: experiments, experiment: nil, metrics: [], format: .table,
                    output: nil, alpha: 0.05, correction: .holm, strict: false, jobs: jobs, html: html, metricEvents: metricEvents)
    }

    /// The files this run reads, which its outputs must never overwrite.
    private func inputs() -> [OutputCheck.Input] {
        [.init("the population file", populationPath), .init("a file of the experiments folder", experiments)]
            + pluginInputs(plugins.paths)
    }

    private func sources(_ set: ExperimentSet) -> [RunSource] {
        var files = [("population", populationPath)]
        files += set.definitions.map { ("experiment", $0.file) }
        return files.map { role, path in
            let bytes = FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
            return RunSource(role: role, path: path, bytes: bytes)
        }
    }
}

/// Progress on standard error: a bar on a terminal, plain lines otherwise (at most one a second).
final class ProgressReporter {
    private let total: Int
    private let started = ContinuousClock.now
    private var lastLine = ContinuousClock.now
    private let isTerminal = isatty(STDERR_FILENO) == 1

    init(total: Int) {
        self.total = total
    }

    func update(done: Int, total _: Int) {
        let elapsed = (ContinuousClock.now - started).seconds
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let eta = rate > 0 ? Double(total - done) / rate : 0
        let percent = total > 0 ? done * 100 / total : 100
        if isTerminal {
            let filled = percent / 5
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: 20 - filled)
            printProgress(String(format: "[%@] %3d%% %d/%d users, %.0f/s, ETA %.1f s", bar, percent, done, total, rate, eta))
        } else if ContinuousClock.now - lastLine >= .seconds(1) || done == total {
            lastLine = .now
            printError(String(format: "progress: %d/%d users (%d%%), %.0f users/s", done, total, percent, rate),
                       prefix: false)
        }
    }

    func finish() {
        if isTerminal { printError("", prefix: false) }
    }
}
