import Foundation
import RemixExperiments
import RemixSimulation

/// The population files that go with experiment files: those in their folders
/// (`*population.yaml`) and, for each app, the one `remix simulate` runs the folder with when no
/// `--population` is given. Simulated users log the events of their population's `check`s and
/// carry the attributes it draws, so what a metric may count and what a condition may test is
/// known from these — the one rule `validate` and `simulate` share.
struct ExperimentPopulations {
    /// Each file that could be read, by the path it was found at, in the order found.
    private(set) var files: [(path: String, population: Population)] = []

    /// The population files of `folders`, and those `simulate` would use there for each of `apps`.
    init(folders: [String], apps: [String]) {
        var paths: [String] = []
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            paths += names.sorted().filter { $0.hasSuffix(ExperimentSet.populationSuffix) }
                .map { (folder as NSString).appendingPathComponent($0) }
            for app in apps {
                if let path = try? InputFiles.population(given: nil, app: app, experiments: folder) { paths.append(path) }
            }
        }
        var seen = Set<String>()
        for path in paths where seen.insert(URL(fileURLWithPath: path).standardizedFileURL.path).inserted {
            if let population = PopulationFile.load(path: path).0 { files.append((path, population)) }
        }
    }

    /// Each event a population's `check` logs, with the files whose checks log it.
    var events: [String: [String]] {
        var events: [String: [String]] = [:]
        for (path, population) in files {
            for event in population.observedEvents where events[event]?.contains(path) != true { events[event, default: []].append(path) }
        }
        return events
    }

    /// The attributes the population files of `app` draw.
    func attributes(of app: String) -> [String] {
        files.filter { $0.population.app == app }.flatMap { $0.population.attributes.map(\.name) }
    }
}
