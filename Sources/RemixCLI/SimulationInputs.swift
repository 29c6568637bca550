import ArgumentParser
import Foundation
import RemixAnalysis
import RemixExperiments
import RemixKit
import RemixSimulation

/// What the commands that simulate experiments many times (`plan --simulate`, `check aa`) read:
/// the registry, the population (checked against the app and the registered features), the
/// experiments and the metrics. Every problem is printed and exits 1.
struct SimulationInputs {
    let registry: FeatureRegistry
    let populationPath: String
    let population: Population
    let experiments: ExperimentSet
    let catalog: MetricCatalog

    init(population given: String?, experimentsFolder: String, metric: String?) throws {
        registry = try loadRegistry(plugins: [])
        populationPath = given ?? (experimentsFolder as NSString).appendingPathComponent("population.yaml")
        let (loaded, problems) = PopulationFile.load(path: populationPath)
        for problem in problems { printError(problem.description, prefix: false) }
        guard let loaded else { throw ExitCode(1) }
        let app: AppDefinition
        do { app = try registry.app(named: loaded.app) } catch {
            printError(error.description)
            throw ExitCode(1)
        }
        let checked = PopulationCheck.problems(loaded, app: app, events: registry.declaredEvents.map(\.name),
                                               features: registry.features.map(\.name))
        for problem in checked { printError(problem.description, prefix: false) }
        if !checked.isEmpty { throw ExitCode(1) }
        for warning in PopulationCheck.renamedScreenWarnings(loaded, app: app) { printError(warning.description, prefix: false) }
        population = loaded
        experiments = try loadExperiments(paths: [experimentsFolder], registry: registry)
        catalog = try loadMetrics(nil, folder: experimentsFolder, named: metric.map { [$0] } ?? [])
        // The runs are simulated here, so a metric must be a key or an event the features emit.
        let events = registry.declaredEvents.map(\.name)
        if let metric, catalog[metric] == nil, !events.contains(metric) {
            printError(unknownMetric(metric, catalog: catalog, events: events, because: "not an event any registered feature emits"))
            throw ExitCode(1)
        }
    }
}
