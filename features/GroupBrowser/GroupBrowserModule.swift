import Classifieds
import Foundation
import RemixKit
import RemixYAML

/// GroupBrowser: find a group — down the tree, or by name — and read its description.
public struct GroupBrowserModule: FeatureModule {
    public let name = "GroupBrowser"
    public let summary = "Find a group (tree or search) and read about it"
    /// The name of GroupBrowser's slot for how a person finds a group.
    public static let navigationSlot = "navigation"
    private let catalogURL: URL?

    /// Makes the module; `catalogURL` replaces the bundled catalog file.
    public init(catalogURL: URL? = nil) {
        self.catalogURL = catalogURL
    }

    /// The bundled catalog file, if it can be found.
    public static var bundledCatalog: URL? {
        ResourceLocator.find("groupbrowser-catalog.yaml", bundle: "RemixFeatures_GroupBrowser.resources",
                             sourceFolder: "GroupBrowser")
    }

    public func register(into registrar: ModuleRegistrar) throws {
        guard let url = catalogURL ?? Self.bundledCatalog else {
            throw Diagnostic(SourceLocation(file: "groupbrowser-catalog.yaml", line: 1, column: 1), .error,
                             "cannot find GroupBrowser's catalog file; set REMIX_DATA_DIR to the folder holding it")
        }
        let catalog = try Catalog.load(contentsOf: url)
        registrar.add(FeatureDescriptor(
            name: "GroupBrowser",
            summary: "GroupBrowser root: the navigation slot finds a leaf group, which opens in detail",
            events: [DomainEventSpec("group_viewed", fields: ["group"])]
        ) { context in
            let session = context.session
            return GroupBrowserFeature(
                groupService: try session.services.resolve((any GroupService).self),
                finder: try session.slot(Self.navigationSlot), events: session.events)
        })
        registrar.add(FeatureDescriptor(
            name: "TreeGroupFinder", summary: "Find a group by drilling down the group tree, level by level",
            role: GroupFinderRole.name
        ) { context in
            TreeGroupFinderFeature(
                groupSelection: try context.session.makeFeature(named: "GroupSelection", as: GroupSelectionFeature.self))
        })
        registrar.add(FeatureDescriptor(
            name: "SearchGroupFinder", summary: "Find a group by typing its name over a flat list of leaf groups",
            role: GroupFinderRole.name, events: [DomainEventSpec("group_search_missed", fields: ["query"]),
                                                           DomainEventSpec("group_found", fields: ["query", "group"])]
        ) { context in
            SearchGroupFinderFeature(groupService: try context.session.services.resolve((any GroupService).self),
                                     events: context.session.events)
        })
        registrar.add(AppDefinition(
            name: "groupbrowser", summary: "Find groups and read their descriptions",
            platforms: ["phone", "tablet"],
            slots: [SlotDefinition(name: Self.navigationSlot, role: GroupFinderRole.name,
                                   defaultFeature: "TreeGroupFinder", summary: "How a person finds a group")],
            defaultMetric: "group_viewed"
        ) { session in
            session.services.register(InMemoryGroupService(groups: catalog.groups), as: (any GroupService).self)
            return try session.makeFeature(named: "GroupBrowser", as: GroupBrowserFeature.self)
                .makeCoordinator(window: session.window)
        })
    }
}
