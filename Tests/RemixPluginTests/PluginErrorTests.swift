import Foundation
import RemixBuiltIns
import RemixTestSupport
import RemixHost
import RemixKit
import Testing

/// Bad plugins are refused with one clear line naming the file, and leave the registry as it was.
/// (Libraries that are not plugins are opened only by the `remix` tests, in their own process.)
@Suite struct PluginErrorTests {
    @Test func aMissingFileIsNotFound() throws {
        let registry = try BuiltInModules.registry()
        let error = #expect(throws: PluginError.self) {
            try PluginLoader.load(["/nonexistent/libNope.so"], into: registry)
        }
        #expect(error == .notFound(path: "/nonexistent/libNope.so"))
        #expect(error?.description == "plugin /nonexistent/libNope.so: no such file or directory")
    }

    @Test func aTextFileIsNotASharedLibrary() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("libNotes.so", "just some notes\n")
        let error = #expect(throws: PluginError.self) {
            try PluginLoader.load([file], into: try BuiltInModules.registry())
        }
        #expect(error == .notSharedLibrary(path: file))
        #expect(error?.description.hasPrefix("plugin \(file): not a shared library") == true)
    }

    @Test func aFolderNamesItsBadFileAndAnEmptyFolderLoadsNothing() throws {
        let folder = try TemporaryFolder()
        #expect(try PluginLoader.load([folder.location], into: try BuiltInModules.registry()).isEmpty)
        try folder.write("README.txt", "not a library, not looked at\n")
        #expect(try PluginLoader.pluginFiles(in: [folder.location]).isEmpty)
        let file = try folder.write("libBroken.so", "")
        let error = #expect(throws: PluginError.self) {
            try PluginLoader.load([folder.location], into: try BuiltInModules.registry())
        }
        #expect(error == .notSharedLibrary(path: file))
    }

    @Test func aPluginLoadedTwiceIsRefusedAsAnAlreadyLoadedModule() throws {
        let registry = try Build.registryWithPlugin()
        let modules = registry.modules
        let error = #expect(throws: PluginError.self) { try PluginLoader.load([Build.plugin], into: registry) }
        #expect(error == .nameTaken(path: Build.plugin, reason: "module 'QuickInsertionPlugin' is already loaded"))
        #expect(error?.description == "plugin \(Build.plugin): refused: module 'QuickInsertionPlugin' is already loaded")
        #expect(registry.modules == modules)
    }

    // MARK: The entry-point helper, as a plugin's entry point calls it

    @Test func theHelperRefusesAnotherABIAndRegistersNothing() throws {
        let registry = try BuiltInModules.registry()
        let registration = PluginRegistration(registry: registry, origin: "/plugins/libOld.so")
        let status = RemixPlugin.register(testPlugin(), registration: registration.opaquePointer,
                                          hostABI: RemixPluginABI.version, pluginABI: RemixPluginABI.version + 1)
        #expect(status == RemixPluginStatus.abiMismatch.rawValue)
        #expect(registration.pluginABI == RemixPluginABI.version + 1)
        #expect(registration.module == nil)
        #expect(registration.failure?.contains("built for plugin ABI \(RemixPluginABI.version + 1)") == true)
        #expect(registration.failure?.contains("this host speaks ABI \(RemixPluginABI.version)") == true)
        #expect(!registry.modules.contains { $0.name == "TestPlugin" })
    }

    @Test func theHelperRegistersWithThePluginPathAsOrigin() throws {
        let registry = try BuiltInModules.registry()
        let registration = PluginRegistration(registry: registry, origin: "/plugins/libTest.so")
        let status = RemixPlugin.register(testPlugin(), registration: registration.opaquePointer,
                                          hostABI: RemixPluginABI.version)
        #expect(status == RemixPluginStatus.registered.rawValue)
        #expect(registration.pluginABI == RemixPluginABI.version)
        #expect(registration.module == "TestPlugin")
        #expect(registry.modules.last?.origin == "/plugins/libTest.so")
        #expect(try registry.feature(named: "TestFeature").module == "TestPlugin")
    }

    @Test func theHelperNeedsARegistration() {
        #expect(RemixPlugin.register(testPlugin(), registration: nil, hostABI: RemixPluginABI.version)
                == RemixPluginStatus.noRegistration.rawValue)
    }

    // MARK: The loader's answer to each status, through stand-in entry points

    @Test func anABIMismatchIsRefused() throws {
        let registry = try BuiltInModules.registry()
        let error = #expect(throws: PluginError.self) {
            try PluginLoader.register(entryPoint: EntryPoints.wrongABI, origin: "/plugins/libOld.so", into: registry)
        }
        let version = RemixPluginABI.version
        guard case .abiMismatch(let path, let pluginABI, let hostABI, _) = error else {
            Issue.record("expected an ABI mismatch, got \(String(describing: error))")
            return
        }
        #expect(path == "/plugins/libOld.so")
        #expect(pluginABI == version + 1)
        #expect(hostABI == version)
        #expect(error?.description == "plugin /plugins/libOld.so: ABI mismatch: the plugin was built for plugin ABI "
                + "\(version + 1) but this host speaks ABI \(version); rebuild the plugin against the host's RemixKit")
        #expect(!registry.modules.contains { $0.name == "TestPlugin" })
    }

    @Test(arguments: [
        ("feature", "feature 'ManualGroupInsertion' from module 'TestPlugin' is already registered by module 'Marketplace'; rename one of them"),
        ("app", "app 'marketplace' from module 'TestPlugin' is already registered by module 'Marketplace'; rename one of them"),
        ("module", "module 'Marketplace' is already loaded"),
    ])
    func aNameThatIsAlreadyRegisteredIsRefused(kind: String, message: String) throws {
        let registry = try BuiltInModules.registry()
        let before = (registry.modules, registry.features.map(\.name), registry.apps.map(\.name))
        let error = #expect(throws: PluginError.self) {
            try PluginLoader.register(entryPoint: EntryPoints.clashing(kind), origin: "/plugins/libClash.so", into: registry)
        }
        #expect(error?.description == "plugin /plugins/libClash.so: refused: \(message)")
        #expect(registry.modules == before.0)
        #expect(registry.features.map(\.name) == before.1)
        #expect(registry.apps.map(\.name) == before.2)
    }

    @Test func aRegistrationThatThrowsFailsOnOneLine() throws {
        let registry = try BuiltInModules.registry()
        let error = #expect(throws: PluginError.self) {
            try PluginLoader.register(entryPoint: EntryPoints.throwing, origin: "/plugins/libBad.so", into: registry)
        }
        #expect(error?.description == "plugin /plugins/libBad.so: registration failed: module 'TestPlugin' failed "
                + "to register: the catalog file is missing; (second line)")
        #expect(!registry.modules.contains { $0.name == "TestPlugin" })
    }

    @Test func anUnknownStatusIsAnError() throws {
        let error = #expect(throws: PluginError.self) {
            try PluginLoader.register(entryPoint: EntryPoints.unknownStatus, origin: "/plugins/libOdd.so",
                                      into: try BuiltInModules.registry())
        }
        #expect(error == .unexpectedStatus(path: "/plugins/libOdd.so", status: 42))
    }
}

