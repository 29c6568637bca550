/// How to make a feature, registered by name.
///
/// Its parts sit in one shared immutable box: every session looks descriptors up and copies them
/// several times, and a copy is then one reference instead of one per part.
public struct FeatureDescriptor: Sendable {
    private final class Parts: Sendable {
        let name: String
        let summary: String
        let role: String?
        let parameters: [ParameterSpec]
        let events: [DomainEventSpec]
        let module: String
        let factory: @Sendable (FeatureContext) throws -> any Feature
        let defaults: FeatureParameters

        init(
            name: String, summary: String, role: String?, parameters: [ParameterSpec], events: [DomainEventSpec],
            module: String, factory: @escaping @Sendable (FeatureContext) throws -> any Feature,
            defaults: FeatureParameters
        ) {
            self.name = name
            self.summary = summary
            self.role = role
            self.parameters = parameters
            self.events = events
            self.module = module
            self.factory = factory
            self.defaults = defaults
        }
    }

    private var parts: Parts

    /// The unique name experiment files and apps use, e.g. `ManualGroupInsertion`.
    public var name: String { parts.name }
    /// One line saying what the feature does.
    public var summary: String { parts.summary }
    /// The kind of slot the feature can fill (e.g. `insertion`), or nil if it fills none.
    public var role: String? { parts.role }
    /// The parameters the feature takes.
    public var parameters: [ParameterSpec] { parts.parameters }
    /// The domain events the feature (with the sub-flows it runs) can emit.
    public var events: [DomainEventSpec] { parts.events }
    /// The module that registered it (set on registration).
    public internal(set) var module: String {
        get { parts.module }
        set {
            parts = Parts(
                name: parts.name, summary: parts.summary, role: parts.role, parameters: parts.parameters,
                events: parts.events, module: newValue, factory: parts.factory, defaults: parts.defaults)
        }
    }

    /// Describes a feature and how to make it.
    public init(
        name: String, summary: String, role: String? = nil, parameters: [ParameterSpec] = [],
        events: [DomainEventSpec] = [], make: @escaping @Sendable (FeatureContext) throws -> any Feature
    ) {
        // The parameters when none are given (every default), checked once rather than per
        // session. Defaults alone always pass the checks; `.none` is never used.
        let defaults = (try? FeatureParameters(feature: name, specs: parameters)) ?? .none
        parts = Parts(
            name: name, summary: summary, role: role, parameters: parameters, events: events, module: "",
            factory: make, defaults: defaults)
    }

