import Classifieds
import Marketplace
import RemixKit
import Testing

/// Discovery on a tablet (seed §6, §2.4): adverts in the split's master, the selected one in its
/// detail; insertion runs modally in its own navigation with a "Cancel" button on its first screen.
@Suite("Tablet discovery and insertion")
struct TabletTests {
    func tablet(_ flow: String? = nil) throws -> MarketplaceDriver {
        try MarketplaceDriver(platform: "tablet", flow: flow)
    }

    @Test func listIsTheSplitMasterWithAnEmptyDetail() throws {
        let app = try tablet()
        #expect(app.state == "adverts | ")
        #expect(app.window.panels.map(\.content.name) == ["adverts"])
    }

    @Test func selectingAdvertsReplacesTheSplitDetail() throws {
        let app = try tablet()
        try app.select("Specialized", on: "adverts")
        #expect(app.state == "adverts | item(Specialized)")
        #expect(try app.panel("item").content.body == ["A tired old mountain bike that has seen better days on the trails."])
        try app.select("Cervelo R2", on: "adverts")
        #expect(app.state == "adverts | item(Cervelo R2)")
        #expect(app.window.panels.map(\.content.name) == ["adverts", "item"])
        #expect(app.events(named: "advert_viewed").map { $0["advert"] } == [.string("1"), .string("2")])
        #expect(throws: NavigationError.cannotGoBack) { try app.back() }
    }

    // MARK: Manual insertion on a tablet

    @Test func manualInsertionIsModalWithCancelOnTheRootGroupList() throws {
        let app = try tablet(InsertionFlow.manual)
        try app.startInsertion()
        #expect(app.state == "adverts |  ^ groups")
        #expect(try app.buttonTitles(on: "groups") == ["Cancel", "Reset"])
        #expect(throws: NavigationError.cannotGoBack) { try app.back() }
        try app.select("Bicycles", on: "groups")
        #expect(app.state == "adverts |  ^ groups > groups(Bicycles)")
        #expect(try app.buttonTitles(on: "groups") == ["Reset"])
        try app.back()
        #expect(try app.buttonTitles(on: "groups") == ["Cancel", "Reset"])
        #expect(app.events(named: "insertion_cancelled").isEmpty)
    }

    @Test func manualCancelDismissesAndRecordsCancellation() throws {
        let app = try tablet(InsertionFlow.manual)
        try app.select("Fiat 500", on: "adverts")
        try app.startInsertion()
        #expect(app.state == "adverts | item(Fiat 500) ^ groups")
        try app.press("Cancel", on: "groups")
        #expect(app.state == "adverts | item(Fiat 500)")
        #expect(app.events.names == ["advert_viewed", "insertion_started", "insertion_cancelled"])
        try app.startInsertion()
        #expect(app.state == "adverts | item(Fiat 500) ^ groups")
    }

    @Test func manualPublishDismissesAndReloadsTheList() throws {
        let app = try tablet(InsertionFlow.manual)
        try app.startInsertion()
        try app.chooseGroups("Bicycles", "Racers")
        #expect(app.state == "adverts |  ^ groups > groups(Bicycles) > title")
        try app.enterTitle("Speedy")
        #expect(app.state == "adverts | ")
        #expect(try app.advertRows().last == "Speedy | Racers")
        #expect(app.events.names == ["insertion_started", "advert_published", "insertion_completed"])
    }

    @Test func manualResetAndRememberedTitleWorkInTheModal() throws {
        let app = try tablet(InsertionFlow.manual)
        try app.startInsertion()
        try app.chooseGroups("Bicycles", "Off road bikes")
        try app.press("Reset", on: "groups")
        #expect(app.state == "adverts |  ^ groups")
        try app.select("Cars", on: "groups")
        try app.type("Beetle")
        try app.back()
        #expect(app.state == "adverts |  ^ groups")
        try app.select("Cars", on: "groups")
        #expect(try app.text() == "Beetle")
    }

    // MARK: Auto insertion on a tablet

    @Test func autoInsertionIsModalWithCancelOnTheTitleStep() throws {
        let app = try tablet(InsertionFlow.auto)
        try app.startInsertion()
        #expect(app.state == "adverts |  ^ title")
        #expect(try app.buttonTitles(on: "title") == ["Cancel", "Next"])
        try app.type("never sent")
        try app.press("Cancel", on: "title")
        #expect(app.state == "adverts | ")
        #expect(app.events.names == ["insertion_started", "insertion_cancelled"])
        try app.startInsertion()
        #expect(try app.text() == "")
    }

    @Test func autoPublishShowsTheToastInTheModalThenDismissesAndReloads() throws {
        let app = try tablet(InsertionFlow.auto)
        try app.startInsertion()
        try app.enterTitle("BMX bike")
        #expect(app.state == "adverts |  ^ title ^ toast(Autoselecting group...)")
        #expect(throws: DriverError.self) { try app.press("Cancel", on: "title") }
        app.clock.advance(by: .seconds(2))
        #expect(app.state == "adverts | ")
        #expect(try app.advertRows().last == "BMX bike | Trail bikes")
    }

    @Test func autoPublishFailureKeepsTheModalOpen() throws {
        let app = try tablet(InsertionFlow.auto)
        try app.advertService.failsPublish = { true }
        try app.startInsertion()
        try app.enterTitle("Truck")
        app.clock.advance(by: .seconds(2))
        #expect(app.state == "adverts |  ^ title ^ toast(Could not publish advert)")
        app.clock.advance(by: .seconds(2))
        #expect(app.state == "adverts |  ^ title")
        try app.press("Cancel", on: "title")
        #expect(app.state == "adverts | ")
        #expect(app.events.names == ["insertion_started", "group_recommended", "publish_failed", "insertion_cancelled"])
    }

    @Test func advertsPublishedOnATabletCanBeSelectedIntoTheDetail() throws {
        let app = try tablet(InsertionFlow.manual)
        try app.select("Specialized", on: "adverts")
        try app.publishManually(in: "Cars", title: "Mini")
        #expect(app.state == "adverts | item(Specialized)")
        try app.select("Mini", on: "adverts")
        #expect(app.state == "adverts | item(Mini)")
        #expect(try app.panel("item").content.body.isEmpty)
    }
}
