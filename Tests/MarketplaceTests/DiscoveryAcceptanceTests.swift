import Classifieds
import Marketplace
import RemixBuiltIns
import RemixHost
import RemixKit
import Testing

/// The seed's only FitNesse page, "Discovery": the list shows adverts with their group names, and
/// selecting an advert shows it in detail — pushed on phones, in the split detail on tablets.
@Suite("Discovery acceptance (seed FitNesse page)")
struct DiscoveryAcceptanceTests {
    /// Decision table "given these groups".
    static let givenGroups = [Group(groupID: "1", title: "Vehicles"), Group(groupID: "2", title: "Pets")]
    /// Decision table "given these adverts".
    static let givenAdverts = [
        Advert(advertID: "100", title: "Scrappy bike", description: "", groupID: "1"),
        Advert(advertID: "101", title: "Puppy", description: "", groupID: "2"),
    ]

    /// Discovery built from spies, as the seed's TestableDiscoveryFeatureFactory did; the slot comes
    /// from a throw-away session because only a session can fill one.
    struct Fixture {
        let services = Services(groups: DiscoveryAcceptanceTests.givenGroups,
                                adverts: DiscoveryAcceptanceTests.givenAdverts)
        let listView = AdvertListViewSpy()
        let detailView = ItemDetailViewSpy()
        let events = EventRecorder()
        let window = Window(clock: VirtualClock())
        let feature: DiscoveryFeature

        init() throws {
            let session = try AppSession(app: "marketplace", registry: BuiltInModules.registry())
            let listView = listView
            let detailView = detailView
            feature = DiscoveryFeature(dependencies: .init(
                advertService: services.adverts, groupService: services.groups,
                advertList: AdvertListFeature(advertService: services.adverts, groupService: services.groups,
                                              makeView: { listView }),
                groupSelection: GroupSelectionFeature(groupService: services.groups),
                insertion: try session.environment.slot("insertion"), events: events,
                makeDetailView: { detailView }))
        }
    }

    // MARK: Component level, with view spies

    @Test func listDisplaysAdvertsWithTheirGroupNames() {
        let services = Services(groups: Self.givenGroups, adverts: Self.givenAdverts)
        let view = AdvertListViewSpy()
        let window = Window(clock: VirtualClock())
        let navigation = window.makeNavigation()
        window.setRoot(navigation)
        let coordinator = AdvertListFeature(advertService: services.adverts, groupService: services.groups,
                                            makeView: { view }).makeCoordinator(navigation: navigation)
        defer { withExtendedLifetime(coordinator) {} }
        coordinator.start()
        #expect(view.viewData.rows == ["Scrappy bike | Vehicles", "Puppy | Pets"])
        #expect(navigation.topView === view)
        #expect(window.state.description == "adverts")
    }

    @Test func selectAdvertOnPhonePushesTheDetailOntoTheNavigationStack() throws {
        let fixture = try Fixture()
        let coordinator = fixture.feature.makeNavigationCoordinator(window: fixture.window)
        defer { withExtendedLifetime(coordinator) {} }
        coordinator.start()
        fixture.listView.delegate?.didSelect(advertID: "101")
        #expect(fixture.window.state.description == "adverts > item(Puppy)")
        #expect(fixture.window.panels.last?.view === fixture.detailView)
        #expect(fixture.detailView.viewData.title == "Puppy")
        #expect(fixture.events.events == [DomainEvent("advert_viewed", [EventField("advert", .string("101"))])])
    }

    @Test func selectAdvertOnTabletShowsItInTheSplitDetail() throws {
        let fixture = try Fixture()
        let coordinator = fixture.feature.makeSplitCoordinator(window: fixture.window)
        defer { withExtendedLifetime(coordinator) {} }
        coordinator.start()
        #expect(fixture.window.state.description == "adverts | ")
        fixture.listView.delegate?.didSelect(advertID: "101")
        #expect(fixture.window.state.description == "adverts | item(Puppy)")
        #expect(fixture.window.state.layers == [.split(master: [ScreenID(name: "adverts")],
                                                        detail: [ScreenID(name: "item", context: "Puppy")])])
        #expect(fixture.window.panels.last?.view === fixture.detailView)
        #expect(fixture.detailView.viewData.title == "Puppy")
    }

    @Test func selectingAnUnknownAdvertShowsNothing() throws {
        let fixture = try Fixture()
        let coordinator = fixture.feature.makeNavigationCoordinator(window: fixture.window)
        defer { withExtendedLifetime(coordinator) {} }
        coordinator.start()
        fixture.listView.delegate?.didSelect(advertID: "999")
        #expect(fixture.window.state.description == "adverts")
        #expect(fixture.events.events.isEmpty)
    }

    // MARK: App level, through the session's window

    /// A session whose services hold the page's groups and adverts.
    static func givenSession(platform: String) throws -> MarketplaceDriver {
        let app = try MarketplaceDriver(platform: platform, start: false)
        try app.groupService.groups = givenGroups
        try app.advertService.adverts = givenAdverts
        app.session.start()
        return app
    }

    @Test(arguments: ["phone", "tablet"])
    func appListDisplaysAdverts(platform: String) throws {
        let app = try Self.givenSession(platform: platform)
        #expect(try app.advertRows() == ["Scrappy bike | Vehicles", "Puppy | Pets"])
    }

    @Test func appSelectAdvertOnPhonePushesDetailTitledPuppy() throws {
        let app = try Self.givenSession(platform: "phone")
        try app.select("Puppy", on: "adverts")
        #expect(app.state == "adverts > item(Puppy)")
        #expect(try app.panel("item").content.title == "Puppy")
        try app.back()
        #expect(app.state == "adverts")
    }

    @Test func appSelectAdvertOnTabletShowsDetailTitledPuppy() throws {
        let app = try Self.givenSession(platform: "tablet")
        try app.select("Puppy", on: "adverts")
        #expect(app.state == "adverts | item(Puppy)")
        #expect(try app.panel("item").content.title == "Puppy")
        #expect(try app.advertRows() == ["Scrappy bike | Vehicles", "Puppy | Pets"])
    }

    @Test func catalogListShowsTheFourSampleAdverts() throws {
        let app = try MarketplaceDriver()
        #expect(try app.advertRows() == [
            "Specialized | Mountain bikes", "Cervelo R2 | Racers", "Fiat 500 | Cars", "Apollo Jewel | Mountain bikes",
        ])
        try app.select("Fiat 500", on: "adverts")
        #expect(app.state == "adverts > item(Fiat 500)")
        #expect(try app.panel("item").content.body.first?.hasPrefix("The small Italian city car") == true)
    }
}
