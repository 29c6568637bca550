import ArgumentParser
import RemixAnalysis
import RemixApp
import RemixStatistics

/// `remix plan`: power, minimum detectable effect and duration before an experiment runs.
struct PlanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "How many units and days an experiment needs to detect a lift, or what it can detect in a given time.",
        discussion: """
            Give the metric's baseline (--rate for a proportion; --mean and --stddev for a mean) and \
            the traffic, or estimate all three from a log (--log LOG --experiment KEY): the control's \
            figure and per-unit variance, and the units entering per day. With --effect, the units \
            per variation and days needed; with --days, the smallest detectable lift; with neither, \
            the lift detectable in 7, 14 and 28 days. GrowthBook's formulas (docs/planning.md).
            """)

    @Option(parsing: .unconditional, help: "Baseline rate of a proportion metric, e.g. 0.75.") var rate: Double?
    @Option(parsing: .unconditional, help: "Baseline mean per unit of a mean metric.") var mean: Double?
    @Option(parsing: .unconditional, help: "Standard deviation of the per-unit values of a mean metric.") var stddev: Double?
    @Option(help: "Estimate baseline, variance and traffic from this event log.") var log: String?
    @Option(help: "With --log: the experiment whose control gives the baseline.") var experiment: String?
    @Option(help: "With --log: the metric (key or event; default: the experiment's primary).") var metric: String?
    @Option(help: "With --log or --simulate: the experiments folder.") var experiments: String = "experiments"
    @Option(parsing: .unconditional, help: "Units entering the experiment per day (all variations).") var traffic: Double?
    @Option(parsing: .unconditional, help: "Variations, control included, sharing the traffic equally (default 2, or the log's).")
    var variations: Int?
    @Option(parsing: .unconditional, help: "The relative lift to detect, e.g. 0.03 for +3 % or -0.05 for −5 %.")
    var effect: Double?
    @Option(parsing: .unconditional, help: "Days the experiment runs: report the smallest detectable lift.") var days: Double?
    @Option(parsing: .unconditional, help: "The chance of a significant result wanted.") var power: Double = 0.8
    @Option(parsing: .unconditional, help: "Significance level.") var alpha: Double = 0.05
    @Flag(help: "Plan for sequential testing (looking once; a lower bound for power).") var sequential = false
    @Option(name: .customLong("sequential-tuning"), parsing: .unconditional,
            help: "With --sequential: GrowthBook's tuning parameter.")
    var sequentialTuning: Double = TestSettings.defaultSequentialTuning
    @Flag(help: "Measure power: simulate --experiment --runs times at each of --sizes users, with the population's effects.")
    var simulate = false
    @Option(parsing: .unconditional, help: "With --simulate: users per run, comma-separated, e.g. 500,1000,2000.")
    var sizes: String = "500,1000,2000"
    @Option(parsing: .unconditional, help: "With --simulate: runs per size.") var runs = 50
    @Option(help: "With --simulate: the population file (default: APP.population.yaml, then population.yaml, for the experiment's app, in the experiments folder, then in experiments/).")
    var population: String?
    @Option(parsing: .unconditional, help: "With --simulate: the first run's seed.", transform: SeedArgument.parse)
    var seed: UInt64 = 1

    /// The use case these options ask for.
    var plan: Plan {
        var plan = Plan()
        (plan.rate, plan.mean, plan.stddev, plan.log, plan.experiment, plan.metric) = (rate, mean, stddev, log, experiment, metric)
        (plan.experiments, plan.traffic, plan.variations, plan.effect, plan.days) = (experiments, traffic, variations, effect, days)
        (plan.power, plan.alpha, plan.sequential, plan.sequentialTuning) = (power, alpha, sequential, sequentialTuning)
        (plan.simulate, plan.sizes, plan.runs, plan.population, plan.seed) = (simulate, sizes, runs, population, seed)
        return plan
    }

    func validate() throws { try refuse(plan.optionProblem()) }

    func run() async throws {
        for line in try await perform(plan.run).lines { printOut(line) }
    }
}
