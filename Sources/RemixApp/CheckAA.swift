import Foundation
import RemixAnalysis
import RemixChecks
import RemixExperiments
import RemixKit
import RemixStatistics

/// `remix check aa`: many A/A runs of an experiment (the control's feature in every variation),
/// checking that the analysis finds differences no more often than α says it should.
package struct CheckAA {
    /// The experiment (nil: the first, by key, of the population's app).
    package var experiment: String?
    /// The metric tested (nil: the experiment's primary, else its app's default metric).
    package var metric: String?
    /// A/A runs, and users per run.
    package var runs = 200, users = 2000
    /// The first run's seed; run i uses seed + i.
    package var seed: UInt64 = 1
    /// Significance level.
    package var alpha = 0.05
    /// Test with sequential testing.
    package var sequential = false
    /// Look at each run this many times.
    package var looks = 1
    /// The folder of experiment files, and the population file (nil: the one ``InputFiles`` finds
    /// for the experiment's app).
    package var experiments = "experiments"
    package var population: String?
    /// Threads for each run's simulation and analysis (nil: one per core).
    package var jobs: Int?

    /// A check with the defaults.
    package init() {}

    /// What the check found.
    package struct Outcome {
        /// The experiment checked.
        package var experiment: String
        /// The check's figures, gates and verdict.
        package var result: AACheck.Result
        /// Seconds it took.
        package var seconds: Double
    }

    /// Why the options cannot be checked with, or nil.
    package func optionProblem() -> String? {
        guard runs >= 10 else { return "--runs must be at least 10 (got \(runs))" }
        guard users >= 20 else { return "--users must be at least 20 (got \(users))" }
        guard alpha > 0, alpha < 1 else { return "--alpha must be between 0 and 1 (got \(alpha))" }
        if let jobs, jobs < 1 { return "--jobs must be at least 1 (got \(jobs))" }
        guard looks >= 1, looks <= 100 else { return "--looks must be between 1 and 100 (got \(looks))" }
        return nil
    }

    /// Runs the check. A check that does not pass is an outcome, not an error: its figures say why.
    package func run(_ context: AppContext) async throws -> Outcome {
        if let problem = optionProblem() { throw AppError(problem) }
        let inputs = try SimulationInputs(population: population, experimentsFolder: experiments, experiment: experiment,
                                          metric: metric, context)
        let key = experiment ?? inputs.experiments.definitions.first { $0.app == inputs.population.app }?.key ?? ""
        var options = AACheck.Options(experiment: key)
        options.metric = metric
        options.runs = runs
        options.usersPerRun = users
        options.seed = seed
        options.alpha = alpha
        options.sequentialTuning = sequential ? TestSettings.defaultSequentialTuning : nil
        options.looks = looks
        options.jobs = context.usefulJobs(jobs)
        let started = ContinuousClock.now
        let progress = context.progress
        progress(WorkProgress(.runs("A/A run"), done: 0, total: runs))
        let result = try AACheck.run(options, population: inputs.population, experiments: inputs.experiments, catalog: inputs.catalog,
                                     registry: inputs.registry, replica: inputs.replica(context), folder: NSTemporaryDirectory(),
                                     progress: { progress(WorkProgress(.runs("A/A run"), done: $0, total: $1)) })
        return Outcome(experiment: key, result: result, seconds: Double((ContinuousClock.now - started).components.seconds))
    }
}
