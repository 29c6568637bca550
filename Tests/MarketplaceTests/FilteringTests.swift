import Classifieds
import Marketplace
import RemixKit
import Testing

/// Filtering the advert list by a group (seed §3, use 1): only leaves can be chosen; the list
/// shows adverts of exactly that group; Reset clears; cancel keeps; the filter survives publishing.
@Suite("Filtering the advert list")
struct FilteringTests {
    static let allRows = [
        "Specialized | Mountain bikes", "Cervelo R2 | Racers", "Fiat 500 | Cars", "Apollo Jewel | Mountain bikes",
    ]

    @Test(arguments: ["phone", "tablet"])
    func choosingALeafShowsOnlyAdvertsOfExactlyThatGroup(platform: String) throws {
        let app = try MarketplaceDriver(platform: platform)
        try app.openFilters()
        try app.chooseFilter("Bicycles", "Racers")
        #expect(try app.advertRows() == ["Cervelo R2 | Racers"])
        #expect(try app.panel("adverts").content.title == "Adverts in Racers")
        #expect(app.events.events == [DomainEvent("filter_applied", [EventField("group", .string("5"))])])
    }

    @Test(arguments: ["phone", "tablet"])
    func parentGroupDrillsDownInsteadOfFiltering(platform: String) throws {
        let app = try MarketplaceDriver(platform: platform)
        try app.openFilters()
        try app.chooseFilter("Bicycles", "Off road bikes")
        #expect(app.state.hasSuffix("filter > filter(Bicycles) > filter(Off road bikes)"))
        #expect(app.events(named: "filter_applied").isEmpty)
        try app.select("Mountain bikes", on: "filter")
        #expect(try app.advertRows() == ["Specialized | Mountain bikes", "Apollo Jewel | Mountain bikes"])
        #expect(app.events(named: "filter_applied").map { $0["group"] } == [.string("4")])
    }

    @Test func leafWithoutAdvertsShowsAnEmptyList() throws {
        let app = try MarketplaceDriver()
        try app.openFilters()
        try app.chooseFilter("Bicycles", "Off road bikes", "Trail bikes")
        #expect(app.state == "adverts(Trail bikes)")
        #expect(try app.advertRows().isEmpty)
    }

    @Test func phoneFilterIsPushedAfterTheListAndPopsBackOnChoice() throws {
        let app = try MarketplaceDriver()
        try app.openFilters()
        #expect(app.state == "adverts > filter")
        try app.select("Bicycles", on: "filter")
        #expect(app.state == "adverts > filter > filter(Bicycles)")
        try app.select("Racers", on: "filter")
        #expect(app.state == "adverts(Racers)")
    }

    @Test(arguments: [[], ["Bicycles"], ["Bicycles", "Off road bikes"]])
    func resetClearsTheFilter(path: [String]) throws {
        let app = try MarketplaceDriver()
        try app.openFilters()
        try app.select("Cars", on: "filter")
        #expect(try app.advertRows() == ["Fiat 500 | Cars"])
        try app.openFilters()
        for group in path { try app.select(group, on: "filter") }
        try app.press("Reset", on: "filter")
        #expect(app.state == "adverts")
        #expect(try app.advertRows() == Self.allRows)
        #expect(app.events(named: "filter_applied").map { $0["group"] } == [.string("10"), .null])
    }

    @Test func backOnTheRootGroupListCancelsAndKeepsTheFilter() throws {
        let app = try MarketplaceDriver()
        try app.openFilters()
        try app.chooseFilter("Bicycles", "Racers")
        try app.openFilters()
        try app.select("Bicycles", on: "filter")
        try app.back()
        #expect(app.state == "adverts(Racers) > filter")
        try app.back()
        #expect(app.state == "adverts(Racers)")
        #expect(try app.advertRows() == ["Cervelo R2 | Racers"])
        #expect(app.events(named: "filter_applied").count == 1)
    }

    @Test func cancellingWithoutAFilterKeepsAllAdverts() throws {
        let app = try MarketplaceDriver()
        try app.openFilters()
        try app.back()
        #expect(app.state == "adverts")
        #expect(try app.advertRows() == Self.allRows)
        #expect(app.events.events.isEmpty)
    }

