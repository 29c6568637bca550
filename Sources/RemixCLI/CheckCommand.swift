import ArgumentParser
import RemixApp

/// `remix check`: self-checks of the whole pipeline.
struct CheckCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Check the pipeline itself: simulate and analyse A/A experiments.",
        subcommands: [AACheckCommand.self])
}

/// `remix check aa`: many A/A runs of an experiment; exit 1 when the analysis finds differences
/// more often than α says it should.
struct AACheckCommand: AsyncParsableCommand {
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
    @Option(help: "The population file (default: APP.population.yaml, then population.yaml, for the experiment's app, in the experiments folder, then in experiments/).")
    var population: String?
    @Option(parsing: .unconditional, help: "Threads for each run's simulation and analysis.") var jobs: Int?

    /// The use case these options ask for.
    var check: CheckAA {
        var check = CheckAA()
        (check.experiment, check.metric, check.runs, check.users, check.seed, check.alpha) = (experiment, metric, runs, users, seed, alpha)
        (check.sequential, check.looks, check.experiments, check.population, check.jobs) = (sequential, looks, experiments, population, jobs)
        return check
    }

    func validate() throws { try refuse(check.optionProblem()) }

    func run() async throws {
        let outcome = try await perform(check.run)
        printOut("A/A check of \(outcome.experiment) (\(runs) runs × \(users) users, seeds \(seed)–\(seed &+ UInt64(runs - 1)), α \(alpha)"
                 + (sequential ? ", sequential" : "") + (looks > 1 ? ", \(looks) looks per run" : "")
                 + ", \(Int(outcome.seconds)) s):")
        // Each figure with the gate it must pass, so that what is printed and the verdict agree.
        for gate in outcome.result.gates {
            printOut("  " + gate.figure)
            printOut("    " + (gate.applies ? "gate: \(gate.rule) — " + (gate.passed ? "ok" : "FAILED") : "not a gate: \(gate.rule)"))
        }
        guard outcome.result.passed else { throw AppError(messages: outcome.result.failures.map { "check failed: " + $0 }) }
        printOut("passed")
    }
}
