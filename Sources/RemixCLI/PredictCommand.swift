import ArgumentParser
import RemixApp
import RemixFit

/// `remix predict`: what a fitted population says a flow will do, with intervals
/// (docs/simulation.md#fitting-a-population).
struct PredictCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predict",
        abstract: "Predict each variation's metrics from a fitted population, with 95 % intervals.",
        discussion: """
            Simulates the population (written by 'remix fit --replicates R') and each of its R \
            replicates (fitted on bootstrap resamples of the log's users, in POPULATION's .replicates \
            folder, each checked to be one of this fit's) through the experiments, each with its own \
            seed, and reports each variation's metrics: the population's value and an interval of \
            ± 1.96 standard deviations of the replicates' values (for a share, on the logit scale, \
            so it stays within 0–100 %), which holds both the fit's uncertainty and the simulation's \
            noise. Screens the fitted log never showed (a new plugin's) get each persona's fitted \
            default chance to give up, and are named.
            """)

    @Argument(help: "A population file written by 'remix fit'.")
    var population: String

    @Option(help: "The experiments folder to predict (its metrics.yaml gives the metrics).")
    var experiments: String = "experiments"

    @Option(parsing: .unconditional, help: "Users simulated per population.")
    var users: Int = 30_000

    @Option(parsing: .unconditional, help: "The seed of the first simulation; replicate i uses seed + i.")
    var seed: UInt64 = 1

    @Option(parsing: .unconditional, help: "Worker threads (default: one per core).")
    var jobs: Int?

    @OptionGroup var plugins: PluginOptions

    /// The use case these options ask for.
    var prediction: Predict {
        var prediction = Predict(population: population)
        (prediction.experiments, prediction.users, prediction.seed, prediction.jobs) = (experiments, users, seed, jobs)
        prediction.plugins = plugins.paths
        return prediction
    }

    func validate() throws { try refuse(prediction.optionProblem()) }

    func run() async throws {
        writeOut(PredictionText.table(try await perform(prediction.run)))
    }
}
