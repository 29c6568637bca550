import Foundation
import RemixFormats
import RemixAnalysis
import RemixBuiltIns
import RemixExperiments
import RemixFiles
import RemixHost
import RemixKit
import RemixStore

/// The feature modules a use case builds from: the built-in ones, then the plugins of
/// `REMIX_PLUGIN_PATH` and `--plugins`.
package enum Modules {
    /// The registry of the built-in modules and the plugins `REMIX_PLUGIN_PATH` (in `context`) and
    /// `plugins` name. A broken module (e.g. its catalog file) or plugin is a `PluginError` or a
    /// `RegistryError`; each problem the registry finds is a warning. With `REMIX_PLUGIN_TIMING`,
    /// each plugin's load and registration times are notices.
    package static func load(plugins: [String], _ context: AppContext) throws -> FeatureRegistry {
        let (registry, loaded) = try registry(plugins: plugins, environment: context.environment)
        if context.environment["REMIX_PLUGIN_TIMING"] != nil {
            for plugin in loaded { context.notify(.message(plugin.description)) }
        }
        for problem in registry.problems() { context.warn(problem.description) }
        return registry
    }

    /// What loads the registry ``load(plugins:_:)`` gives again, without a word (its warnings and
    /// notices were said the first time): a simulation gives each worker after the first its own.
    package static func replica(plugins: [String], _ context: AppContext) -> @Sendable () throws -> FeatureRegistry {
        let environment = context.environment
        return { try registry(plugins: plugins, environment: environment).registry }
    }

    /// The built-in modules and the plugins `REMIX_PLUGIN_PATH` (in `environment`) and `plugins`
    /// name, registered, and the plugins loaded.
    private static func registry(plugins: [String],
                                 environment: [String: String]) throws -> (registry: FeatureRegistry, plugins: [LoadedPlugin]) {
        let registry = try BuiltInModules.registry()
        let loaded = try PluginLoader.load(PluginLoader.requestedPaths(options: plugins, environment: environment), into: registry)
        return (registry, loaded)
    }

    /// The built-in features and the plugins of `REMIX_PLUGIN_PATH`, for the events they declare; a
    /// plugin that cannot be loaded is left out (an analysis reads logs, not features).
    static func quiet(_ context: AppContext) -> FeatureRegistry {
        guard let registry = try? BuiltInModules.registry() else { return FeatureRegistry() }
        _ = try? PluginLoader.load(requestedPaths([], context), into: registry)
        return registry
    }

    /// The plugin paths to load: `REMIX_PLUGIN_PATH`'s, then `plugins`.
    static func requestedPaths(_ plugins: [String], _ context: AppContext) -> [String] {
        PluginLoader.requestedPaths(options: plugins, environment: context.environment)
    }

    /// The plugin files a use case loads, as inputs: no output may replace one.
    static func inputs(_ plugins: [String], _ context: AppContext) -> [OutputCheck.Input] {
        let files = (try? PluginLoader.pluginFiles(in: requestedPaths(plugins, context))) ?? []
        return files.map { OutputCheck.Input("the plugin", $0) }
    }
}

/// What a use case that writes files checks before it writes anything.
enum Outputs {
    /// Refuses, before anything is written, an output that is one of `inputs` or another output,
    /// and a folder replaced whole that holds an input or files the command does not write there
    /// (`OutputCheck`). Store URLs and standard input/output (`-`) name no file and are left out.
    static func refuseOverInputs(inputs: [OutputCheck.Input], outputs: [OutputCheck.Output], folders: [OutputCheck.Folder] = []) throws {
        let files = outputs.filter { !StoreURL.isStoreURL($0.path) && $0.path != "-" }
        let read = inputs.filter { !StoreURL.isStoreURL($0.path) && $0.path != "-" }
        if let problem = OutputCheck(inputs: read, outputs: files, folders: folders).problem() { throw AppError(problem) }
    }

