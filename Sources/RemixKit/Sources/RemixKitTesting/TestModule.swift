import RemixKit

/// A feature module made in a test: it registers the features and apps it is given — or, with a
/// `failure`, throws it, as a module whose registration fails does.
///
///     let registry = FeatureRegistry()
///     try registry.register(TestModule("Shop", features: [myFeature], apps: [myApp]))
public struct TestModule: FeatureModule {
    public var name: String
    public var summary: String
    public var features: [FeatureDescriptor]
    public var apps: [AppDefinition]
    /// Thrown by `register(into:)` when set.
    public var failure: (any Error & Sendable)?

    public init(_ name: String, summary: String = "a module made in a test", features: [FeatureDescriptor] = [],
                apps: [AppDefinition] = [], failure: (any Error & Sendable)? = nil) {
        self.name = name
        self.summary = summary
        self.features = features
        self.apps = apps
        self.failure = failure
    }

    public func register(into registrar: ModuleRegistrar) throws {
        if let failure { throw failure }
        for feature in features { registrar.add(feature) }
        for app in apps { registrar.add(app) }
    }
}

/// An app root that does nothing: the root of a test app whose slots are exercised on their own.
public final class EmptyRoot: AppRoot {
    public init() {}
    public func start() {}
}
