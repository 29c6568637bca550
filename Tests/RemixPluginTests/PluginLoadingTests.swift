import Foundation
import RemixBuiltIns
import RemixSystem
import Marketplace
import RemixHost
import RemixKit
import Testing

/// `swift test` builds the example plugin; the host loads it like any plugin, by path.
@Suite struct PluginLoadingTests {
    @Test func loadsTheExamplePluginAndRegistersItsFeatureByName() throws {
        let registry = try BuiltInModules.registry()
        let loaded = try PluginLoader.load([Build.plugin], into: registry)
        #expect(loaded.map(\.module) == ["QuickInsertionPlugin"])
        #expect(loaded.first?.path == Build.plugin)
        let module = try #require(registry.modules.last)
        #expect(module.name == "QuickInsertionPlugin")
        #expect(module.origin == Build.plugin)
        let feature = try registry.feature(named: "QuickInsertion")
        #expect(feature.role == InsertionRole.name)
        #expect(feature.module == "QuickInsertionPlugin")
        try registry.check(feature: "QuickInsertion", fills: MarketplaceModule.insertionSlot, of: "marketplace")
        #expect(registry.problems().isEmpty)
    }

    @Test func theListingShowsThePluginLikeABuiltInModule() throws {
        let listing = FeatureListing(registry: try Build.registryWithPlugin()).text
        #expect(listing.contains("QuickInsertionPlugin (\(Build.plugin))"))
        #expect(listing.contains("QuickInsertion [insertion] — Insert an advert on one screen"))
        #expect(listing.contains(
            "can be filled by: ManualGroupInsertion, AutoGroupInsertion, AlternatingInsertion, QuickInsertion"))
    }

    @Test func aFolderIsScannedForPluginsWithoutTheHostsOwnLibraries() throws {
        let files = try PluginLoader.pluginFiles(in: [Build.folder])
        #expect(files.contains(Build.plugin))
        for library in ["libRemixKit", "libRemixYAML", "libRemixFeatures"].map({ "\($0).\(PluginLoader.libraryExtension)" }) {
            #expect(FileManager.default.fileExists(atPath: Build.folder + "/" + library))
            #expect(!files.contains(Build.folder + "/" + library))
        }
    }

    @Test func aPluginNamedTwiceIsLoadedOnce() throws {
        let folderName = URL(fileURLWithPath: Build.folder).lastPathComponent
        let roundabout = Build.folder + "/../" + folderName + "/./libQuickInsertionPlugin.\(PluginLoader.libraryExtension)"
        let files = try PluginLoader.pluginFiles(in: [Build.plugin, Build.folder, roundabout])
        #expect(files.filter { $0.hasSuffix("/libQuickInsertionPlugin.\(PluginLoader.libraryExtension)") }.count == 1)
    }

    @Test func theEnvironmentVariableIsReadFirstAndSplitAtColons() {
        let paths = PluginLoader.requestedPaths(
            options: ["cli.so"], environment: [PluginLoader.environmentVariable: "a.so::plugins/"])
        #expect(paths == ["a.so", "plugins/", "cli.so"])
        #expect(PluginLoader.requestedPaths(options: [], environment: [:]).isEmpty)
    }

    @Test func loadAndRegisterTimesAreReported() throws {
        let registry = try BuiltInModules.registry()
        let plugin = try #require(try PluginLoader.load([Build.plugin], into: registry).first)
        #expect(plugin.loadTime >= .zero)
        #expect(plugin.registerTime > .zero)
        #expect(plugin.description.hasPrefix("plugin \(Build.plugin): module QuickInsertionPlugin loaded in "))
    }
}

/// The plugin layout of design.md §2: RemixKit and the built-in modules are shared libraries loaded
/// once, and a plugin's types are the host's types. A plugin that carried its own copy of RemixKit
/// or Marketplace would fail these tests instead of misbehaving silently.
@Suite struct PluginLayoutTests {
    @Test func aFeatureMadeByThePluginCastsToTheHostsProtocols() throws {
        let registry = try Build.registryWithPlugin()
        let session = try AppSession(app: "marketplace", registry: registry, chooser: FixedSlotChooser(
            fillers: [MarketplaceModule.insertionSlot: "QuickInsertion"]))
        let feature = try registry.feature(named: "QuickInsertion").make(in: session.environment)
        #expect(feature is any FlowFeature)
        let slot = try session.environment.slot(MarketplaceModule.insertionSlot)
        #expect(slot.featureName == "QuickInsertion")
        #expect(slot.use(as: (any FlowFeature).self) != nil)
    }

    @Test func theRemixKitSingletonIsShared() throws {
        let registry = try Build.registryWithPlugin()
        let plugin = try #require(registry.modules.first { $0.name == "QuickInsertionPlugin" })
        let marketplace = try #require(registry.modules.first { $0.name == "Marketplace" })
        #expect(plugin.remixKit == RemixKitInstance.shared.id)
        #expect(plugin.remixKit == marketplace.remixKit)
    }

    @Test func sharedLibrariesAreMappedOnce() throws {
        _ = try Build.registryWithPlugin()
        #expect(try mappedFiles(endingWith: "/libQuickInsertionPlugin.\(PluginLoader.libraryExtension)") == [Build.plugin])
        for library in ["libRemixKit", "libRemixFeatures", "libRemixYAML"].map({ "\($0).\(PluginLoader.libraryExtension)" }) {
            #expect(try mappedFiles(endingWith: "/" + library).count == 1, "\(library) mapped more than once")
        }
    }

    /// `nm -D` in a test: the plugin refers to RemixKit's and Marketplace's symbols but defines
    /// none of them; the dynamic loader finds them in the shared libraries.
    @Test(arguments: [
        ("$s8RemixKit15FeatureRegistryCMa", "libRemixKit.\(PluginLoader.libraryExtension)"),
        ("$s8RemixKit11FlowFeatureMp", "libRemixKit.\(PluginLoader.libraryExtension)"),
        ("$s11Marketplace19InsertionInteractorCMa", "libRemixFeatures.\(PluginLoader.libraryExtension)"),
        ("$s11Classifieds5GroupVMn", "libRemixFeatures.\(PluginLoader.libraryExtension)"),
        ("remix_plugin_register", "libQuickInsertionPlugin.\(PluginLoader.libraryExtension)"),
    ])
    func symbolsAreDefinedByTheSharedLibraries(symbol: String, library: String) throws {
        _ = try Build.registryWithPlugin()
        let handle = try #require(dlopen(Build.plugin, RTLD_NOW | RTLD_NOLOAD), "the plugin is not loaded")
        let address = try #require(dlsym(handle, symbol), "\(symbol) not found from the plugin")
        let file = try #require(LoadedObjects.file(containing: address))
        #expect(file.hasSuffix("/" + library), "\(symbol) comes from \(file)")
    }
}
