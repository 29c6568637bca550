/// A module of features: it registers its features and apps by name. Built-in modules are linked
/// into the host; plugins are loaded from shared libraries at run time.
public protocol FeatureModule: Sendable {
    /// The module's name, e.g. `Marketplace`.
    var name: String { get }
    /// One line saying what the module offers.
    var summary: String { get }
    /// Adds the module's features and apps.
    func register(into registrar: ModuleRegistrar) throws
    /// The copy of RemixKit the module's code runs against. Keep the default: the host compares it
    /// with its own to catch a plugin that carries a private copy of RemixKit.
    var remixKit: RemixKitInstance { get }
}

extension FeatureModule {
    /// The RemixKit this module's code sees.
    public var remixKit: RemixKitInstance { .shared }
}

/// Collects one module's registrations so they are added all at once, or not at all.
public final class ModuleRegistrar {
    /// The module being registered.
    public let module: String
    private(set) var features: [FeatureDescriptor] = []
    private(set) var apps: [AppDefinition] = []
    /// The registry the module is joining, to read what is already there (e.g. to reuse a feature).
    public let registry: FeatureRegistry

    init(module: String, registry: FeatureRegistry) {
        self.module = module
        self.registry = registry
    }

    /// Adds a feature.
    public func add(_ feature: FeatureDescriptor) {
        var feature = feature
        feature.module = module
        features.append(feature)
    }

    /// Adds an app.
    public func add(_ app: AppDefinition) {
        var app = app
        app.module = module
        apps.append(app)
    }
}

/// What the registry knows about a registered module.
public struct ModuleInfo: Sendable, Equatable {
    /// The module's name.
    public let name: String
    /// One line saying what it offers.
    public let summary: String
    /// Where it came from: `built-in`, or the plugin's file path.
    public let origin: String
    /// The identity of the RemixKit the module's code sees (``RemixKitInstance``); it equals the
    /// host's unless the module carries a private copy of RemixKit.
    public let remixKit: ObjectIdentifier
}
