import Foundation
import RemixAnalysis
import RemixExperiments
import RemixFiles
import RemixHost
import RemixInterop
import RemixKit
import RemixSimulation
import RemixYAML

/// `remix validate`: experiment files checked against each other and the registered features,
/// with their folders' metrics and population files.
package struct Validate {
    /// Experiment files or folders (empty: `experiments`).
    package var paths: [String] = []
    /// Plugins to load besides the built-in modules.
    package var plugins: [String] = []

    /// A validation of `experiments/`.
    package init() {}

    /// Every problem found; a file that cannot be read at all is reported alone (what follows from
    /// it is a cascade).
    package func run(_ context: AppContext) async throws -> ExperimentValidation {
        let registry = try Modules.load(plugins: plugins, context)
        let folders = paths.isEmpty ? ["experiments"] : paths
        let validation = ExperimentValidation.run(paths: folders, registry: registry)
        let own = MetricEvents.metricsFiles(of: folders)
        let unreadableMetrics = own.compactMap(MetricsFileParser.fileProblem)
        guard validation.unreadableFiles.isEmpty && unreadableMetrics.isEmpty else { return validation.stopped(at: unreadableMetrics) }
        let experiments = validation.experiments
        let apps = Set(experiments.definitions.map(\.app) + experiments.slotRules.map(\.app)).sorted()
        let populations = ExperimentPopulations(folders: MetricEvents.folders(of: folders), apps: apps)
        let fallback = own.isEmpty ? Self.fallbackMetrics(of: folders, for: experiments, context) : nil
        let metricProblems = Self.metricProblems(files: fallback.map { [$0] } ?? own, experiments: experiments,
                                                 registry: registry, populations: populations)
        return validation.adding(metricProblems.filter { $0.location.file != fallback }
            + Self.populationProblems(folders: MetricEvents.folders(of: folders), registry: registry)
            + Self.attributeProblems(experiments, apps: apps, registry: registry, populations: populations))
    }

    /// Warnings for the attributes the experiments and rules files name that no session of their
    /// app has: neither the app declares them nor one of `populations` draws them.
    static func attributeProblems(_ experiments: ExperimentSet, apps: [String], registry: FeatureRegistry,
                                  populations: ExperimentPopulations) -> [Diagnostic] {
        var known: [String: [String]] = [:]
        for app in apps {
            guard let definition = try? registry.app(named: app) else { continue }
            known[app] = Set(["id"] + definition.attributes + populations.attributes(of: app)).sorted()
        }
        return AttributeNameCheck(known: known).problems(in: experiments)
    }

    /// When the folders of `paths` have no metrics file and the experiments name metrics: the one
    /// every command falls back to (``InputFiles/metrics(experiments:)``), with its note. Its own
    /// problems are not the folder's to fix, so they are not reported.
    static func fallbackMetrics(of paths: [String], for experiments: ExperimentSet, _ context: AppContext) -> String? {
        guard experiments.definitions.contains(where: { !$0.metrics.all.isEmpty }),
              let folder = MetricEvents.folders(of: paths).first else { return nil }
        let found = InputFiles.metrics(experiments: folder)
        if let note = found.note { context.notify(.note(note)) }
        return found.path
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
    /// registered features (or the host) emit or the checks of `populations` log. `files` are the
    /// metrics files read (the folders' own, else the one every command falls back to).
    static func metricProblems(files: [String], experiments: ExperimentSet, registry: FeatureRegistry,
                               populations: ExperimentPopulations) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        var definitions: [MetricDefinition] = []
        for path in files {
            let (catalog, found) = MetricsFileParser.load(path)
            problems += found
            definitions += catalog.definitions
        }
        let events = MetricEvents(registry: registry, populations: populations)
        return problems + events.problems(in: experiments.definitions, catalog: MetricCatalog(definitions, file: files.first))
    }
}

