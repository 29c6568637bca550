import Classifieds
import Foundation
import RemixKit
import RemixYAML

/// GroupBrowser: the group tree as a browser, with each leaf group's description.
public struct GroupBrowserModule: FeatureModule {
    public let name = "GroupBrowser"
    public let summary = "Browse the group tree and read about each group"
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
            summary: "GroupBrowser root: group selection as a browser, leaf groups open in detail"
        ) { context in
            let session = context.session
            return GroupBrowserFeature(
                groupService: try session.services.resolve((any GroupService).self),
                groupSelection: try session.makeFeature(named: "GroupSelection", as: GroupSelectionFeature.self),
                events: session.events)
        })
        registrar.add(AppDefinition(
            name: "groupbrowser", summary: "Browse groups and read their descriptions",
            platforms: ["phone", "tablet"]
        ) { session in
            session.services.register(InMemoryGroupService(groups: catalog.groups), as: (any GroupService).self)
            return try session.makeFeature(named: "GroupBrowser", as: GroupBrowserFeature.self)
                .makeCoordinator(window: session.window)
        })
    }
}
