import ArgumentParser
import Foundation
import RemixAnalysis
import RemixExperiments
import RemixSimulation
import RemixKit
import RemixYAML

/// `remix validate`: check experiment files against each other and the registered features.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check experiment files: syntax, types, apps, slots, features, parameters, overlaps and metrics.",
        discussion: """
            Prints every problem as 'file:line:column: error|warning: message' and exits 1 if there \
            is any error. A folder's metrics.yaml is checked too, and so is every metric an \
            experiment names: a name with a '-' must be a key of metrics.yaml (event types have none).
            """)

    @Argument(help: "Experiment files or folders (default: experiments/).")
    var paths: [String] = []

    @Flag(help: "Also print each namespace's slices: which experiment takes which range, and what is free.")
    var namespaces = false

    @OptionGroup var plugins: PluginOptions

    func run() throws {
        let registry = try loadRegistry(plugins: plugins.paths)
        let folders = paths.isEmpty ? ["experiments"] : paths
        let validation = ExperimentValidation.run(paths: folders, registry: registry)
        let report = validation.adding(Self.metricProblems(folders: folders, experiments: validation.experiments,
                                                           registry: registry))
        for problem in report.diagnostics { printError(problem.description, prefix: false) }
        if namespaces {
            let map = NamespaceMap(report.experiments.definitions)
            printOut(map.lines.isEmpty ? "no experiment uses a namespace" : "namespaces:\n" + map.lines.map { "  " + JSONText.visible($0) }.joined(separator: "\n"))
        }
        printOut(report.summary)
        if report.errorCount > 0 { throw ExitCode(1) }
    }

    /// The events simulated users log themselves: the success checks of every population file
    /// (`*population.yaml`) in the folders.
    static func simulatedUserEvents(folders: [String]) -> [String] {
        var events: [String] = []
        for folder in folders where YAMLFile.kind(of: folder) == .folder {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for name in names.sorted() where name.hasSuffix(ExperimentSet.populationSuffix) {
                let (population, _) = PopulationFile.load(path: (folder as NSString).appendingPathComponent(name))
                events += population?.observedEvents ?? []
            }
        }
        return events
    }

    /// The problems of each folder's metrics.yaml, and of every metric the experiments name: a
    /// metric key or an event that the registered features (or the host, or simulated users) emit.
    static func metricProblems(folders: [String], experiments: ExperimentSet, registry: FeatureRegistry) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        var definitions: [MetricDefinition] = []
        var files: [String] = []
        for folder in folders where YAMLFile.kind(of: folder) == .folder {
            let path = (folder as NSString).appendingPathComponent(MetricsFileParser.fileName)
            guard YAMLFile.kind(of: path) == .file else { continue }
            let (catalog, found) = MetricsFileParser.load(path)
            problems += found
            definitions += catalog.definitions
            files.append(path)
        }
        let events = registry.declaredEvents.map(\.name) + simulatedUserEvents(folders: folders)
        let fields = Dictionary(registry.declaredEvents.map { ($0.name, $0.fields) }, uniquingKeysWith: { $0 + $1 })
        let check = MetricReferenceCheck(catalog: MetricCatalog(definitions, file: files.first), events: events,
                                         eventFields: fields)
        return problems + check.problems(in: experiments.definitions)
    }
}
