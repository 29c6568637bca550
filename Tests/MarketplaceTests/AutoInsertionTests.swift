import Classifieds
import Marketplace
import RemixKit
import Testing

/// Auto insertion (seed §2.2): the title only; a loading toast while the group is recommended
/// (2 s of virtual time), then publish; a failed publish shows an error toast for 2 s.
@Suite("Auto group insertion")
struct AutoInsertionTests {
    func phone() throws -> MarketplaceDriver { try MarketplaceDriver(flow: InsertionFlow.auto) }

    @Test func newAdvertShowsAnEmptyTitleStep() throws {
        let app = try phone()
        try app.startInsertion()
        #expect(app.state == "adverts > title")
        #expect(try app.panel("title").content.title == "Advert title")
        #expect(try app.text() == "")
    }

    @Test func nextShowsTheLoadingToastForTwoSecondsThenPublishesIntoTheRecommendedGroup() throws {
        let app = try phone()
        try app.startInsertion()
        try app.enterTitle("Mountain bike")
        #expect(app.state == "adverts > title ^ toast(Autoselecting group...)")
        #expect(app.window.isBlocked)
        #expect(try app.panel("toast").content.title == "Autoselecting group...")
        #expect(throws: NavigationError.blocked) {
            try app.window.send(.press(buttonID: "next"), to: try app.panel("toast"))
        }
        #expect(throws: NavigationError.cannotGoBack) { try app.back() }
        #expect(app.events(named: "advert_published").isEmpty)
        app.clock.advance(by: .milliseconds(1999))
        #expect(app.state == "adverts > title ^ toast(Autoselecting group...)")
        app.clock.advance(by: .milliseconds(1))
        #expect(app.state == "adverts")
        #expect(!app.window.isBlocked)
        #expect(try app.advertRows().last == "Mountain bike | Mountain bikes")
        #expect(try app.advertService.adverts.last?.description == "")
        #expect(app.events.names == [
            "insertion_started", "group_recommended", "advert_published", "insertion_completed",
        ])
    }

    @Test func waitingWhileBlockedTakesTwoSecondsOfVirtualTime() throws {
        let app = try phone()
        try app.startInsertion()
        try app.enterTitle("sofa")
        #expect(app.session.waitWhileBlocked() == .seconds(2))
        #expect(app.state == "adverts")
    }

    @Test(arguments: [
        ("Mountain bike", "4"), ("racing bike", "5"), ("BMX bike", "3"), ("Racing car", "5"),
        ("Carbon bike", "3"), ("Oscar's pram", "10"), ("sofa", "10"),
    ])
    func keywordExamplePublishesIntoItsGroup(title: String, group: String) throws {
        let app = try phone()
        try app.publishAutomatically(title)
        #expect(app.state == "adverts")
        let published = try #require(try app.advertService.adverts.last)
        #expect(published.title == title)
        #expect(published.groupID == group)
        #expect(app.events(named: "advert_published").first?["group"] == .string(group))
        #expect(app.events(named: "group_recommended").first?["group"] == .string(group))
    }

    @Test func publishFailureShowsTheErrorToastForExactlyTwoSecondsAndStaysOnTheTitleStep() throws {
        let app = try phone()
        let service = try app.advertService
        service.failsPublish = { true }
        let count = service.adverts.count
        try app.startInsertion()
        try app.enterTitle("Racing car")
        app.clock.advance(by: .seconds(2))
        #expect(app.state == "adverts > title ^ toast(Could not publish advert)")
        #expect(app.window.isBlocked)
        #expect(app.events(named: "publish_failed").count == 1)
        app.clock.advance(by: .milliseconds(1999))
        #expect(app.state == "adverts > title ^ toast(Could not publish advert)")
        app.clock.advance(by: .milliseconds(1))
        #expect(app.state == "adverts > title")
        #expect(try app.text() == "Racing car")
        #expect(service.adverts.count == count)
        #expect(app.events(named: "insertion_completed").isEmpty)

        service.failsPublish = { false }
        try app.press("Next", on: "title")
        #expect(app.state == "adverts > title ^ toast(Autoselecting group...)")
        app.session.waitWhileBlocked()
        #expect(app.state == "adverts")
        #expect(try app.advertRows().last == "Racing car | Racers")
        #expect(app.events(named: "advert_published").count == 1)
    }

    @Test func backCancelsImmediatelyAndTheNextAttemptStartsWithAnEmptyTitle() throws {
        let app = try phone()
        try app.startInsertion()
        try app.type("Half-typed title")
        try app.back()
        #expect(app.state == "adverts")
        #expect(app.events.names == ["insertion_started", "insertion_cancelled"])
        #expect(!app.clock.hasPendingWork)
        try app.startInsertion()
        #expect(app.state == "adverts > title")
        #expect(try app.text() == "")
    }

    // MARK: Component level

    @Test func componentRecommendsOnTheWindowClockAndReportsTheNewAdvert() throws {
        let host = HostStack(hostScreen: "list")
        let services = Services()
        let events = EventRecorder()
        let outcome = FlowDelegateSpy()
        let feature = AutoGroupInsertionFeature(
            advertService: services.adverts,
            recommendations: KeywordGroupRecommendationService(table: SampleData.recommendations, clock: host.clock),
            events: events, wireframes: host.window)
        let coordinator = feature.makeCoordinator(navigation: host.navigation)
        defer { withExtendedLifetime(coordinator) {} }
        coordinator.delegate = outcome
        coordinator.start()
        #expect(host.state == "list > title")
        host.textStep?.delegate?.didTapNext(withText: "Old truck")
        #expect(host.state == "list > title ^ toast(Autoselecting group...)")
        #expect(host.clock.nextDue == .seconds(2))
        host.clock.advanceToNextEvent()
        #expect(outcome.outcomes == [.completed(result: "new-1")])
        #expect(services.adverts.adverts.last?.groupID == "10")
        #expect(host.state == "list > title")
    }

    @Test func componentBackReportsCancelled() {
        let host = HostStack(hostScreen: "list")
        let services = Services()
        let outcome = FlowDelegateSpy()
        let feature = AutoGroupInsertionFeature(
            advertService: services.adverts,
            recommendations: KeywordGroupRecommendationService(table: SampleData.recommendations, clock: host.clock),
            events: EventRecorder(), wireframes: host.window)
        let coordinator = feature.makeCoordinator(navigation: host.navigation)
        defer { withExtendedLifetime(coordinator) {} }
        coordinator.delegate = outcome
        coordinator.start()
        host.textStep?.delegate?.didGoBack(withText: "whatever")
        #expect(outcome.outcomes == [.cancelled])
    }
}