    /// Refuses a sticky-bucket file (`--sticky`) that is one of `inputs` or `outputs`. The command
    /// reads it and appends to it, so it may be kept in an input folder (beside the experiments):
    /// of a folder only the YAML files, which the command reads, count.
    static func refuseSticky(_ sticky: String?, inputs: [OutputCheck.Input], outputs: [OutputCheck.Output]) throws {
        guard let sticky else { return }
        let read = inputs.flatMap { input -> [OutputCheck.Input] in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input.path, isDirectory: &isFolder), isFolder.boolValue else { return [input] }
            return FileIdentity.files(under: input.path).filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
                .map { OutputCheck.Input(input.role, $0) }
        }
        try refuseOverInputs(inputs: read, outputs: outputs + [.init("--sticky", sticky)])
    }

    /// Why a file cannot be written at `path` (its folder missing, not a folder, or not writable),
    /// checked before any work so that a long run does not fail at its end; nil when it can.
    static func pathProblem(_ path: String, option: String) -> String? {
        let parent = PathText.folder(of: path)
        let folder = parent.isEmpty ? "." : parent
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            return "\(option) \(path): the folder \(folder) does not exist; create it first"
        }
        guard FileManager.default.isWritableFile(atPath: folder) else { return "\(option) \(path): the folder \(folder) is not writable" }
        return nil
    }
}

/// Experiment and metrics files, loaded for a use case.
enum Definitions {
    /// Loads and validates the experiments in `paths`; any error fails with every problem found.
    static func experiments(paths: [String], registry: FeatureRegistry) throws -> ExperimentSet {
        let validation = ExperimentValidation.run(paths: paths, registry: registry)
        let problems = validation.diagnostics.map(\.description)
        if validation.errorCount > 0 {
            throw AppError("the experiments have \(validation.errorCount) error(s); fix them (see 'remix validate')", problems: problems)
        }
        return validation.experiments
    }

    /// The metric definitions: `file`, else those ``InputFiles/metrics(experiments:)`` finds for
    /// the experiments `folder` (a note says when they are not the folder's own). A problem in the
    /// file fails; a metric `named` that is not a key but is close to one is a warning (it is read
    /// as an event name). The experiments' own metric names are checked after an analysis
    /// (``Analyze``), with the events the log holds.
    static func metrics(_ file: String?, folder: String, named: [String], _ context: AppContext) throws -> MetricCatalog {
        let found = file == nil ? InputFiles.metrics(experiments: folder) : InputFiles.Metrics(path: file)
        if let note = found.note { context.notify(.note(note)) }
        guard let path = found.path else { return MetricCatalog() }
        let (catalog, problems) = MetricsFileParser.load(path)
        if !problems.isEmpty {
            throw AppError("\(path) has \(problems.count) problem(s); fix them (or pass --metrics FILE)", problems: problems.map(\.description))
        }
        var seen = Set<String>()
        for name in named where seen.insert(name).inserted && catalog[name] == nil {
            if let near = NameSuggestion.nearest(to: name, among: catalog.keys), name.contains("-") {
                context.warn("metric '\(name)' is not a key of \(path), so it is read as the event '\(name)'; did you mean '\(near)'?")
            }
        }
        return catalog
    }

    /// The experiment definitions in `folder` by key, each file with an error left out (a warning
    /// says so, ending with `without`); none when the folder is missing.
    static func lenient(folder: String, without: String, _ context: AppContext) -> [String: ExperimentDefinition] {
        guard FileManager.default.fileExists(atPath: folder) else { return [:] }
        let (set, problems) = ExperimentSet.load(paths: [folder])
        for problem in problems where problem.severity == .error { context.warn("\(problem) (\(without))") }
        return Dictionary(set.definitions.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// "--metric 'NAME' is not a key of FILE and WHY; did you mean …?", the nearest of the file's keys
/// and `events`.
func unknownMetric(_ name: String, catalog: MetricCatalog, events: [String], because why: String) -> String {
    let nearest = NameSuggestion.nearest(to: name, among: catalog.keys + events).map { "; did you mean '\($0)'?" } ?? ""
    return "--metric '\(name)' is not a key of " + (catalog.file ?? "a metrics file") + " and \(why)\(nearest)"
}
