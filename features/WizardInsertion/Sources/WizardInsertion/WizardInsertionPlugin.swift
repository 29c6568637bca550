import Classifieds
import Marketplace
import RemixKit

/// The second example run-time plugin: adds `WizardInsertion`, a three-step flow for Marketplace's
/// `insertion` slot, without rebuilding the host. Load it with `--plugins` or `REMIX_PLUGIN_PATH`.
public struct WizardInsertionPlugin: FeatureModule {
    public let name = "WizardInsertionPlugin"
    public let summary = "Run-time plugin: a three-step insertion wizard for Marketplace"

    /// Makes the module.
    public init() {}

    public func register(into registrar: ModuleRegistrar) throws {
        registrar.add(FeatureDescriptor(
            name: "WizardInsertion",
            summary: "Insert an advert in three steps: type the title, drill down to a group, review and publish",
            role: InsertionRole.name, events: InsertionEvents.publishing
        ) { context in
            let services = context.session.services
            return WizardInsertionFeature(
                groupService: try services.resolve((any GroupService).self),
                advertService: try services.resolve((any AdvertService).self), events: context.session.events)
        })
    }
}

/// The plugin's entry point, which the host finds by name (RemixPluginABI.entryPoint).
@_cdecl("remix_plugin_register")
public func remixPluginRegister(_ registration: UnsafeMutableRawPointer?, _ hostABI: Int32) -> Int32 {
    RemixPlugin.register(WizardInsertionPlugin(), registration: registration, hostABI: hostABI)
}