    @Test func filterIsKeptAfterPublishingManually() throws {
        let app = try MarketplaceDriver(flow: InsertionFlow.manual)
        try app.openFilters()
        try app.chooseFilter("Bicycles", "Racers")
        try app.publishManually(in: "Cars", title: "Old banger")
        #expect(app.state == "adverts(Racers)")
        #expect(try app.advertRows() == ["Cervelo R2 | Racers"])
        #expect(try app.advertService.adverts.last?.title == "Old banger")
        try app.publishManually(in: "Bicycles", "Racers", title: "Fast one")
        #expect(app.state == "adverts(Racers)")
        #expect(try app.advertRows() == ["Cervelo R2 | Racers", "Fast one | Racers"])
    }

    @Test(arguments: ["phone", "tablet"])
    func filterIsKeptAfterPublishingAutomatically(platform: String) throws {
        let app = try MarketplaceDriver(platform: platform, flow: InsertionFlow.auto)
        try app.openFilters()
        try app.chooseFilter("Bicycles", "Off road bikes", "Mountain bikes")
        try app.publishAutomatically("sofa")
        #expect(try app.advertRows() == ["Specialized | Mountain bikes", "Apollo Jewel | Mountain bikes"])
        try app.publishAutomatically("Mountain bike")
        #expect(try app.advertRows() == [
            "Specialized | Mountain bikes", "Apollo Jewel | Mountain bikes", "Mountain bike | Mountain bikes",
        ])
        #expect(app.events(named: "filter_applied").count == 1)
    }

    // MARK: Tablet: the filter is modal

    @Test func tabletFilterIsPresentedModallyAndDismissedOnChoice() throws {
        let app = try MarketplaceDriver(platform: "tablet")
        try app.openFilters()
        #expect(app.state == "adverts |  ^ filter")
        #expect(app.window.state.layers.count == 2)
        #expect(throws: NavigationError.cannotGoBack) { try app.back() }
        try app.select("Bicycles", on: "filter")
        #expect(app.state == "adverts |  ^ filter > filter(Bicycles)")
        try app.back()
        #expect(app.state == "adverts |  ^ filter")
        try app.chooseFilter("Bicycles", "Racers")
        #expect(app.state == "adverts(Racers) | ")
        #expect(try app.advertRows() == ["Cervelo R2 | Racers"])
    }

    @Test func tabletResetDismissesAndClearsTheFilter() throws {
        let app = try MarketplaceDriver(platform: "tablet")
        try app.select("Fiat 500", on: "adverts")
        try app.openFilters()
        #expect(app.state == "adverts | item(Fiat 500) ^ filter")
        try app.select("Cars", on: "filter")
        #expect(app.state == "adverts(Cars) | item(Fiat 500)")
        try app.openFilters()
        try app.select("Bicycles", on: "filter")
        try app.press("Reset", on: "filter")
        #expect(app.state == "adverts | item(Fiat 500)")
        #expect(try app.advertRows() == Self.allRows)
        #expect(app.events(named: "filter_applied").map { $0["group"] } == [.string("10"), .null])
    }

    // MARK: Component level: the list coordinator keeps its filter

    @Test func componentListKeepsItsFilterAcrossReloads() {
        let services = Services()
        let view = AdvertListViewSpy()
        let window = Window(clock: VirtualClock())
        let navigation = window.makeNavigation()
        let coordinator = AdvertListFeature(advertService: services.adverts, groupService: services.groups,
                                            makeView: { view }).makeCoordinator(navigation: navigation)
        defer { withExtendedLifetime(coordinator) {} }
        let delegate = AdvertListDelegateSpy()
        coordinator.delegate = delegate
        coordinator.start()
        coordinator.updateAdverts(for: "4")
        #expect(view.viewData.rows == ["Specialized | Mountain bikes", "Apollo Jewel | Mountain bikes"])
        #expect(view.viewData.filterTitle == "Mountain bikes")
        services.adverts.adverts.append(Advert(advertID: "9", title: "Scott", description: "", groupID: "4"))
        services.adverts.adverts.append(Advert(advertID: "8", title: "Golf", description: "", groupID: "10"))
        coordinator.reloadAdverts()
        #expect(view.viewData.rows.last == "Scott | Mountain bikes")
        #expect(view.viewData.items.count == 3)
        coordinator.updateAdverts(for: nil)
        #expect(view.viewData.items.count == 6)
        #expect(view.viewData.filterTitle == nil)
        view.delegate?.didSelect(advertID: "3")
        view.delegate?.didSelectFiltersAction()
        view.delegate?.didSelectNewAdvertAction()
        #expect(delegate.selected == ["3"])
        #expect(delegate.filterTaps == 1)
        #expect(delegate.newAdvertTaps == 1)
    }
}
