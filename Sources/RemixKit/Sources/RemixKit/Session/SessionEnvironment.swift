/// Everything one session of an app shares: its window, clock, randomness, event sink, services
/// and the way its slots are filled. Features reach it through their ``FeatureContext``.
public final class SessionEnvironment {
    /// The app being run.
    public let app: AppDefinition
    /// The platform it runs on, e.g. `phone` or `tablet`.
    public let platform: String
    /// The session's screen.
    public let window: Window
    /// The session's clock.
    public let clock: any Clock
    /// The session's randomness.
    public let random: RandomSource
    /// Where features report domain events.
    public let events: any EventSink
    /// Every registered feature.
    public let registry: FeatureRegistry
    /// Services shared by the session's features, registered by the app's root.
    public let services = ServiceContainer()
    private let chooser: (any SlotChooser)?
    /// The slots made so far; an app has a handful, so a list searched by name.
    private var slots: [Slot] = []

    /// Makes a session environment. `chooser` decides slot fillers (nil: every slot gets its default).
    public init(
        app: AppDefinition, platform: String, registry: FeatureRegistry, clock: any Clock,
        random: RandomSource, events: any EventSink, chooser: (any SlotChooser)? = nil
    ) throws(RegistryError) {
        guard app.platforms.contains(platform) else {
            throw .unsupportedPlatform(app: app.name, platform: platform, known: app.platforms)
        }
        self.app = app
        self.platform = platform
        self.registry = registry
        self.clock = clock
        self.window = Window(clock: clock)
        self.random = random
        self.events = events
        self.chooser = chooser
    }

    /// The filled slot of that name, made on first request and then kept for the session.
    public func slot(_ name: String) throws -> Slot {
        if let slot = slots.first(where: { $0.name == name }) { return slot }
        guard let definition = app.slot(named: name) else {
            throw RegistryError.unknownSlot(app: app.name, slot: name, known: app.slots.map(\.name))
        }
        let choice = chooser?.choose(slot: definition, app: app)
            ?? SlotAssignment(feature: definition.defaultFeature)
        let feature = try registry.feature(named: choice.feature, filling: definition)
            .make(in: self, parameters: choice.parameters)
        let slot = Slot(name: name, featureName: choice.feature, feature: feature, onFirstUse: choice.onFirstUse)
        var list = slots.taken()
        list.append(slot)
        slots = list
        return slot
    }

    /// Makes a registered feature by name for this session, e.g. a sub-feature of a composite.
    /// Inlinable so that a caller's `T` is known where it is compiled: the cast to a class is then
    /// a class check, with no generic metadata to look up per feature made.
    @inlinable
    public func makeFeature<T>(named name: String, as type: T.Type, parameters: [String: ParameterValue] = [:]) throws -> T {
        let feature = try registry.feature(named: name).make(in: self, parameters: parameters)
        guard let typed = feature as? T else {
            throw RegistryError.featureKind(feature: name, expected: String(describing: type))
        }
        return typed
    }

    /// Makes a registered feature that can fill this app's slot `slot` (e.g. a flow a composite
    /// filler runs), checking that it can (``FeatureRegistry/feature(named:filling:)``).
    public func makeFeature<T>(named name: String, filling slot: String, as type: T.Type) throws -> T {
        let feature = try makeFeature(named: name, filling: slot)
        guard let typed = feature as? T else {
            throw RegistryError.featureKind(feature: name, expected: String(describing: type))
        }
        return typed
    }

    /// Makes a registered flow feature that can fill this app's slot `slot`, as
    /// ``makeFeature(named:filling:as:)`` does for `any FlowFeature`, without a cast
    /// (``Feature/asFlowFeature``).
    public func makeFlowFeature(named name: String, filling slot: String) throws -> any FlowFeature {
        let feature = try makeFeature(named: name, filling: slot)
        guard let flow = feature.asFlowFeature ?? feature as? any FlowFeature else {
            throw RegistryError.featureKind(feature: name, expected: String(describing: (any FlowFeature).self))
        }
        return flow
    }

    private func makeFeature(named name: String, filling slot: String) throws -> any Feature {
        guard let definition = app.slot(named: slot) else {
            throw RegistryError.unknownSlot(app: app.name, slot: slot, known: app.slots.map(\.name))
        }
        return try registry.feature(named: name, filling: definition).make(in: self)
    }
}

/// Decides which feature fills a slot in a session (the host's experiments do this).
public protocol SlotChooser: AnyObject {
    /// The feature for `slot`, or nil to use the slot's default.
    func choose(slot: SlotDefinition, app: AppDefinition) -> SlotAssignment?
}