    /// Makes the feature for one session with checked parameter values.
    public func make(in session: SessionEnvironment, parameters given: [String: ParameterValue] = [:]) throws -> any Feature {
        let parts = self.parts
        let checked = given.isEmpty ? parts.defaults : try FeatureParameters(feature: parts.name, specs: parts.parameters, given: given)
        return try parts.factory(FeatureContext(session: session, feature: parts.name, parameters: checked))
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
///
/// Its parts sit in one shared immutable box, as a ``FeatureDescriptor``'s do: each session
/// looks its app up and copies it.
public struct AppDefinition: Sendable {
    private final class Parts: Sendable {
        let name: String
        let summary: String
        let platforms: [String]
        let slots: [SlotDefinition]
        let attributes: [String]
        let serviceParameters: [ServiceParameterSpec]
        let renamedScreens: [ScreenRename]
        let defaultMetric: String?
        let module: String
        let factory: @Sendable (SessionEnvironment) throws -> any AppRoot
        let applySettings: (@Sendable (SessionEnvironment, ServiceSettings) -> Void)?

        init(
            name: String, summary: String, platforms: [String], slots: [SlotDefinition], attributes: [String],
            serviceParameters: [ServiceParameterSpec], renamedScreens: [ScreenRename], defaultMetric: String?, module: String,
            factory: @escaping @Sendable (SessionEnvironment) throws -> any AppRoot,
            applySettings: (@Sendable (SessionEnvironment, ServiceSettings) -> Void)?
        ) {
            self.name = name
            self.summary = summary
            self.platforms = platforms
            self.slots = slots
            self.attributes = attributes
            self.serviceParameters = serviceParameters
            self.renamedScreens = renamedScreens
            self.defaultMetric = defaultMetric
            self.module = module
            self.factory = factory
            self.applySettings = applySettings
        }
    }

    private var parts: Parts

    /// The app's name on the command line, e.g. `marketplace`.
    public var name: String { parts.name }
    /// One line saying what the app is.
    public var summary: String { parts.summary }
    /// Platforms the app supports; the first is the default.
    public var platforms: [String] { parts.platforms }
    /// The app's slots.
    public var slots: [SlotDefinition] { parts.slots }
    /// Session attributes the app defines for targeting, e.g. `id`, `platform`, `appVersion`.
    public var attributes: [String] { parts.attributes }
    /// Service behaviours a simulation may set (population files' `services:`).
    public var serviceParameters: [ServiceParameterSpec] { parts.serviceParameters }
    /// Screens that once shared a name with another, so that files written before (population
    /// `abandon` keys) can be pointed to the new names.
    public var renamedScreens: [ScreenRename] { parts.renamedScreens }
    /// The event that tells whether a session did what the app is for (Marketplace:
    /// `advert_published`): the metric an analysis or a check reports when no experiment file and
    /// no option names one. Nil: the app has none, and a metric must be named.
    public var defaultMetric: String? { parts.defaultMetric }
    /// The module that registered it (set on registration).
    public internal(set) var module: String {
        get { parts.module }
        set {
            parts = Parts(
                name: parts.name, summary: parts.summary, platforms: parts.platforms, slots: parts.slots,
                attributes: parts.attributes, serviceParameters: parts.serviceParameters,
                renamedScreens: parts.renamedScreens, defaultMetric: parts.defaultMetric, module: newValue,
                factory: parts.factory, applySettings: parts.applySettings)
        }
    }

    /// Describes an app and how to make its root for a session. `serviceParameters` and
    /// `configureServices` let a simulation set how the app's services behave: the latter runs
    /// after the root is made (so its services are registered) and before the app starts.
    public init(
        name: String, summary: String, platforms: [String], slots: [SlotDefinition] = [],
        attributes: [String] = ["id", "platform"], serviceParameters: [ServiceParameterSpec] = [],
        renamedScreens: [ScreenRename] = [], defaultMetric: String? = nil,
        configureServices: (@Sendable (SessionEnvironment, ServiceSettings) -> Void)? = nil,
        make: @escaping @Sendable (SessionEnvironment) throws -> any AppRoot
    ) {
        parts = Parts(
            name: name, summary: summary, platforms: platforms, slots: slots, attributes: attributes,
            serviceParameters: serviceParameters, renamedScreens: renamedScreens, defaultMetric: defaultMetric, module: "",
            factory: make,
            applySettings: configureServices)
    }

    /// Applies simulated service behaviour to a session whose root is made.
    public func configureServices(in session: SessionEnvironment, _ settings: ServiceSettings) {
        parts.applySettings?(session, settings)
    }

    /// The slot of that name, if the app has one.
    public func slot(named name: String) -> SlotDefinition? { parts.slots.first { $0.name == name } }

    /// Makes the app's root for a session.
    public func make(in session: SessionEnvironment) throws -> any AppRoot { try parts.factory(session) }
}

/// A screen that was given a name of its own, having shared one with another screen: files written
/// before that name `formerName` for both.
public struct ScreenRename: Sendable, Equatable {
    /// The name both screens had (and the other one keeps).
    public let formerName: String
    /// The screen's own name now.
    public let screen: String
    /// What the screen is, for messages (e.g. "the advert list's filter picker").
    public let summary: String

    /// Declares that `screen` was called `formerName` too.
    public init(formerName: String, screen: String, summary: String) {
        self.formerName = formerName
        self.screen = screen
        self.summary = summary
    }
}