/// Stand-in entry points, as plugins would write them, for each way a registration can end.
enum EntryPoints {
    static let wrongABI: PluginLoader.EntryPoint = { registration, hostABI in
        RemixPlugin.register(testPlugin(), registration: registration, hostABI: hostABI, pluginABI: hostABI + 1)
    }
    static let takenFeature: PluginLoader.EntryPoint = { registration, hostABI in
        RemixPlugin.register(testPlugin(feature: "ManualGroupInsertion"), registration: registration, hostABI: hostABI)
    }
    static let takenApp: PluginLoader.EntryPoint = { registration, hostABI in
        RemixPlugin.register(testPlugin(app: "marketplace"), registration: registration, hostABI: hostABI)
    }
    static let takenModule: PluginLoader.EntryPoint = { registration, hostABI in
        RemixPlugin.register(testPlugin(name: "Marketplace"), registration: registration, hostABI: hostABI)
    }
    static let throwing: PluginLoader.EntryPoint = { registration, hostABI in
        RemixPlugin.register(testPlugin(fails: true), registration: registration, hostABI: hostABI)
    }
    static let unknownStatus: PluginLoader.EntryPoint = { _, _ in 42 }

    /// The entry point for a clash of `kind` (feature, app or module).
    static func clashing(_ kind: String) -> PluginLoader.EntryPoint {
        switch kind {
        case "feature": takenFeature
        case "app": takenApp
        default: takenModule
        }
    }
}

/// Files that would block when read are never opened as plugins.
@Suite struct PluginSpecialFileTests {
    @Test func aFIFONamedLikeALibraryIsSkippedInAFolderAndRefusedByName() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.path("libWaiting.so")
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(try PluginLoader.pluginFiles(in: [folder.location]).isEmpty, "not a regular file: not a candidate")
        #expect(try PluginLoader.load([folder.location], into: try BuiltInModules.registry()).isEmpty)
        let error = #expect(throws: PluginError.self) {
            try PluginLoader.load([fifo], into: try BuiltInModules.registry())
        }
        #expect(error == .notSharedLibrary(path: fifo))
    }
}