/// `remix export growthbook`: the experiments as the SDK payload GrowthBook's SDKs load.
package struct ExportGrowthBook {
    /// `set` with each bandit's weights the latest `bandit_update` of `log` gives (docs/bandits.md),
    /// a contextual bandit's per leaf; a bandit or leaf without one keeps equal weights, said in a note.
    static func banditWeights(_ set: ExperimentSet, log: String, _ context: AppContext) throws -> ExperimentSet {
        let latest: [String: [Double]], leaves: [String: [String: [Double]]]
        do {
            latest = try BanditReport.latestWeights(path: log)
            leaves = try BanditReport.latestLeafWeights(path: log)
        } catch {
            throw AppError("--bandit-log: \(error)")
        }
        var definitions = set.definitions
        for index in definitions.indices where definitions[index].bandit != nil {
            let definition = definitions[index]
            if let bandit = definition.bandit, !bandit.leaves.isEmpty {
                for (at, leaf) in bandit.leaves.enumerated() {
                    if let weights = leaves[definition.key]?[String(leaf.leafId)], weights.count == definition.variations.count {
                        definitions[index].bandit?.leaves[at].weights = weights
                    } else {
                        context.notify(.note("\(definition.file): leaf \(leaf.leafId) of bandit '\(definition.key)' has no "
                                             + "bandit_update in \(log); exported with equal weights"))
                    }
                }
                continue
            }
            if let weights = latest[definitions[index].key], weights.count == definitions[index].variations.count {
                definitions[index].experiment.weights = weights
            } else {
                context.notify(.note("\(definitions[index].file): bandit '\(definitions[index].key)' has no bandit_update in "
                                     + "\(log); exported with equal weights"))
            }
        }
        return ExperimentSet(definitions: definitions, savedGroups: set.savedGroups, slotRules: set.slotRules)
    }

    /// The experiments folder (or files).
    package var folder = "experiments"
    /// Only this app's slots.
    package var app: String?
    /// Write the payload to this file instead of returning it.
    package var output: String?
    /// The time the payload is built for (nil: now).
    package var at: String?
    /// Plugins to load besides the built-in modules.
    package var plugins: [String] = []
    /// A log whose latest `bandit_update` of each bandit gives its weights (nil: equal weights).
    package var banditLog: String?

    /// An export of `experiments/`.
    package init() {}

    /// Builds the payload; each mapping is a note. Returns the payload's JSON unless it was written
    /// to `output` (beside it first, then renamed over it: an interrupted export leaves it as it was).
    package func run(_ context: AppContext) async throws -> String? {
        let date = try SessionAttributes.date(at, option: "--at")
        try Outputs.refuseOverInputs(inputs: [.init("a file of the experiments folder", folder)] + Modules.inputs(plugins, context)
                                         + (banditLog.map { [.init("the bandit log", $0)] } ?? []),
                                     outputs: output.map { [.init("--output", $0)] } ?? [])
        let registry = try Modules.load(plugins: plugins, context)
        var set = try Definitions.experiments(paths: [folder], registry: registry)
        if let banditLog { set = try Self.banditWeights(set, log: banditLog, context) }
        let export: GrowthBookExport
        do {
            export = try GrowthBookExport.make(set, registry: registry, app: app, at: date, phaseAt: at == nil ? nil : date)
        } catch {
            throw AppError(messages: error.lines)
        }
        for note in export.notes { context.notify(.note(note.description)) }
        guard let output else { return export.json }
        let staged = StagedOutput.file(output)
        do {
            try export.json.write(toFile: staged.path, atomically: false, encoding: .utf8)
        } catch {
            staged.discard()
            throw AppError("cannot write \(output): \(error.localizedDescription)")
        }
        try staged.commit()
        return nil
    }
}

/// `remix import growthbook`: a GrowthBook SDK payload's experiment rules as experiment files.
package struct ImportGrowthBook {
    /// The payload file, the app and slot the experiments fill, and the payload feature to read.
    package var payload: String, app: String, slot: String, feature: String?
    /// The experiments folder to write to.
    package var out = "experiments"
    /// Replace experiment files that already exist; leave out rules files cannot express.
    package var overwrite = false, skipUnsupported = false
    /// Plugins to load besides the built-in modules.
    package var plugins: [String] = []

    /// An import of `payload` into `app`'s `slot`.
    package init(payload: String, app: String, slot: String) {
        self.payload = payload
        self.app = app
        self.slot = slot
    }

    /// Plans the files, checks them with the folder's other experiments and writes them — all or
    /// nothing; each problem is a line of the error, unprefixed (it names the payload).
    package func run(_ context: AppContext) async throws -> GrowthBookImport {
        let registry = try Modules.load(plugins: plugins, context)
        let options = GrowthBookImport.Options(payloadFile: payload, app: app, slot: slot, feature: feature,
                                               outputFolder: out, overwrite: overwrite, skipUnsupported: skipUnsupported)
        do {
            let plan = try GrowthBookImport.plan(options: options, registry: registry)
            for note in plan.notes { context.notify(.note(note)) }
            try Outputs.refuseOverInputs(inputs: [.init("the payload", payload)] + Modules.inputs(plugins, context),
                                         outputs: plan.files.map { .init("--out", $0.path) })
            try plan.write()
            return plan
        } catch let error as InteropError {
            throw AppError(messages: [], problems: error.lines)
        }
    }
}
