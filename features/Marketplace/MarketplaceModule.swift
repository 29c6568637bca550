import Classifieds
import Foundation
import RemixKit
import RemixYAML

/// Marketplace: browse, filter and insert classified adverts, with three interchangeable
/// insertion flows for the `insertion` slot.
public struct MarketplaceModule: FeatureModule {
    public let name = "Marketplace"
    public let summary = "Classified adverts: discovery on phone and tablet, filtering, three insertion flows"
    /// The name of Marketplace's insertion slot.
    public static let insertionSlot = "insertion"
    private let catalogURL: URL?

    /// Makes the module; `catalogURL` replaces the bundled catalog file.
    public init(catalogURL: URL? = nil) {
        self.catalogURL = catalogURL
    }

    /// The bundled catalog file, if it can be found.
    public static var bundledCatalog: URL? {
        ResourceLocator.find("marketplace-catalog.yaml", bundle: "RemixFeatures_Marketplace.resources",
                             sourceFolder: "Marketplace")
    }

    public func register(into registrar: ModuleRegistrar) throws {
        guard let url = catalogURL ?? Self.bundledCatalog else {
            throw Diagnostic(SourceLocation(file: "marketplace-catalog.yaml", line: 1, column: 1), .error,
                             "cannot find Marketplace's catalog file; set REMIX_DATA_DIR to the folder holding it")
        }
        let catalog = try Catalog.load(contentsOf: url)
        for feature in Self.features { registrar.add(feature) }
        registrar.add(AppDefinition(
            name: "marketplace",
            summary: "Browse, filter and publish classified adverts",
            platforms: ["phone", "tablet"],
            slots: [SlotDefinition(name: Self.insertionSlot, role: InsertionRole.name,
                                   defaultFeature: "AlternatingInsertion",
                                   summary: "The flow that creates a new advert")],
            attributes: ["id", "platform", "appVersion", "country"],
            serviceParameters: Self.serviceParameters,
            renamedScreens: [ScreenRename(formerName: "groups", screen: MarketplaceScreens.filter,
                                          summary: "the advert list's filter picker")],
            defaultMetric: "advert_published",
            configureServices: Self.configure
        ) { session in
            try MarketplaceApp(session: session, catalog: catalog)
        })
    }

    /// How Marketplace's services can behave in a simulation.
    public static let serviceParameters: [ServiceParameterSpec] = [
        .chance("publishFailureRate", default: 0, summary: "Chance that one publish attempt fails on the service side",
                estimate: .share(of: "publish_failed", among: ["advert_published"])),
        .seconds("recommendationLatencySeconds", default: 2...2,
                 summary: "How long AutoGroupInsertion's group recommendation takes, drawn per session",
                 estimate: .secondsBefore(event: "group_recommended")),
    ]

    /// Applies simulated behaviour to a session's advert and recommendation services.
    @Sendable static func configure(_ session: SessionEnvironment, _ settings: ServiceSettings) {
        let failureRate = settings.chance("publishFailureRate")
        if failureRate > 0, let adverts = try? session.services.resolve(InMemoryAdvertService.self) {
            let random = settings.random
            adverts.failsPublish = { random.unit() < failureRate }
        }
        if let recommendations = try? session.services.resolve(KeywordGroupRecommendationService.self) {
            recommendations.delay = settings.drawDuration("recommendationLatencySeconds")
        }
    }
}

/// Marketplace in one session: the in-memory services filled from the catalog and the Discovery
/// coordinator for the session's platform.
final class MarketplaceApp: AppRoot {
    private let root: any AppRoot

    init(session: SessionEnvironment, catalog: Catalog) throws {
        let groups = InMemoryGroupService(groups: catalog.groups)
        let random = session.random
        let adverts = InMemoryAdvertService(adverts: catalog.adverts) { random.identifier() }
        let table = catalog.recommendations
            ?? RecommendationTable(rules: [], defaultGroupID: catalog.groups.first?.groupID ?? "")
        let recommendations = KeywordGroupRecommendationService(table: table, clock: session.clock)
        let services = session.services
        services.register(groups, as: (any GroupService).self)
        services.register(adverts, as: (any AdvertService).self)
        services.register(adverts, as: InMemoryAdvertService.self)
        services.register(recommendations, as: (any GroupRecommendationService).self)
        services.register(recommendations, as: KeywordGroupRecommendationService.self)
        let discovery = try session.makeFeature(named: "Discovery", as: DiscoveryFeature.self)
        root = session.platform == "tablet"
            ? discovery.makeSplitCoordinator(window: session.window)
            : discovery.makeNavigationCoordinator(window: session.window)
    }

    func start() {
        root.start()
    }
}

/// Marketplace's own screen names where a shared feature's screen is given one.
public enum MarketplaceScreens {
    /// The advert list's filter picker (Classifieds' group list, named apart from the insertion's `groups`).
    public static let filter = "filter"
}
