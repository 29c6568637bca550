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

    /// Simulates the population and each replicate through the experiments. Every replicate must
    /// be one of this fit's (its header says so), and every metric the experiments name a key of
    /// the metrics file or an event, as `simulate` requires.
    package func run(_ context: AppContext) async throws -> PopulationPrediction {
        if let problem = optionProblem() { throw AppError(problem) }
        let registry = try Modules.load(plugins: plugins, context)
        let main = try Self.load(population, context)
        let replicates = try self.replicates(context)
        let set = try Definitions.experiments(paths: [experiments], registry: registry)
        let metricsFolder = MetricEvents.folders(of: [experiments]).first ?? experiments
        let catalog = try Definitions.metrics(nil, folder: metricsFolder, named: [], context)
        let predicted = ExperimentSet(definitions: set.definitions.filter { $0.app == main.app })
        try refuseUnknownMetrics(predicted, catalog: catalog, events: MetricEvents(registry: registry, more: main.observedEvents
                                     + MetricEvents.simulatedUserEvents(folders: [metricsFolder])))
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("remix-predict-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        return try PopulationPrediction.run(
            population: main, replicates: replicates, experiments: predicted,
            catalog: catalog, registry: registry, users: users, seed: seed, jobs: context.usefulJobs(jobs), folder: work)
    }

    /// The replicates beside the population (`K.population.yaml`, in order), each checked to be
    /// replicate K of this fit's.
    private func replicates(_ context: AppContext) throws -> [Population] {
        let folder = FittedPopulationWriter.replicatesFolder(of: population)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter(FittedPopulationWriter.isReplicateName)
            .sorted { (Int($0.prefix { $0.isNumber }) ?? 0) < (Int($1.prefix { $0.isNumber }) ?? 0) }
        guard names.count >= 2 else {
            throw AppError("\(population) has \(names.isEmpty ? "no" : "one") replicate in \(folder); fit with --replicates R "
                           + "(20 or more) for the intervals")
        }
        let fitText: String
        do {
            fitText = try String(contentsOfFile: population, encoding: .utf8)
        } catch {
            throw AppError("cannot read \(population): \(error.localizedDescription)")
        }
        let texts = names.map { (try? String(contentsOfFile: (folder as NSString).appendingPathComponent($0), encoding: .utf8)) ?? "" }
        // A replicate of another fit first (the likelier intruder), then one out of its place.
        for (name, text) in zip(names, texts) {
            if let problem = FittedPopulationWriter.replicateProblem(text, fitText: fitText) { throw notAReplicate(name, folder, problem) }
        }
        for (name, text) in zip(names, texts) {
            if let problem = FittedPopulationWriter.replicateNumberProblem(text, number: Int(name.prefix { $0.isNumber }) ?? 0,
                                                                           of: names.count) {
                throw notAReplicate(name, folder, problem)
            }
        }
        return try names.map { try Self.load((folder as NSString).appendingPathComponent($0), context) }
    }

    private func notAReplicate(_ name: String, _ folder: String, _ problem: String) -> AppError {
        AppError("\((folder as NSString).appendingPathComponent(name)) is not a replicate of \(population): \(problem); fit again "
                 + "with --replicates R, which writes the folder anew")
    }

    private static func load(_ path: String, _ context: AppContext) throws -> Population {
        let (population, problems) = PopulationFile.load(path: path, missing: "name a population file that 'remix fit' wrote")
        guard let population else { throw AppError(messages: [], problems: problems.map(\.description)) }
        for problem in problems { context.notify(.line(problem.description)) }
        return population
    }
}
