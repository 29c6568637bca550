import Foundation
import RemixExperiments
import RemixFit
import RemixSimulation

/// `remix predict`: what a fitted population says each variation's metrics will be, with 95 %
/// intervals from its bootstrap replicates.
package struct Predict {
    /// A population file written by `remix fit --replicates R`.
    package var population: String
    /// The experiments folder to predict (its metrics.yaml gives the metrics).
    package var experiments = "experiments"
    /// Users simulated per population.
    package var users = 30_000
    /// The seed of the first simulation; replicate i uses seed + i.
    package var seed: UInt64 = 1
    /// Worker threads (nil: one per core).
    package var jobs: Int?
    /// Plugins to load besides the built-in modules.
    package var plugins: [String] = []

    /// A prediction from `population`.
    package init(population: String) {
        self.population = population
    }

    /// Why the options cannot be predicted with, or nil.
    package func optionProblem() -> String? {
        guard users >= 1 else { return "--users must be at least 1 (got \(users))" }
        if let jobs, jobs < 1 { return "--jobs must be at least 1 (got \(jobs))" }
        return nil
    }

    /// Simulates the population and each replicate through the experiments.
    package func run(_ context: AppContext) async throws -> PopulationPrediction {
        if let problem = optionProblem() { throw AppError(problem) }
        let registry = try Modules.load(plugins: plugins, context)
        let main = try Self.load(population, context)
        let folder = FittedPopulationWriter.replicatesFolder(of: population)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(ExperimentSet.populationSuffix) }
            .sorted { (Int($0.prefix { $0.isNumber }) ?? 0) < (Int($1.prefix { $0.isNumber }) ?? 0) }
        guard names.count >= 2 else {
            throw AppError("\(population) has \(names.isEmpty ? "no" : "one") replicate in \(folder); fit with --replicates R "
                           + "(20 or more) for the intervals")
        }
        let replicates = try names.map { try Self.load((folder as NSString).appendingPathComponent($0), context) }
        let set = try Definitions.experiments(paths: [experiments], registry: registry)
        let catalog = try Definitions.metrics(nil, folder: experiments, named: [], context)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("remix-predict-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        return try PopulationPrediction.run(
            population: main, replicates: replicates, experiments: ExperimentSet(definitions: set.definitions.filter { $0.app == main.app }),
            catalog: catalog, registry: registry, users: users, seed: seed, jobs: context.usefulJobs(jobs), folder: work)
    }

    private static func load(_ path: String, _ context: AppContext) throws -> Population {
        let (population, problems) = PopulationFile.load(path: path, missing: "name a population file that 'remix fit' wrote")
        guard let population else { throw AppError(messages: [], problems: problems.map(\.description)) }
        for problem in problems { context.notify(.line(problem.description)) }
        return population
    }
}
