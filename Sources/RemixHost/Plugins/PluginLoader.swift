import Foundation
import RemixKit
import RemixSystem

/// A plugin that was loaded and registered.
package struct LoadedPlugin: Sendable, Equatable, CustomStringConvertible {
    /// The plugin's file.
    package let path: String
    /// The name of the module it registered.
    package let module: String
    /// Opening the library and finding its entry point.
    package let loadTime: Duration
    /// Running the entry point: the ABI check and the module's registration.
    package let registerTime: Duration

    package var description: String {
        "plugin \(path): module \(module) loaded in \(String(format: "%.2f", loadTime.milliseconds)) ms, "
            + "registered in \(String(format: "%.2f", registerTime.milliseconds)) ms"
    }
}

/// Loads feature modules from shared libraries at run time (docs/plugins.md).
///
/// Each plugin is opened with `dlopen(RTLD_NOW | RTLD_LOCAL)`; its one C entry point
/// (``RemixPluginABI/entryPoint``) receives a ``PluginRegistration`` and the host's plugin ABI
/// version, checks the ABI and registers the plugin's module with the plugin's path as origin.
/// Libraries are never closed: their types and closures live in the registry until the process ends.
///
/// Memory safety: the entry point is the symbol `dlsym` found under the ABI's name, called with the
/// C signature the ABI fixes (``EntryPoint``); the library stays loaded, so its code outlives the
/// call, and the registration it is handed lives until the call returns.
package enum PluginLoader {
    /// The C type of a plugin's entry point: `int32_t (void *registration, int32_t hostABI)`.
    package typealias EntryPoint = @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32

    /// The environment variable that lists plugins and plugin folders, separated by colons.
    package static let environmentVariable = "REMIX_PLUGIN_PATH"

    #if canImport(Darwin)
    /// The file extension of shared libraries on this platform.
    package static let libraryExtension = "dylib"
    #else
    /// The file extension of shared libraries on this platform.
    package static let libraryExtension = "so"
    #endif

    /// The host's own shared libraries, skipped when a folder (e.g. the build folder) is scanned.
    package static var hostLibraries: Set<String> {
        Set(["RemixKit", "RemixYAML", "RemixFeatures"].map { "lib\($0).\(libraryExtension)" })
    }

    /// The plugin paths to load: those in the environment variable, then `options` (e.g. `--plugins`).
    package static func requestedPaths(
        options: [String], environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String] {
        let listed = (environment[environmentVariable] ?? "").split(separator: ":").map(String.init)
        return (listed + options).filter { !$0.isEmpty }
    }

    /// The plugin files `paths` name, as absolute paths: a file as it is, a folder's shared
    /// libraries in name order (without the host's own). A file named twice is loaded once.
    package static func pluginFiles(in paths: [String]) throws(PluginError) -> [String] {
        var files: [String] = []
        var seen = Set<String>()
        for path in paths {
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
            guard FileManager.default.fileExists(atPath: absolute) else { throw .notFound(path: absolute) }
            var candidates = [absolute]
            if isFolder(at: absolute) {
                let names: [String]
                do {
                    names = try FileManager.default.contentsOfDirectory(atPath: absolute)
                } catch {
                    throw .cannotLoad(path: absolute, reason: "cannot read the folder")
                }
                candidates = names.filter { $0.hasSuffix("." + libraryExtension) && !hostLibraries.contains($0) }
                    .sorted().map { absolute + "/" + $0 }.filter(isRegularFile)
            }
            for file in candidates where seen.insert(fileIdentity(file)).inserted {
                files.append(file)
            }
        }
        return files
    }

    /// Loads every plugin `paths` name (see ``pluginFiles(in:)``) into `registry`, in order; the
    /// first failure stops loading.
    @discardableResult
    package static func load(_ paths: [String], into registry: FeatureRegistry) throws(PluginError) -> [LoadedPlugin] {
        var loaded: [LoadedPlugin] = []
        for file in try pluginFiles(in: paths) {
            loaded.append(try load(file: file, into: registry))
        }
        return loaded
    }

    /// Loads the plugin at `path` into `registry`.
    package static func load(file path: String, into registry: FeatureRegistry) throws(PluginError) -> LoadedPlugin {
        let clock = ContinuousClock()
        let started = clock.now
        guard FileManager.default.fileExists(atPath: path) else { throw .notFound(path: path) }
        // A FIFO or device would block or never end when read: only regular files are libraries.
        guard isRegularFile(path), hasLibraryHeader(path) else { throw .notSharedLibrary(path: path) }
        // Never closed (see the type's documentation).
        guard let handle = unsafe dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            throw .cannotLoad(path: path, reason: lastLoaderError())
        }
        let symbolName = RemixPluginABI.entryPoint
        guard let symbol = unsafe dlsym(handle, symbolName) else {
            throw .missingEntryPoint(path: path, symbol: symbolName, foundIn: nil)
        }
        // dlsym also searches the library's dependencies: the symbol must be the plugin's own.
        if let owner = unsafe LoadedObjects.file(containing: symbol), fileIdentity(owner) != fileIdentity(path) {
            throw .missingEntryPoint(path: path, symbol: symbolName, foundIn: owner)
        }
        let opened = clock.now
        let module = unsafe try register(entryPoint: unsafeBitCast(symbol, to: EntryPoint.self), origin: path, into: registry)
        return LoadedPlugin(path: path, module: module, loadTime: opened - started, registerTime: clock.now - opened)
    }

    /// Runs a plugin entry point against `registry`, recording `origin` as the module's origin,
    /// and returns the registered module's name. Also usable for plugins linked into a custom host.
    package static func register(
        entryPoint: EntryPoint, origin: String, into registry: FeatureRegistry
    ) throws(PluginError) -> String {
        let registration = PluginRegistration(registry: registry, origin: origin)
        let status = unsafe entryPoint(registration.opaquePointer, RemixPluginABI.version)
        let reason = registration.failure ?? "the plugin gave no reason"
        switch RemixPluginStatus(rawValue: status) {
        case .registered:
            guard let module = registration.module, let info = registry.modules.last(where: { $0.name == module }) else {
                throw .registrationFailed(path: origin, reason: "the entry point reported success but registered no module")
            }
            guard info.remixKit == RemixKitInstance.shared.id else {
                throw .privateRemixKit(path: origin, module: module)
            }
            return module
        case .abiMismatch:
            throw .abiMismatch(path: origin, pluginABI: registration.pluginABI, hostABI: RemixPluginABI.version,
                               reason: reason)
        case .nameTaken:
            throw .nameTaken(path: origin, reason: reason)
        case .registrationFailed, .noRegistration:
            throw .registrationFailed(path: origin, reason: reason)
        case nil:
            throw .unexpectedStatus(path: origin, status: status)
        }
    }

    private static func isFolder(at path: String) -> Bool {
        var isFolder: ObjCBool = false
        return unsafe FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// Whether `path` is (or links to) a regular file, not a folder, FIFO, socket or device.
    private static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return unsafe stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// Whether the file starts like a shared library of this platform (ELF or Mach-O).
    private static func hasLibraryHeader(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return true } // let dlopen explain
        defer { try? handle.close() }
        let magic = [UInt8]((try? handle.read(upToCount: 4)) ?? Data())
        #if canImport(Darwin)
        let known: [[UInt8]] = [[0xCF, 0xFA, 0xED, 0xFE], [0xCE, 0xFA, 0xED, 0xFE], [0xCA, 0xFE, 0xBA, 0xBE]]
        return known.contains(magic)
        #else
        return magic == [0x7F, 0x45, 0x4C, 0x46]
        #endif
    }

    /// Device and inode, so two names of one file compare equal; the path if the file cannot be read.
    private static func fileIdentity(_ path: String) -> String {
        var status = stat()
        guard unsafe stat(path, &status) == 0 else { return path }
        return "\(status.st_dev):\(status.st_ino)"
    }

    private static func lastLoaderError() -> String {
        guard let message = unsafe dlerror() else { return "unknown dynamic loader error" }
        return unsafe String(cString: message)
    }
}

extension Duration {
    /// The duration in milliseconds.
    var milliseconds: Double {
        seconds * 1000
    }
}
