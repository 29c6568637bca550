import Classifieds
import Marketplace
import RemixKit
import Testing

/// Manual insertion (seed §2.1): pick a leaf group, then type the title; Reset returns to the root
/// group list, back on the root cancels, and the title is remembered when going back.
@Suite("Manual group insertion")
struct ManualInsertionTests {
    func phone() throws -> MarketplaceDriver { try MarketplaceDriver(flow: InsertionFlow.manual) }

    @Test func newAdvertShowsTheRootGroupList() throws {
        let app = try phone()
        try app.startInsertion()
        #expect(app.state == "adverts > groups")
        #expect(try app.rowTitles(on: "groups") == ["Bicycles", "Cars"])
        #expect(try app.panel("groups").content.items.map(\.hasChildren) == [true, false])
        #expect(try app.buttonTitles(on: "groups") == ["Reset"])
    }

    @Test func parentGroupsDrillDownAndOnlyLeavesLeadToTheTitleStep() throws {
        let app = try phone()
        try app.startInsertion()
        try app.select("Bicycles", on: "groups")
        #expect(app.state == "adverts > groups > groups(Bicycles)")
        #expect(try app.rowTitles(on: "groups") == ["Off road bikes", "Racers"])
        try app.select("Off road bikes", on: "groups")
        #expect(app.state == "adverts > groups > groups(Bicycles) > groups(Off road bikes)")
        #expect(try app.rowTitles(on: "groups") == ["Trail bikes", "Mountain bikes"])
        try app.select("Mountain bikes", on: "groups")
        #expect(app.state == "adverts > groups > groups(Bicycles) > groups(Off road bikes) > title")
        #expect(app.events(named: "advert_published").isEmpty)
    }

    @Test func titleStepIsPushedOverTheGroupListsAndIsEmptyAtFirst() throws {
        let app = try phone()
        try app.startInsertion()
        try app.select("Cars", on: "groups")
        #expect(app.state == "adverts > groups > title")
        #expect(try app.panel("title").content.title == "Advert title")
        #expect(try app.text() == "")
        #expect(try app.buttonTitles(on: "title") == ["Next"])
    }

    @Test func nextPublishesTheAdvertAndReturnsToTheList() throws {
        let app = try phone()
        try app.publishManually(in: "Bicycles", "Racers", title: "Speedy")
        #expect(app.state == "adverts")
        #expect(try app.advertRows().last == "Speedy | Racers")
        let published = try #require(try app.advertService.adverts.last)
        #expect(published.title == "Speedy")
        #expect(published.groupID == "5")
        #expect(published.description == "")
        let event = try #require(app.events(named: "advert_published").first)
        #expect(event["group"] == .string("5"))
        #expect(event["title"] == .string("Speedy"))
        #expect(event["advert"] == .string(published.advertID))
        #expect(app.events.names == ["insertion_started", "advert_published", "insertion_completed"])
        try app.select("Speedy", on: "adverts")
        #expect(app.state == "adverts > item(Speedy)")
        #expect(try app.panel("item").content.body.isEmpty)
    }

    @Test func backFromTitleThenPickingALeafShowsANewTitleStepWithTheRememberedTitle() throws {
        let app = try phone()
        try app.startInsertion()
        try app.chooseGroups("Bicycles", "Off road bikes", "Mountain bikes")
        let firstStep = try app.panel("title").view
        try app.type("Rocky")
        try app.back()
        #expect(app.state == "adverts > groups > groups(Bicycles) > groups(Off road bikes)")
        try app.select("Trail bikes", on: "groups")
        #expect(app.state == "adverts > groups > groups(Bicycles) > groups(Off road bikes) > title")
        #expect(try app.panel("title").view !== firstStep)
        #expect(try app.text() == "Rocky")
        try app.press("Next", on: "title")
        let event = try #require(app.events(named: "advert_published").first)
        #expect(event["group"] == .string("3"))
        #expect(event["title"] == .string("Rocky"))
    }

    @Test(arguments: [
        ["Bicycles"], ["Bicycles", "Off road bikes"],
    ])
    func resetOnAnyLevelPopsToTheRootGroupList(path: [String]) throws {
        let app = try phone()
        try app.startInsertion()
        for group in path { try app.select(group, on: "groups") }
        try app.press("Reset", on: "groups")
        #expect(app.state == "adverts > groups")
        #expect(try app.rowTitles(on: "groups") == ["Bicycles", "Cars"])
        #expect(app.events(named: "insertion_cancelled").isEmpty)
        try app.press("Reset", on: "groups")
        #expect(app.state == "adverts > groups")
        try app.back()
        #expect(app.state == "adverts")
        #expect(app.events(named: "insertion_cancelled").count == 1)
    }

