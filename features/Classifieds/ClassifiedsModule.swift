import RemixKit

/// The pieces the classified-ads apps share, registered by name: the group selection feature.
public struct ClassifiedsModule: FeatureModule {
    public let name = "Classifieds"
    public let summary = "Group tree selection and item details shared by Marketplace and GroupBrowser"

    /// Makes the module.
    public init() {}

    public func register(into registrar: ModuleRegistrar) throws {
        registrar.add(FeatureDescriptor(
            name: "GroupSelection",
            summary: "Pick a leaf group by drilling down the group tree; Reset and back-to-cancel"
        ) { context in
            GroupSelectionFeature(groupService: try context.session.services.resolve((any GroupService).self))
        })
    }
}
