/// The one object each loaded copy of RemixKit makes: an identity probe for the plugin layout.
///
/// Host, built-in modules and plugins must share one RemixKit (a shared library loaded once). If a
/// plugin carried a private copy, its `RemixKitInstance.shared` would be a different object, and
/// casts across the boundary would fail silently. ``FeatureModule/remixKit`` reports the instance
/// a module's code sees; the host compares it with its own (docs/plugins.md).
public final class RemixKitInstance: Sendable {
    /// This copy of RemixKit's instance.
    public static let shared = RemixKitInstance()

    private init() {}

    /// The instance's identity, for comparisons.
    public var id: ObjectIdentifier { ObjectIdentifier(self) }
}