/// The feature chosen for a slot, its parameters, and what to do when the slot is first used
/// (e.g. log an exposure).
public struct SlotAssignment {
    /// The feature's registered name.
    public let feature: String
    /// Its parameter values.
    public let parameters: [String: ParameterValue]
    /// Called once, when the slot's feature is first used.
    public let onFirstUse: (() -> Void)?

    /// Makes an assignment.
    public init(feature: String, parameters: [String: ParameterValue] = [:], onFirstUse: (() -> Void)? = nil) {
        self.feature = feature
        self.parameters = parameters
        self.onFirstUse = onFirstUse
    }
}

/// A slot filled for one session. Using it the first time reports the use (the exposure moment).
public final class Slot {
    /// The slot's name.
    public let name: String
    /// The name of the feature that fills it.
    public let featureName: String
    @usableFromInline let feature: any Feature
    @usableFromInline var onFirstUse: (() -> Void)?

    init(name: String, featureName: String, feature: any Feature, onFirstUse: (() -> Void)?) {
        self.name = name
        self.featureName = featureName
        self.feature = feature
        self.onFirstUse = onFirstUse
    }

    /// The filling feature as `T`, reporting the first use; nil if it is not a `T`. Inlinable so
    /// that the cast is compiled for the caller's `T`.
    @inlinable
    public func use<T>(as type: T.Type) -> T? {
        guard let typed = feature as? T else { return nil }
        if let report = onFirstUse {
            onFirstUse = nil
            report()
        }
        return typed
    }

    /// The filling feature as a ``FlowFeature``, reporting the first use; nil if it is none.
    /// ``use(as:)`` for `any FlowFeature`, without a cast (``Feature/asFlowFeature``).
    public func useFlowFeature() -> (any FlowFeature)? {
        guard let flow = feature.asFlowFeature ?? feature as? any FlowFeature else { return nil }
        if let report = onFirstUse {
            onFirstUse = nil
            report()
        }
        return flow
    }
}

/// The context a feature is made in: its session and its checked parameters.
public struct FeatureContext {
    /// The session.
    public let session: SessionEnvironment
    /// The feature's registered name.
    public let feature: String
    /// Its parameter values.
    public let parameters: FeatureParameters
}

/// Services shared within a session, looked up by their protocol type.
public final class ServiceContainer {
    /// A service kept as the type it was registered under, so that resolving it is a class cast
    /// rather than a cast from `Any` to a protocol (a conformance lookup per resolve).
    /// Inlinable, with the two methods below, so that `Entry<T>` is made for the caller's `T`
    /// where it is compiled, not looked up in the runtime's metadata cache on every call.
    @usableFromInline
    final class Entry<T> {
        @usableFromInline let service: T

        @usableFromInline
        init(_ service: T) {
            self.service = service
        }
    }

    /// The registered types and their entries, in registration order: an app registers a
    /// handful, and comparing a few type identities costs less than hashing one. Private, and
    /// changed in a copy taken out and put back (`Array.taken()`), so that its exclusive access is
    /// checked when RemixKit is compiled rather than at run time in the inlined callers.
    private var services: [(type: ObjectIdentifier, entry: AnyObject)] = []

    /// Makes an empty container.
    public init() {
        // Sized for the handful of services an app registers, so registering does not regrow it.
        var list = services.taken()
        list.reserveCapacity(8)
        services = list
    }

    /// The entry registered under `key`.
    @usableFromInline
    func entry(for key: ObjectIdentifier) -> AnyObject? {
        for service in services where service.type == key { return service.entry }
        return nil
    }

    /// Registers `entry` under `key`, replacing the one registered before.
    @usableFromInline
    func setEntry(_ entry: AnyObject, for key: ObjectIdentifier) {
        var list = services.taken()
        if let index = list.firstIndex(where: { $0.type == key }) {
            list[index].entry = entry
        } else {
            list.append((key, entry))
        }
        services = list
    }

    /// Registers `service` under `type` (usually a protocol), replacing one registered before.
    @inlinable
    public func register<T>(_ service: T, as type: T.Type) {
        setEntry(Entry(service), for: ObjectIdentifier(type))
    }

    /// The service registered under `type`.
    @inlinable
    public func resolve<T>(_ type: T.Type) throws -> T {
        // `register` stores an `Entry<T>` under `T`'s key only, so the entry found is an
        // `Entry<T>`: the class cast checks it and succeeds.
        guard let entry = entry(for: ObjectIdentifier(type)) as? Entry<T> else {
            throw ServiceError.missing(String(describing: type))
        }
        return entry.service
    }
}

/// A service a feature needs is not registered in the session.
public enum ServiceError: Error, Equatable, CustomStringConvertible {
    case missing(String)

    public var description: String {
        switch self {
        case .missing(let name): "no service \(name) is registered for this session; the app's root must register it"
        }
    }
}
