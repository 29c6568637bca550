import ArgumentParser
import Foundation
import RemixAnalysis
import RemixChecks
import RemixExperiments
import RemixKit
import RemixSimulation
import RemixYAML

/// `remix check`: self-checks of the whole pipeline.
struct CheckCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Check the pipeline itself: simulate and analyse A/A experiments.",
        subcommands: [AACheckCommand.self])
}

/// `remix check aa`: many A/A runs of an experiment; exit 1 when the analysis finds differences
/// more often than α says it should.
struct AACheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aa",
        abstract: "Run an experiment many times with the control's feature in every variation and check the false-positive rate.",
        discussion: """
            Each run simulates --users users with its own seed through the real features, logs them \
            and analyses the log. Passes when the share of runs with p < α is consistent with α (α in \
            its 99.9 % Wilson interval), sample-ratio alarms are not demonstrably more common than their \
            0.1 % threshold (the 99.9 % interval's lower end), and the p-values are uniform \
            (Kolmogorov–Smirnov p ≥ 0.001); else exits 1. Each figure is printed with its gate; progress \
            goes to standard error. docs/planning.md.
            """)

    @Option(help: "The experiment (default: the first, by key, of the population's app).") var experiment: String?
    @Option(help: "The metric tested (default: the experiment's primary).") var metric: String?
    @Option(parsing: .unconditional, help: "A/A runs.") var runs = 200
    @Option(parsing: .unconditional, help: "Users per run.") var users = 2000
    @Option(parsing: .unconditional, help: "The first run's seed; run i uses seed + i.", transform: SeedArgument.parse)
    var seed: UInt64 = 1
    @Option(parsing: .unconditional, help: "Significance level.") var alpha = 0.05
    @Flag(help: "Test with sequential testing.") var sequential = false
    @Option(parsing: .unconditional, help: "Look at each run this many times (evenly spaced over its exposures); any significant look counts. With more than 1, the rate must stay at or below α.")
    var looks = 1
    @Option(help: "The folder of experiment files.") var experiments = "experiments"
    @Option(help: "The population file (default: the experiments folder's population.yaml).") var population: String?
    @Option(parsing: .unconditional, help: "Threads for each run's simulation and analysis.") var jobs: Int?

    func validate() throws {
        guard runs >= 10 else { throw ValidationError("--runs must be at least 10 (got \(runs))") }
        guard users >= 20 else { throw ValidationError("--users must be at least 20 (got \(users))") }
        guard alpha > 0, alpha < 1 else { throw ValidationError("--alpha must be between 0 and 1 (got \(alpha))") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1 (got \(jobs))") }
        guard looks >= 1, looks <= 100 else { throw ValidationError("--looks must be between 1 and 100 (got \(looks))") }
    }

    func run() throws {
        let inputs = try SimulationInputs(population: population, experimentsFolder: experiments, metric: metric)
        let key = experiment ?? inputs.experiments.definitions.first { $0.app == inputs.population.app }?.key ?? ""
        var options = AACheck.Options(experiment: key)
        options.metric = metric
        options.runs = runs
        options.usersPerRun = users
        options.seed = seed
        options.alpha = alpha
        options.sequentialTuning = sequential ? TestSettings.defaultSequentialTuning : nil
        options.looks = looks
        options.jobs = usefulJobs(jobs)
        let started = ContinuousClock.now
        let progress = ProgressLine("A/A run")
        progress.update(0, of: runs)
        let result: AACheck.Result
        do {
            result = try AACheck.run(options, population: inputs.population, experiments: inputs.experiments,
                                     catalog: inputs.catalog, registry: inputs.registry,
                                     folder: NSTemporaryDirectory(), progress: progress.update)
        } catch {
            progress.finish()
            printError(String(describing: error))
            throw ExitCode(1)
        }
        progress.finish()
        let seconds = Double((ContinuousClock.now - started).components.seconds)
        printOut("A/A check of \(key) (\(runs) runs × \(users) users, seeds \(seed)–\(seed &+ UInt64(runs - 1)), α \(alpha)"
              + (sequential ? ", sequential" : "") + (looks > 1 ? ", \(looks) looks per run" : "") + String(format: ", %.0f s):", seconds))
        // Each figure with the gate it must pass, so that what is printed and the verdict agree.
        for gate in result.gates {
            printOut("  " + gate.figure)
            printOut("    " + (gate.applies ? "gate: \(gate.rule) — " + (gate.passed ? "ok" : "FAILED") : "not a gate: \(gate.rule)"))
        }
        guard result.passed else {
            for failure in result.failures { printError("check failed: " + failure) }
            throw ExitCode(1)
        }
        printOut("passed")
    }
}
