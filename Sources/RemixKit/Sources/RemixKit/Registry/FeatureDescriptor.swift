/// How to make a feature, registered by name.
public struct FeatureDescriptor: Sendable {
    /// The unique name experiment files and apps use, e.g. `ManualGroupInsertion`.
    public let name: String
    /// One line saying what the feature does.
    public let summary: String
    /// The kind of slot the feature can fill (e.g. `insertion`), or nil if it fills none.
    public let role: String?
    /// The parameters the feature takes.
    public let parameters: [ParameterSpec]
    /// The domain events the feature (with the sub-flows it runs) can emit.
    public let events: [DomainEventSpec]
    /// The module that registered it (set on registration).
    public internal(set) var module: String = ""
    private let factory: @Sendable (FeatureContext) throws -> any Feature
    /// The parameters when none are given (every default), checked once rather than per session.
    private let defaults: FeatureParameters

    /// Describes a feature and how to make it.
    public init(
        name: String, summary: String, role: String? = nil, parameters: [ParameterSpec] = [],
        events: [DomainEventSpec] = [], make: @escaping @Sendable (FeatureContext) throws -> any Feature
    ) {
        self.name = name
        self.summary = summary
        self.role = role
        self.parameters = parameters
        self.events = events
        self.factory = make
        // Defaults alone always pass the checks; `.none` is never used.
        defaults = (try? FeatureParameters(feature: name, specs: parameters)) ?? .none
    }

    /// Makes the feature for one session with checked parameter values.
    public func make(in session: SessionEnvironment, parameters given: [String: ParameterValue] = [:]) throws -> any Feature {
        let checked = given.isEmpty ? defaults : try FeatureParameters(feature: name, specs: parameters, given: given)
        return try factory(FeatureContext(session: session, feature: name, parameters: checked))
    }
}

/// A named place in an app that a feature fills, e.g. Marketplace's `insertion` slot.
public struct SlotDefinition: Sendable, Equatable {
    /// The slot's name, unique within its app.
    public let name: String
    /// The role a filler must have.
    public let role: String
    /// The feature that fills the slot when no experiment decides.
    public let defaultFeature: String
    /// What the slot is for.
    public let summary: String

    /// Declares a slot.
    public init(name: String, role: String, defaultFeature: String, summary: String) {
        self.name = name
        self.role = role
        self.defaultFeature = defaultFeature
        self.summary = summary
    }
}

/// The running root of an app in one session.
public protocol AppRoot: AnyObject {
    /// Shows the app's first screen.
    func start()
}

/// An app: its root, the platforms it runs on, its slots and the session attributes it defines.
public struct AppDefinition: Sendable {
    /// The app's name on the command line, e.g. `marketplace`.
    public let name: String
    /// One line saying what the app is.
    public let summary: String
    /// Platforms the app supports; the first is the default.
    public let platforms: [String]
    /// The app's slots.
    public let slots: [SlotDefinition]
    /// Session attributes the app defines for targeting, e.g. `id`, `platform`, `appVersion`.
    public let attributes: [String]
    /// Service behaviours a simulation may set (population files' `services:`).
    public let serviceParameters: [ServiceParameterSpec]
    /// The module that registered it (set on registration).
    public internal(set) var module: String = ""
    private let factory: @Sendable (SessionEnvironment) throws -> any AppRoot
    private let applySettings: (@Sendable (SessionEnvironment, ServiceSettings) -> Void)?

    /// Describes an app and how to make its root for a session. `serviceParameters` and
    /// `configureServices` let a simulation set how the app's services behave: the latter runs
    /// after the root is made (so its services are registered) and before the app starts.
    public init(
        name: String, summary: String, platforms: [String], slots: [SlotDefinition] = [],
        attributes: [String] = ["id", "platform"], serviceParameters: [ServiceParameterSpec] = [],
        configureServices: (@Sendable (SessionEnvironment, ServiceSettings) -> Void)? = nil,
        make: @escaping @Sendable (SessionEnvironment) throws -> any AppRoot
    ) {
        self.name = name
        self.summary = summary
        self.platforms = platforms
        self.slots = slots
        self.attributes = attributes
        self.serviceParameters = serviceParameters
        self.applySettings = configureServices
        self.factory = make
    }

    /// Applies simulated service behaviour to a session whose root is made.
    public func configureServices(in session: SessionEnvironment, _ settings: ServiceSettings) {
        applySettings?(session, settings)
    }

    /// The slot of that name, if the app has one.
    public func slot(named name: String) -> SlotDefinition? { slots.first { $0.name == name } }

    /// Makes the app's root for a session.
    public func make(in session: SessionEnvironment) throws -> any AppRoot { try factory(session) }
}