    @Test func resetLeavesTheDraftUntouched() throws {
        let app = try phone()
        try app.startInsertion()
        try app.chooseGroups("Bicycles", "Racers")
        try app.type("Kept title")
        try app.back()
        try app.press("Reset", on: "groups")
        #expect(app.state == "adverts > groups")
        try app.select("Cars", on: "groups")
        #expect(try app.text() == "Kept title")
        try app.press("Next", on: "title")
        #expect(try app.advertRows().last == "Kept title | Cars")
    }

    @Test func backOnTheRootGroupListCancels() throws {
        let app = try phone()
        let before = try app.advertRows()
        try app.startInsertion()
        try app.back()
        #expect(app.state == "adverts")
        #expect(app.events.names == ["insertion_started", "insertion_cancelled"])
        #expect(try app.advertRows() == before)
    }

    @Test func backOnANonRootLevelGoesUpOneLevelOnly() throws {
        let app = try phone()
        try app.startInsertion()
        try app.chooseGroups("Bicycles", "Off road bikes")
        try app.back()
        #expect(app.state == "adverts > groups > groups(Bicycles)")
        try app.back()
        #expect(app.state == "adverts > groups")
        #expect(app.events(named: "insertion_cancelled").isEmpty)
        try app.select("Cars", on: "groups")
        #expect(app.state == "adverts > groups > title")
    }

    @Test func cancelledAttemptDoesNotLeakItsTitleIntoTheNextAttempt() throws {
        let app = try phone()
        try app.startInsertion()
        try app.select("Cars", on: "groups")
        try app.type("Forgotten")
        try app.back()
        try app.back()
        #expect(app.state == "adverts")
        try app.startInsertion()
        try app.select("Cars", on: "groups")
        #expect(try app.text() == "")
    }

    // MARK: Component level: the coordinator with fake host and view delegates

    struct Component {
        let host = HostStack(hostScreen: "list")
        let services = Services()
        let events = EventRecorder()
        let outcome = FlowDelegateSpy()
        let coordinator: any FlowCoordinator

        init() {
            let feature = ManualGroupInsertionFeature(
                groupSelection: GroupSelectionFeature(groupService: services.groups),
                advertService: services.adverts, events: events)
            coordinator = feature.makeCoordinator(navigation: host.navigation)
            coordinator.delegate = outcome
            coordinator.start()
        }
    }

    @Test func componentPublishesThroughViewDelegatesAndReportsTheNewAdvert() throws {
        let flow = Component()
        #expect(flow.host.state == "list > groups")
        flow.host.groupList?.delegate?.didSelect(groupID: "1")
        flow.host.groupList?.delegate?.didSelect(groupID: "5")
        #expect(flow.host.state == "list > groups > groups(Bicycles) > title")
        #expect(flow.host.textStep?.viewData == TextEntryStepViewData(title: "Advert title", value: ""))
        flow.host.textStep?.delegate?.didTapNext(withText: "Cervelo S5")
        #expect(flow.outcome.outcomes == [.completed(result: "new-1")])
        #expect(flow.services.adverts.adverts.last
            == Advert(advertID: "new-1", title: "Cervelo S5", description: "", groupID: "5"))
    }

    @Test func componentPublishFailureKeepsTheUserOnTheTitleStep() throws {
        let flow = Component()
        flow.services.adverts.failsPublish = { true }
        flow.host.groupList?.delegate?.didSelect(groupID: "10")
        flow.host.textStep?.delegate?.didTapNext(withText: "Fiat Panda")
        #expect(flow.outcome.outcomes.isEmpty)
        #expect(flow.host.state == "list > groups > title")
        #expect(flow.events.names == ["publish_failed"])
        flow.services.adverts.failsPublish = { false }
        flow.host.textStep?.delegate?.didTapNext(withText: "Fiat Panda")
        #expect(flow.outcome.outcomes == [.completed(result: "new-1")])
    }

    @Test func componentUnknownGroupCancelsTheInsertion() {
        let flow = Component()
        flow.host.groupList?.delegate?.didSelect(groupID: "999")
        #expect(flow.outcome.outcomes == [.cancelled])
    }

    @Test func componentBackOnRootReportsCancelledAndResetReportsNothing() throws {
        let flow = Component()
        flow.host.groupList?.delegate?.didSelect(groupID: "1")
        flow.host.groupList?.delegate?.didDeselectAll()
        #expect(flow.host.state == "list > groups")
        #expect(flow.outcome.outcomes.isEmpty)
        try flow.host.window.goBack()
        #expect(flow.host.state == "list")
        #expect(flow.outcome.outcomes == [.cancelled])
    }
}
