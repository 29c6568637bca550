import ArgumentParser
import RemixAnalysis
import RemixExperiments
import Foundation
import RemixFormats
import RemixKit
import RemixSimulation
import RemixYAML

/// `remix validate`: check experiment files against each other and the registered features.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check experiment files: syntax, types, apps, slots, features, parameters, overlaps and metrics.",
        discussion: """
            Prints every problem as 'file:line:column: error|warning: message' and exits 1 if there \
            is any error. A folder's metrics.yaml is checked too, and so is every metric an \
            experiment names: a name with a '-' must be a key of metrics.yaml (event types have none). \
            The folders' population files (*population.yaml) are checked against their apps too.
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
        // A file that cannot be read at all is reported alone: what follows from it is a cascade.
        let unreadableMetrics = MetricEvents.metricsFiles(of: folders).compactMap(MetricsFileParser.fileProblem)
        let report = validation.unreadableFiles.isEmpty && unreadableMetrics.isEmpty
            ? validation.adding(Self.metricProblems(paths: folders, experiments: validation.experiments, registry: registry)
                + Self.populationProblems(folders: MetricEvents.folders(of: folders), registry: registry))
            : validation.stopped(at: unreadableMetrics)
        for problem in report.diagnostics { printError(problem.description, prefix: false) }
        if namespaces {
            let map = NamespaceMap(report.experiments.definitions)
            printOut(map.lines.isEmpty ? "no experiment uses a namespace" : "namespaces:\n" + map.lines.map { "  " + JSONText.visible($0) }.joined(separator: "\n"))
        }
        printOut(report.summary)
        if report.errorCount > 0 { throw ExitCode(1) }
    }

    /// The problems of the folders' population files: the file's own, those against its app (services,
    /// success events, effects), and screen names the app has since split (warnings).
    static func populationProblems(folders: [String], registry: FeatureRegistry) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for name in names.sorted() where name.hasSuffix(ExperimentSet.populationSuffix) {
                let (population, found) = PopulationFile.load(path: (folder as NSString).appendingPathComponent(name))
                problems += found
                guard let population, let app = try? registry.app(named: population.app) else { continue }
                problems += PopulationCheck.problems(population, app: app, events: registry.declaredEvents.map(\.name),
                                                     features: registry.features.map(\.name))
                problems += PopulationCheck.renamedScreenWarnings(population, app: app)
            }
        }
        return problems
    }

    /// The problems of each folder's metrics.yaml — the folders named, and those of files named
    /// alone — and of every metric the experiments name: a metric key or an event that the
    /// registered features (or the host, or simulated users) emit.
    static func metricProblems(paths: [String], experiments: ExperimentSet, registry: FeatureRegistry) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        var definitions: [MetricDefinition] = []
        let files = MetricEvents.metricsFiles(of: paths)
        for path in files {
            let (catalog, found) = MetricsFileParser.load(path)
            problems += found
            definitions += catalog.definitions
        }
        let events = MetricEvents(registry: registry, more: MetricEvents.simulatedUserEvents(folders: MetricEvents.folders(of: paths)))
        return problems + events.problems(in: experiments.definitions, catalog: MetricCatalog(definitions, file: files.first))
    }
}
