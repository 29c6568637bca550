import Foundation
import RemixBuiltIns
import RemixCLITestSupport
import RemixHost
import RemixKit
import RemixKitTesting
import RemixTestSupport
import Testing

/// Where the build put the host, its libraries and the example plugin: beside the test bundle.
enum Build {
    /// The build folder (e.g. `.build/debug`).
    static var folder: String { RemixProcess.buildFolder.path }

    /// The example plugin, built by `swift build` as the root package's `QuickInsertionPlugin` product.
    static var plugin: String { folder + "/libQuickInsertionPlugin." + PluginLoader.libraryExtension }

    /// The second example plugin, the root package's `WizardInsertionPlugin` product.
    static var wizardPlugin: String { folder + "/libWizardInsertionPlugin." + PluginLoader.libraryExtension }

    /// The repository root.
    static var root: URL { Repository.root }

    /// The experiments of the example plugins.
    static var experiments: String { root.appendingPathComponent("experiments/plugins").path }

    /// A registry with the built-in modules and the example plugin.
    static func registryWithPlugin() throws -> FeatureRegistry {
        try registry(loading: [plugin])
    }

    /// A registry with the built-in modules and the plugins at `paths`.
    static func registry(loading paths: [String]) throws -> FeatureRegistry {
        let registry = try BuiltInModules.registry()
        try PluginLoader.load(paths, into: registry)
        return registry
    }
}

/// Runs `remix` commands as a user would: in process, or — for plugins that must not be loaded
/// into the test process — as the built executable.
enum Remix {
    typealias Result = ProcessResult

    /// Runs `remix arguments` in process; `pluginPath` sets REMIX_PLUGIN_PATH (which is otherwise removed).
    static func run(_ arguments: [String], pluginPath: String? = nil, input: String = "") async -> Result {
        await RemixInProcess.run(arguments, environment: [PluginLoader.environmentVariable: pluginPath], input: input)
    }

    /// Runs the built `remix` from the repository root: for libraries that are no plugin, or a second
    /// copy of one, which would stay loaded in the test process.
    static func spawned(_ arguments: [String], pluginPath: String? = nil, input: String = "") throws -> Result {
        try RemixProcess.run(arguments, in: Build.root, environment: [PluginLoader.environmentVariable: pluginPath],
                             input: input)
    }
}

/// A module for exercising the entry-point helper: its names can clash with the built-in ones and
/// its registration can throw.
func testPlugin(name: String = "TestPlugin", feature: String = "TestFeature", app: String? = nil,
                fails: Bool = false) -> TestModule {
    TestModule(name, summary: "A module made by the plugin tests",
               features: [FeatureDescriptor(name: feature, summary: "A test feature") { _ in TestFeature() }],
               apps: app.map { [AppDefinition(name: $0, summary: "A test app", platforms: ["phone"]) { _ in EmptyRoot() }] } ?? [],
               failure: fails ? RegistrationFailure() : nil)
}

/// What a failing test plugin throws.
struct RegistrationFailure: Error, CustomStringConvertible {
    var description: String { "the catalog file is missing\n(second line)" }
}

final class TestFeature: Feature {}

/// The lines of /proc/self/maps naming a file whose name ends with `suffix`: the distinct paths
/// (Linux only; elsewhere empty).
func mappedFiles(endingWith suffix: String) throws -> Set<String> {
    #if os(Linux)
    let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
    let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    return Set(maps.split(separator: "\n").compactMap { line -> String? in
        guard let path = line.split(separator: " ", omittingEmptySubsequences: true).last,
              path.hasSuffix(suffix) else { return nil }
        return String(path)
    })
    #else
    return []
    #endif
}
