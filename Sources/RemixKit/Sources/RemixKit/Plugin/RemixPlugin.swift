/// The contract between a host and the feature plugins it loads at run time (docs/plugins.md).
///
/// A plugin is a shared library that exports one C function, ``entryPoint``:
///
/// ```c
/// int32_t remix_plugin_register(void *registration, int32_t hostABI);
/// ```
///
/// written in Swift as a three-line `@_cdecl` function that calls ``RemixPlugin/register(_:registration:hostABI:pluginABI:)``.
public enum RemixPluginABI {
    /// The plugin ABI version. It is compiled into the code that reads it (host and plugin each
    /// carry the number of the RemixKit they were built against), so a mismatch is detected when a
    /// plugin built against another RemixKit is loaded. Bump it whenever RemixKit's public
    /// interface changes in a way that breaks already-built plugins.
    @_alwaysEmitIntoClient public static var version: Int32 { 5 }

    /// The name of the C symbol every plugin exports.
    public static let entryPoint = "remix_plugin_register"
}

/// What a plugin's entry point returns.
public enum RemixPluginStatus: Int32, Sendable, CaseIterable {
    /// The plugin's module is registered.
    case registered = 0
    /// The plugin was built against a RemixKit with another plugin ABI; nothing was registered.
    case abiMismatch = 1
    /// A module, feature or app name of the plugin is already registered; nothing was registered.
    case nameTaken = 2
    /// The module's registration threw; nothing was registered.
    case registrationFailed = 3
    /// The entry point received no registration.
    case noRegistration = 4
}

/// One plugin being loaded: the registry it joins, where it comes from, and what went wrong.
/// The host passes it to the plugin's entry point as an opaque pointer.
public final class PluginRegistration {
    /// The registry the plugin's module joins.
    public let registry: FeatureRegistry
    /// The plugin's file, recorded as the module's origin.
    public let origin: String
    /// The plugin ABI the plugin was built with, once its entry point has run.
    public internal(set) var pluginABI: Int32?
    /// The name of the plugin's module, once its entry point has made it.
    public internal(set) var module: String?
    /// Why the registration failed, if it did.
    public internal(set) var failure: String?

    /// Prepares the registration of the plugin at `origin` into `registry`.
    public init(registry: FeatureRegistry, origin: String) {
        self.registry = registry
        self.origin = origin
    }

    /// The pointer to hand to the entry point; valid while this object is alive.
    public var opaquePointer: UnsafeMutableRawPointer { unsafe Unmanaged.passUnretained(self).toOpaque() }
}

/// The helper a plugin's entry point calls.
public enum RemixPlugin {
    /// Checks the ABI versions, then registers `module` into the registration's registry with the
    /// plugin's path as origin. Returns a ``RemixPluginStatus`` raw value; on failure the reason is
    /// in ``PluginRegistration/failure``. `pluginABI` defaults to the version the plugin is built
    /// with: leave it out.
    ///
    /// ```swift
    /// @_cdecl("remix_plugin_register")
    /// public func remixPluginRegister(_ registration: UnsafeMutableRawPointer?, _ hostABI: Int32) -> Int32 {
    ///     RemixPlugin.register(MyModule(), registration: registration, hostABI: hostABI)
    /// }
    /// ```
    public static func register(
        _ module: @autoclosure () -> any FeatureModule, registration pointer: UnsafeMutableRawPointer?,
        hostABI: Int32, pluginABI: Int32 = RemixPluginABI.version
    ) -> Int32 {
        guard let pointer = unsafe pointer else { return RemixPluginStatus.noRegistration.rawValue }
        let registration = unsafe Unmanaged<PluginRegistration>.fromOpaque(pointer).takeUnretainedValue()
        registration.pluginABI = pluginABI
        guard pluginABI == hostABI else {
            registration.failure = "the plugin was built for plugin ABI \(pluginABI) but this host speaks ABI \(hostABI); "
                + "rebuild the plugin against the host's RemixKit"
            return RemixPluginStatus.abiMismatch.rawValue
        }
        let module = module()
        registration.module = module.name
        do {
            try registration.registry.register(module, origin: registration.origin)
            return RemixPluginStatus.registered.rawValue
        } catch let error as RegistryError {
            registration.failure = error.description
            return (error.isNameTaken ? RemixPluginStatus.nameTaken : .registrationFailed).rawValue
        } catch {
            registration.failure = "module '\(module.name)' failed to register: \(error)"
            return RemixPluginStatus.registrationFailed.rawValue
        }
    }
}

extension RegistryError {
    /// Whether the error says a module, feature or app name is already registered.
    var isNameTaken: Bool {
        switch self {
        case .duplicateModule, .duplicateFeature, .duplicateApp: true
        default: false
        }
    }
}
