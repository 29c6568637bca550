import Synchronization

/// Every registered module, feature and app, by name. Filled once at start-up by built-in modules
/// and plugins, then shared read-only by all sessions (it is safe to use from any thread).
public final class FeatureRegistry: Sendable {
    private struct State {
        var modules: [ModuleInfo] = []
        var features: [String: FeatureDescriptor] = [:]
        var featureOrder: [String] = []
        var apps: [String: AppDefinition] = [:]
        var appOrder: [String] = []
    }

    private let state = Mutex(State())

    /// Makes an empty registry.
    public init() {}

    /// Registers a module's features and apps; on any error nothing of the module is added.
    public func register(_ module: any FeatureModule, origin: String = "built-in") throws {
        let registrar = ModuleRegistrar(module: module.name, registry: self)
        try module.register(into: registrar)
        let remixKit = module.remixKit.id
        try state.withLock { state throws(RegistryError) in
            if state.modules.contains(where: { $0.name == module.name }) {
                throw .duplicateModule(name: module.name)
            }
            var names = Set<String>()
            for feature in registrar.features {
                if let existing = state.features[feature.name] {
                    throw .duplicateFeature(name: feature.name, existingModule: existing.module, newModule: module.name)
                }
                if !names.insert(feature.name).inserted {
                    throw .duplicateFeature(name: feature.name, existingModule: module.name, newModule: module.name)
                }
            }
            var appNames = Set<String>()
            for app in registrar.apps {
                if let existing = state.apps[app.name] {
                    throw .duplicateApp(name: app.name, existingModule: existing.module, newModule: module.name)
                }
                if !appNames.insert(app.name).inserted {
                    throw .duplicateApp(name: app.name, existingModule: module.name, newModule: module.name)
                }
            }
            state.modules.append(ModuleInfo(
                name: module.name, summary: module.summary, origin: origin, remixKit: remixKit))
            for feature in registrar.features {
                state.features[feature.name] = feature
                state.featureOrder.append(feature.name)
            }
            for app in registrar.apps {
                state.apps[app.name] = app
                state.appOrder.append(app.name)
            }
        }
    }

    /// The loaded modules in load order.
    public var modules: [ModuleInfo] { state.withLock { $0.modules } }

    /// All features in registration order.
    public var features: [FeatureDescriptor] {
        state.withLock { state in state.featureOrder.compactMap { state.features[$0] } }
    }

    /// All apps in registration order.
    public var apps: [AppDefinition] {
        state.withLock { state in state.appOrder.compactMap { state.apps[$0] } }
    }

    /// The feature of that name; an unknown name lists the known ones and suggests the nearest.
    public func feature(named name: String) throws(RegistryError) -> FeatureDescriptor {
        try state.withLock { state throws(RegistryError) in
            guard let feature = state.features[name] else {
                throw .unknownFeature(name: name, known: state.featureOrder)
            }
            return feature
        }
    }

    /// The app of that name; an unknown name lists the known ones and suggests the nearest.
    public func app(named name: String) throws(RegistryError) -> AppDefinition {
        try state.withLock { state throws(RegistryError) in
            guard let app = state.apps[name] else { throw .unknownApp(name: name, known: state.appOrder) }
            return app
        }
    }

    /// Checks that a feature can fill a slot of an app.
    public func check(feature name: String, fills slotName: String, of appName: String) throws(RegistryError) {
        _ = try feature(named: name, filling: slot(slotName, of: appName))
    }

    /// The slot of that name of the app of that name; an unknown name lists the known ones.
    public func slot(_ slotName: String, of appName: String) throws(RegistryError) -> SlotDefinition {
        let app = try app(named: appName)
        guard let slot = app.slot(named: slotName) else {
            throw .unknownSlot(app: appName, slot: slotName, known: app.slots.map(\.name))
        }
        return slot
    }

    /// The features that can fill a slot of `role`, in registration order.
    public func fillers(role: String) -> [String] {
        features.filter { $0.role == role }.map(\.name)
    }

    /// The feature `name`, checked to fill `slot`, as sessions make it (features may catch the
    /// error): an unknown name is ``RegistryError/unknownFeature(name:known:)`` listing only the
    /// slot's fillers, a feature of another role ``RegistryError/wrongRole(feature:role:slot:expected:)``.
    public func feature(named name: String, filling slot: SlotDefinition) throws(RegistryError) -> FeatureDescriptor {
        guard let feature = state.withLock({ $0.features[name] }) else {
            throw .unknownFeature(name: name, known: fillers(role: slot.role))
        }
        guard feature.role == slot.role else {
            throw .wrongRole(feature: name, role: feature.role, slot: slot.name, expected: slot.role)
        }
        return feature
    }

    /// ``feature(named:filling:)`` for commands, which say an unknown name in the words of the slot
    /// of `app`: an ``UnknownFillerError`` (a plugin may provide it).
    public func filler(named name: String, for slot: SlotDefinition, of app: String) throws -> FeatureDescriptor {
        do {
            return try feature(named: name, filling: slot)
        } catch .unknownFeature(_, let fillers) {
            throw UnknownFillerError(feature: name, app: app, slot: slot.name, fillers: fillers)
        }
    }

    /// Problems with the registered apps: slot defaults that are unknown or cannot fill their slot.
    public func problems() -> [RegistryError] {
        var problems: [RegistryError] = []
        for app in apps {
            for slot in app.slots {
                do throws(RegistryError) {
                    try check(feature: slot.defaultFeature, fills: slot.name, of: app.name)
                } catch {
                    problems.append(error)
                }
            }
        }
        return problems
    }
}
