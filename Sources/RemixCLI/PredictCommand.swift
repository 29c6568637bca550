import ArgumentParser
import Foundation
import RemixAnalysis
import RemixExperiments
import RemixFit
import RemixSimulation

/// `remix predict`: what a fitted population says a flow will do, with intervals
/// (docs/simulation.md#fitting-a-population).
struct PredictCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predict",
        abstract: "Predict each variation's metrics from a fitted population, with 95 % intervals.",
        discussion: """
            Simulates the population (written by 'remix fit --replicates R') and each of its R \
            replicates (fitted on bootstrap resamples of the log's users, in POPULATION's .replicates \
            folder) through the experiments, each with its own seed, and reports each variation's \
            metrics: the population's value and an interval of ± 1.96 standard deviations of the \
            replicates' values, which holds both the fit's uncertainty and the simulation's noise. \
            Screens the fitted log never showed (a new plugin's) get each persona's fitted default \
            chance to give up, and are named.
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
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @OptionGroup var plugins: PluginOptions

    func validate() throws {
        guard users >= 1 else { throw ValidationError("--users must be at least 1 (got \(users))") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1 (got \(jobs))") }
    }

    func run() throws {
        let registry = try loadRegistry(plugins: plugins.paths)
        let main = try Self.load(population)
        let folder = FittedPopulationWriter.replicatesFolder(of: population)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(ExperimentSet.populationSuffix) }
            .sorted { (Int($0.prefix { $0.isNumber }) ?? 0) < (Int($1.prefix { $0.isNumber }) ?? 0) }
        guard names.count >= 2 else {
            printError("\(population) has \(names.isEmpty ? "no" : "one") replicate in \(folder); fit with --replicates R "
                       + "(20 or more) for the intervals")
            throw ExitCode(1)
        }
        let replicates = try names.map { try Self.load((folder as NSString).appendingPathComponent($0)) }
        let set = try loadExperiments(paths: [experiments], registry: registry)
        let catalog = try loadMetrics(nil, folder: experiments, named: [])
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("remix-predict-\(getpid())").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let prediction = try PopulationPrediction.run(
            population: main, replicates: replicates, experiments: ExperimentSet(definitions: set.definitions.filter { $0.app == main.app }),
            catalog: catalog, registry: registry, users: users, seed: seed, jobs: usefulJobs(jobs), folder: work)
        print(PredictionText.table(prediction), terminator: "")
    }

    private static func load(_ path: String) throws -> Population {
        let (population, problems) = PopulationFile.load(path: path)
        for problem in problems { printError(problem.description, prefix: false) }
        guard let population else { throw ExitCode(1) }
        return population
    }
}
