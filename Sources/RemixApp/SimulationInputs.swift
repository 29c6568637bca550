import Foundation
import RemixAnalysis
import RemixExperiments
import RemixKit
import RemixSimulation

/// What the commands that simulate experiments many times (`plan --simulate`, `check aa`) read:
/// the registry, the population (checked against the app and the registered features), the
/// experiments and the metrics, found as every command finds them (``InputFiles``). Any problem
/// fails it.
struct SimulationInputs {
    let registry: FeatureRegistry
    let populationPath: String
    let population: Population
    let experiments: ExperimentSet
    let catalog: MetricCatalog

    /// The inputs for simulating `experiment` (nil: the first of the population's app): the
    /// population `given`, else the one ``InputFiles`` finds for the experiment's app.
    init(population given: String?, experimentsFolder: String, experiment: String?, metric: String?, _ context: AppContext) throws {
        registry = try Modules.load(plugins: [], context)
        let set = try Definitions.experiments(paths: [experimentsFolder], registry: registry)
        experiments = set
        let app = experiment.flatMap { set.definition(key: $0)?.app }
        populationPath = try InputFiles.population(given: given, app: app, experiments: experimentsFolder)
        let (loaded, _) = try PopulationInput.load(populationPath, app: nil, registry: registry, context)
        population = loaded
        if let app, population.app != app {
            context.warn("\(populationPath) describes users of '\(population.app)', not '\(app)' (the app of '\(experiment ?? "")'); "
                         + "intents the app cannot serve will show as stuck (give --population, or write \(app).population.yaml)")
        }
        catalog = try Definitions.metrics(nil, folder: experimentsFolder, named: metric.map { [$0] } ?? [], context)
        // The runs are simulated here, so a metric must be a key or an event the features emit or
        // the population's checks log (as for `simulate`, ``MetricEvents``).
        let events = registry.declaredEvents.map(\.name) + loaded.observedEvents
        if let metric, catalog[metric] == nil, !events.contains(metric) {
            throw AppError(unknownMetric(metric, catalog: catalog, events: events, because: "not an event any registered feature emits"))
        }
    }

    /// Loads ``registry`` again, without a word, for each simulating worker after the first.
    func replica(_ context: AppContext) -> () throws -> FeatureRegistry {
        Modules.replica(plugins: [], context)
    }
}

/// A population file, read and checked against its app for a use case that simulates it.
enum PopulationInput {
    /// The population at `path` and the app it is simulated in (`app`, else the file's own),
    /// checked against that app and the registered features and events; problems fail, screen
    /// names the app has since split are warnings.
    static func load(_ path: String, app name: String?, registry: FeatureRegistry,
                     _ context: AppContext) throws -> (Population, AppDefinition) {
        let (loaded, problems) = PopulationFile.load(path: path)
        guard let population = loaded else { throw AppError(messages: [], problems: problems.map(\.description)) }
        for problem in problems { context.notify(.line(problem.description)) }
        let app = try registry.app(named: name ?? population.app)
        let checked = PopulationCheck.problems(population, app: app, events: registry.declaredEvents.map(\.name),
                                               features: registry.features.map(\.name))
        if !checked.isEmpty { throw AppError(messages: [], problems: checked.map(\.description)) }
        for warning in PopulationCheck.renamedScreenWarnings(population, app: app) { context.notify(.line(warning.description)) }
        return (population, app)
    }
}
