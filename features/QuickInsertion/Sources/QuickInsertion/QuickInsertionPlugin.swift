import Classifieds
import Marketplace
import RemixKit

/// The example run-time plugin: adds `QuickInsertion`, a third kind of flow for Marketplace's
/// `insertion` slot, without rebuilding the host. Load it with `--plugins` or `REMIX_PLUGIN_PATH`.
public struct QuickInsertionPlugin: FeatureModule {
    public let name = "QuickInsertionPlugin"
    public let summary = "Run-time plugin: a one-screen insertion flow for Marketplace"

    /// Makes the module.
    public init() {}

    public func register(into registrar: ModuleRegistrar) throws {
        registrar.add(FeatureDescriptor(
            name: "QuickInsertion",
            summary: "Insert an advert on one screen: type the title, pick a leaf group, publish",
            role: InsertionRole.name, events: InsertionEvents.publishing
        ) { context in
            let services = context.session.services
            return QuickInsertionFeature(
                groupService: try services.resolve((any GroupService).self),
                advertService: try services.resolve((any AdvertService).self), events: context.session.events)
        })
    }
}

/// The plugin's entry point, which the host finds by name (RemixPluginABI.entryPoint).
@_cdecl("remix_plugin_register")
public func remixPluginRegister(_ registration: UnsafeMutableRawPointer?, _ hostABI: Int32) -> Int32 {
    RemixPlugin.register(QuickInsertionPlugin(), registration: registration, hostABI: hostABI)
}
