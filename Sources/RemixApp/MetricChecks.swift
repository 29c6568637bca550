import Foundation
import RemixFormats
import RemixAnalysis
import RemixExperiments
import RemixKit
import RemixSimulation
import RemixYAML

/// What the metrics experiments name may count, and the check `remix validate`, `simulate` and
/// `analyze` share (`MetricReferenceCheck`): a metric is a key of the metrics file or an event
/// that a registered feature, the host or a simulated user logs — the last by a population's
/// `check`, named as the source.
struct MetricEvents {
    /// The events the features and the host declare, and `more` known to exist.
    var names: [String]
    /// The fields each declared event carries.
    var fields: [String: [String]]
    /// Each event a population's `check` logs, with the population files whose checks log it.
    var populationEvents: [String: [String]] = [:]

    /// The events `registry` declares, and `more` (those simulated users log themselves).
    init(registry: FeatureRegistry, more: [String]) {
        names = registry.declaredEvents.map(\.name) + more
        fields = Dictionary(registry.declaredEvents.map { ($0.name, $0.fields) }, uniquingKeysWith: { $0 + $1 })
    }

    /// The events `registry` declares, and those the checks of `populations` log.
    init(registry: FeatureRegistry, populations: ExperimentPopulations) {
        self.init(registry: registry, more: [])
        populationEvents = populations.events
    }

    private func check(_ catalog: MetricCatalog) -> MetricReferenceCheck {
        MetricReferenceCheck(catalog: catalog, events: names, eventFields: fields, populationEvents: populationEvents)
    }

    /// The problems of the metrics `experiments` name, measured against `catalog`.
    func problems(in experiments: [ExperimentDefinition], catalog: MetricCatalog) -> [Diagnostic] {
        check(catalog).problems(in: experiments)
    }

    /// Warnings for the metrics `experiments` name whose event only other population files' checks
    /// log than `population`'s (the run's, at `path`): in this run they count nothing.
    func populationGaps(in experiments: [ExperimentDefinition], catalog: MetricCatalog, population: Population,
                        path: String) -> [Diagnostic] {
        check(catalog).populationGaps(in: experiments, population: path, logged: population.observedEvents)
    }

    /// The folders whose metrics file and population files go with `paths`: a folder itself, and
    /// the folder of a file named alone (it is checked with its folder's metrics, as the folder is).
    static func folders(of paths: [String]) -> [String] {
        var folders: [String] = []
        for path in paths {
            let folder = YAMLFile.kind(of: path) == .folder ? path : PathText.folder(of: path)
            let named = folder.isEmpty ? "." : folder
            if YAMLFile.kind(of: named) == .folder, !folders.contains(named) { folders.append(named) }
        }
        return folders
    }

    /// The metrics files (metrics.yaml) of the folders of `paths` that exist.
    static func metricsFiles(of paths: [String]) -> [String] {
        folders(of: paths).map { ($0 as NSString).appendingPathComponent(MetricsFileParser.fileName) }
            .filter { YAMLFile.kind(of: $0) == .file }
    }

    /// The events simulated users log themselves: the success checks of every population file
    /// (`*population.yaml`) in `folders`.
    static func simulatedUserEvents(folders: [String]) -> [String] {
        ExperimentPopulations(folders: folders, apps: []).events.keys.sorted()
    }
}

/// Says, before a run, what `simulate` would otherwise report as zeros: every metric the
/// experiments name that is no key of `catalog` and no event (errors, exit 1), as `remix validate`
/// does, with the nearest name.
func refuseUnknownMetrics(_ experiments: ExperimentSet, catalog: MetricCatalog, events: MetricEvents) throws {
    let errors = events.problems(in: experiments.definitions, catalog: catalog).filter { $0.severity == .error }
    guard !errors.isEmpty else { return }
    throw AppError("the experiments name \(errors.count) metric(s) that would count nothing; fix them (see 'remix validate')",
                   problems: errors.map(\.description))
}
