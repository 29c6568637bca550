import Classifieds
import Marketplace
import RemixKit
import Testing

/// Interactors (seed §1.1, §2, §5.2): the list's filter, the detail fetch and the draft publish.
@Suite("Interactors")
struct InteractorTests {
    /// The seed's interactor fixture: adverts 1, 2 in group 1; 3 in group 2 (a child of 1); 4 in group 3.
    static let groups = [
        Group(groupID: "1", children: ["2"], title: "Vehicles"),
        Group(groupID: "2", parent: "1", title: "Cars"),
        Group(groupID: "3", title: "Pets"),
    ]
    static let adverts = [
        Advert(advertID: "1", title: "Truck", description: "", groupID: "1"),
        Advert(advertID: "2", title: "Van", description: "", groupID: "1"),
        Advert(advertID: "3", title: "Mini", description: "", groupID: "2"),
        Advert(advertID: "4", title: "Cat", description: "", groupID: "3"),
    ]

    func listInteractor() -> AdvertListInteractor {
        let services = Services(groups: Self.groups, adverts: Self.adverts)
        return AdvertListInteractor(advertService: services.adverts, groupService: services.groups)
    }

    func fetch(_ call: ((AsyncResult<AdvertListing>) -> Void) -> Void) throws -> AdvertListing {
        var result: AsyncResult<AdvertListing>?
        call { result = $0 }
        guard case .success(let listing) = try #require(result) else { throw DriverError("fetch failed") }
        return listing
    }

    @Test func advertListWithoutFilterHasAllAdvertsAndAllGroups() throws {
        let interactor = listInteractor()
        let listing = try fetch { interactor.updateFilter(groupID: nil, completion: $0) }
        #expect(listing.adverts == Self.adverts)
        #expect(listing.groups == Self.groups)
        #expect(interactor.filteredGroupID == nil)
    }

    @Test func advertListFilterMatchesTheGroupExactlyWithoutDescendants() throws {
        let interactor = listInteractor()
        let listing = try fetch { interactor.updateFilter(groupID: "1", completion: $0) }
        #expect(listing.adverts.map(\.advertID) == ["1", "2"])
        #expect(listing.groups == Self.groups)
        #expect(interactor.filteredGroupID == "1")
    }

    @Test func advertListFilterIsKeptForLaterFetches() throws {
        let interactor = listInteractor()
        _ = try fetch { interactor.updateFilter(groupID: "2", completion: $0) }
        #expect(try fetch { interactor.fetchAdverts(completion: $0) }.adverts.map(\.advertID) == ["3"])
    }

    @Test func discoveryFetchOfAnUnknownAdvertIsAnError() {
        let interactor = DiscoveryInteractor(advertService: Services().adverts)
        var result: AsyncResult<Advert>?
        interactor.fetchDetail(advertID: "999") { result = $0 }
        #expect(result == .error)
    }

    @Test func discoveryFetchFindsTheAdvert() {
        let interactor = DiscoveryInteractor(advertService: Services().adverts)
        var result: AsyncResult<Advert>?
        interactor.fetchDetail(advertID: "2") { result = $0 }
        #expect(result == .success(SampleData.adverts[1]))
    }

    @Test func insertionPublishWithoutGroupFailsWithPublishFailed() {
        let services = Services()
        let events = EventRecorder()
        let interactor = InsertionInteractor(advertService: services.adverts, events: events)
        interactor.update(title: "No group")
        var result: AsyncResult<AdvertID>?
        interactor.publish { result = $0 }
        #expect(result == .error)
        #expect(events.events == [DomainEvent("publish_failed", [EventField("group", .null)])])
        #expect(services.adverts.adverts == SampleData.adverts)
    }

    @Test func insertionPublishAddsAnAdvertWithEmptyDescription() {
        let services = Services()
        let events = EventRecorder()
        let interactor = InsertionInteractor(advertService: services.adverts, events: events)
        interactor.update(groupID: "10")
        interactor.update(title: "Beetle")
        #expect(interactor.draft == Draft(title: "Beetle", groupID: "10"))
        var result: AsyncResult<AdvertID>?
        interactor.publish { result = $0 }
        #expect(result == .success("new-1"))
        #expect(services.adverts.adverts.last == Advert(advertID: "new-1", title: "Beetle", description: "", groupID: "10"))
        #expect(events.events == [DomainEvent("advert_published", [
            EventField("advert", .string("new-1")), EventField("group", .string("10")),
            EventField("title", .string("Beetle")),
        ])])
    }

    @Test func insertionPublishWithoutTitleIsUntitledAndEmptyTitleIsAllowed() {
        let services = Services()
        let untitled = InsertionInteractor(advertService: services.adverts, events: EventRecorder())
        untitled.update(groupID: "5")
        untitled.publish { _ in }
        #expect(services.adverts.adverts.last?.title == "<untitled>")
        let empty = InsertionInteractor(advertService: services.adverts, events: EventRecorder())
        empty.update(groupID: "5")
        empty.update(title: "")
        var result: AsyncResult<AdvertID>?
        empty.publish { result = $0 }
        #expect(result == .success("new-2"))
        #expect(services.adverts.adverts.last?.title == "")
    }

    @Test func insertionPublishFailsWhenTheServiceIsDown() {
        let services = Services()
        services.adverts.failsPublish = { true }
        let events = EventRecorder()
        let interactor = InsertionInteractor(advertService: services.adverts, events: events)
        interactor.update(groupID: "5")
        var result: AsyncResult<AdvertID>?
        interactor.publish { result = $0 }
        #expect(result == .error)
        #expect(events.events == [DomainEvent("publish_failed", [EventField("group", .string("5"))])])
    }

    @Test func autoInsertionInteractorStoresTitleAndRecommendedGroupWhenTheClockAllows() {
        let clock = VirtualClock()
        let services = Services()
        let events = EventRecorder()
        let insertion = InsertionInteractor(advertService: services.adverts, events: events)
        let interactor = AutoGroupInsertionInteractor(
            insertion: insertion,
            recommendations: KeywordGroupRecommendationService(table: SampleData.recommendations, clock: clock),
            events: events)
        var done = false
        interactor.update(title: "Racing car") { done = true }
        #expect(insertion.draft == Draft(title: "Racing car", groupID: nil))
        #expect(!done)
        clock.advance(by: .seconds(2))
        #expect(done)
        #expect(insertion.draft == Draft(title: "Racing car", groupID: "5"))
        #expect(events.events == [DomainEvent("group_recommended", [EventField("group", .string("5"))])])
    }
}
