import Classifieds
import Marketplace
import RemixHost
import RemixKit
import Testing

/// The example plugin's flow, loaded at run time and driven through the window like any feature.
@Suite struct QuickInsertionFlowTests {
    final class Driver {
        let events = EventRecorder()
        let session: AppSession

        init(platform: String = "phone") throws {
            let registry = try Build.registryWithPlugin()
            session = try AppSession(
                app: "marketplace", platform: platform, registry: registry, events: events,
                chooser: FixedSlotChooser(fillers: [MarketplaceModule.insertionSlot: "QuickInsertion"]))
            session.start()
        }

        var front: Panel {
            get throws { try #require(session.window.panels.first) }
        }

        func send(_ input: UserInput) throws {
            try session.window.send(input, to: try front)
        }

        func startInsertion() throws {
            try send(.press(buttonID: "new"))
        }

        var adverts: [Advert] {
            get throws { try session.environment.services.resolve(InMemoryAdvertService.self).adverts }
        }
    }

    @Test func oneScreenListsTheLeafGroupsWithTheirPathsAndTheTitleField() throws {
        let driver = try Driver()
        try driver.startInsertion()
        let screen = try driver.front.content
        #expect(screen.name == "quick")
        #expect(driver.session.window.state.description == "adverts > quick")
        #expect(screen.items.map(\.title) == ["Trail bikes", "Mountain bikes", "Racers", "Cars"])
        #expect(screen.items.map(\.detail) == ["Bicycles › Off road bikes", "Bicycles › Off road bikes", "Bicycles", ""])
        #expect(screen.fields == [ScreenTextField(id: "text", label: "Advert title", value: "", purpose: .title)])
        #expect(screen.buttons.map(\.id) == ["publish"])
        #expect(screen.buttons.first?.role == .submit)
        #expect(screen.items.map(\.kind) == [.choice, .choice, .choice, .choice])
        #expect(screen.items.map(\.value) == ["Trail bikes", "Mountain bikes", "Racers", "Cars"])
        #expect(screen.items.allSatisfy { !$0.isSelected })
        #expect(!screen.isBusy)
        #expect(screen.body == ["Group: none chosen yet"])
        #expect(driver.events.names == ["insertion_started"])
        #expect(driver.events.events.first?["flow"] == .string("QuickInsertionCoordinator"))
    }

    @Test func selectingAGroupAndPublishingPublishesThroughTheMarketplaceInteractor() throws {
        let driver = try Driver()
        try driver.startInsertion()
        try driver.send(.edit(fieldID: "text", text: "Mountain bike"))
        try driver.send(.select(itemID: "4"))
        #expect(try driver.front.content.body == ["Group: Bicycles › Off road bikes › Mountain bikes"])
        #expect(try driver.front.content.items.filter(\.isSelected).map(\.id) == ["4"])
        #expect(try driver.front.content.fields.first?.value == "Mountain bike")
        try driver.send(.press(buttonID: "publish"))
        #expect(driver.session.window.state.description == "adverts")
        #expect(driver.events.names == ["insertion_started", "advert_published", "insertion_completed"])
        let published = try #require(driver.events.events.first { $0.name == "advert_published" })
        #expect(published["group"] == .string("4"))
        #expect(published["title"] == .string("Mountain bike"))
        #expect(try driver.adverts.last?.title == "Mountain bike")
    }

    @Test func publishNeedsAGroupAndATitle() throws {
        let driver = try Driver()
        try driver.startInsertion()
        try driver.send(.edit(fieldID: "text", text: "Fiat Panda"))
        try driver.send(.press(buttonID: "publish"))
        #expect(try driver.front.content.body.first == "Choose a group for your advert")
        #expect(try driver.front.content.fields.first?.value == "Fiat Panda")
        try driver.send(.edit(fieldID: "text", text: "  "))
        try driver.send(.select(itemID: "10"))
        try driver.send(.press(buttonID: "publish"))
        #expect(try driver.front.content.body.first == "Type a title for your advert")
        #expect(driver.events.names == ["insertion_started"])
    }

    @Test func aFailedPublishStaysOnTheScreenWithAMessage() throws {
        let driver = try Driver()
        try driver.startInsertion()
        let service = try driver.session.environment.services.resolve(InMemoryAdvertService.self)
        service.failsPublish = { true }
        try driver.send(.select(itemID: "5"))
        try driver.send(.edit(fieldID: "text", text: "Racing bike"))
        try driver.send(.press(buttonID: "publish"))
        #expect(try driver.front.content.body.first == "Could not publish advert; try again")
        #expect(driver.events.names == ["insertion_started", "publish_failed"])
        service.failsPublish = { false }
        try driver.send(.press(buttonID: "publish"))
        #expect(driver.events.names.suffix(2) == ["advert_published", "insertion_completed"])
    }

    @Test func backCancelsOnAPhone() throws {
        let driver = try Driver()
        try driver.startInsertion()
        try driver.session.window.goBack()
        #expect(driver.session.window.state.description == "adverts")
        #expect(driver.events.names == ["insertion_started", "insertion_cancelled"])
    }

    @Test func cancelCancelsOnATablet() throws {
        let driver = try Driver(platform: "tablet")
        try driver.startInsertion()
        #expect(try driver.front.content.buttons.map(\.title) == ["Cancel", "Publish"])
        try driver.send(.press(buttonID: Panel.leftButtonID))
        #expect(driver.events.names == ["insertion_started", "insertion_cancelled"])
        #expect(try driver.front.content.name == "adverts")
    }

    @Test func unknownControlsAreRefused() throws {
        let driver = try Driver()
        try driver.startInsertion()
        #expect(throws: UserInputError.self) { try driver.send(.select(itemID: "1")) }
        #expect(throws: UserInputError.self) { try driver.send(.press(buttonID: "next")) }
    }
}
