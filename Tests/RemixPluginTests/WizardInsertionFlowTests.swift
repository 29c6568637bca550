import Classifieds
import Marketplace
import RemixBuiltIns
import RemixHost
import RemixKit
import Testing

/// The second example plugin's flow, a three-step wizard, loaded at run time and driven through its
/// headless views in the window like any feature: every input reaches the coordinator through the
/// views' delegate methods.
@Suite struct WizardInsertionFlowTests {
    final class Driver {
        let events = EventRecorder()
        let session: AppSession

        init(platform: String = "phone") throws {
            let registry = try Build.registry(loading: [Build.wizardPlugin])
            session = try AppSession(
                app: "marketplace", platform: platform, registry: registry, events: events,
                chooser: FixedSlotChooser(fillers: [MarketplaceModule.insertionSlot: "WizardInsertion"]))
            session.start()
        }

        var front: Panel {
            get throws { try #require(session.window.panels.first) }
        }

        var screen: ScreenContent {
            get throws { try front.content }
        }

        var state: String { session.window.state.description }

        func send(_ input: UserInput) throws {
            try session.window.send(input, to: try front)
        }

        func back() throws {
            try session.window.goBack()
        }

        func startInsertion() throws {
            try send(.press(buttonID: "new"))
        }

        /// From the list to the review of "Mountain bike" in Bicycles › Off road bikes › Mountain bikes.
        func reachReview(title: String = "Mountain bike") throws {
            try startInsertion()
            try send(.edit(fieldID: "text", text: title))
            try send(.press(buttonID: "next"))
            try send(.select(itemID: "1"))
            try send(.select(itemID: "2"))
            try send(.select(itemID: "4"))
        }

        var adverts: [Advert] {
            get throws { try session.environment.services.resolve(InMemoryAdvertService.self).adverts }
        }

        var advertService: InMemoryAdvertService {
            get throws { try session.environment.services.resolve(InMemoryAdvertService.self) }
        }
    }

    static let reviewState = "adverts > wizard-title > wizard-group > wizard-group(Bicycles) > wizard-group(Off road bikes) "
        + "> wizard-review"

    // MARK: The screens and their semantics

    @Test func theTitleStepHasATitleFieldAndAPrimaryNext() throws {
        let driver = try Driver()
        try driver.startInsertion()
        let screen = try driver.screen
        #expect(screen.name == "wizard-title")
        #expect(driver.state == "adverts > wizard-title")
        #expect(screen.title == "Step 1 of 3: Title")
        #expect(screen.fields == [ScreenTextField(id: "text", label: "Advert title", value: "", purpose: .title)])
        #expect(screen.buttons == [ScreenButton(id: "next", title: "Next", role: .primary)])
        #expect(screen.items.isEmpty && screen.body.isEmpty && !screen.isBusy)
        #expect(driver.events.names == ["insertion_started"])
        #expect(driver.events.events.first?["flow"] == .string("WizardInsertionCoordinator"))
    }

    @Test func theGroupStepShowsTheTreeOneLevelAtATime() throws {
        let driver = try Driver()
        try driver.startInsertion()
        try driver.send(.edit(fieldID: "text", text: "Mountain bike"))
        try driver.send(.press(buttonID: "next"))
        var screen = try driver.screen
        #expect(screen.name == "wizard-group" && screen.context == nil)
        #expect(screen.title == "Step 2 of 3: Group")
        #expect(screen.items.map(\.title) == ["Bicycles", "Cars"])
        #expect(screen.items.map(\.kind) == [.drillDown, .choice])
        #expect(screen.items.map(\.value) == ["Bicycles", "Cars"])
        #expect(screen.items.allSatisfy { !$0.isSelected })
        #expect(screen.fields.isEmpty && screen.buttons.isEmpty)
        try driver.send(.select(itemID: "1"))
        screen = try driver.screen
        #expect(screen.context == "Bicycles")
        #expect(screen.items.map(\.title) == ["Off road bikes", "Racers"])
        #expect(screen.items.map(\.kind) == [.drillDown, .choice])
        try driver.send(.select(itemID: "2"))
        screen = try driver.screen
        #expect(driver.state == "adverts > wizard-title > wizard-group > wizard-group(Bicycles) > wizard-group(Off road bikes)")
        #expect(screen.items.map(\.value) == ["Trail bikes", "Mountain bikes"])
        #expect(screen.items.map(\.kind) == [.choice, .choice])
        #expect(driver.events.names == ["insertion_started"])
    }

    @Test func theReviewShowsTitleAndGroupAndASubmitPublish() throws {
        let driver = try Driver()
        try driver.reachReview()
        let screen = try driver.screen
        #expect(driver.state == Self.reviewState)
        #expect(screen.name == "wizard-review")
        #expect(screen.title == "Step 3 of 3: Review")
        #expect(screen.body == ["Title: Mountain bike", "Group: Bicycles › Off road bikes › Mountain bikes"])
        #expect(screen.buttons == [ScreenButton(id: "publish", title: "Publish", role: .submit)])
        #expect(screen.items.isEmpty && screen.fields.isEmpty)
    }

    // MARK: Publishing

    @Test func publishingFromTheReviewPublishesThroughTheMarketplaceInteractor() throws {
        let driver = try Driver()
        try driver.reachReview()
        try driver.send(.press(buttonID: "publish"))
        #expect(driver.state == "adverts")
        #expect(driver.events.names == ["insertion_started", "advert_published", "insertion_completed"])
        let published = try #require(driver.events.events.first { $0.name == "advert_published" })
        #expect(published["group"] == .string("4"))
        #expect(published["title"] == .string("Mountain bike"))
        let advert = try #require(try driver.adverts.last)
        #expect(advert.title == "Mountain bike" && advert.groupID == "4")
        #expect(published["advert"] == .string(advert.advertID))
    }

    @Test func aRootLeafGoesStraightToTheReview() throws {
        let driver = try Driver()
        try driver.startInsertion()
        try driver.send(.edit(fieldID: "text", text: "Fiat Panda"))
        try driver.send(.press(buttonID: "next"))
        try driver.send(.select(itemID: "10"))
        #expect(driver.state == "adverts > wizard-title > wizard-group > wizard-review")
        #expect(try driver.screen.body == ["Title: Fiat Panda", "Group: Cars"])
        try driver.send(.press(buttonID: "publish"))
        #expect(try driver.adverts.last?.groupID == "10")
    }

    @Test func aFailedPublishStaysOnTheReviewWithANoteAndCanBeRetried() throws {
        let driver = try Driver()
        try driver.reachReview(title: "Racing bike")
        let service = try driver.advertService
        let before = service.adverts.count
        service.failsPublish = { true }
        try driver.send(.press(buttonID: "publish"))
        #expect(driver.state == Self.reviewState)
        #expect(try driver.screen.body == ["Could not publish advert; try again", "Title: Racing bike",
                                           "Group: Bicycles › Off road bikes › Mountain bikes"])
        #expect(driver.events.names == ["insertion_started", "publish_failed"])
        #expect(driver.events.events.last?["group"] == .string("4"))
        #expect(service.adverts.count == before)
        service.failsPublish = { false }
        try driver.send(.press(buttonID: "publish"))
        #expect(driver.state == "adverts")
        #expect(driver.events.names == ["insertion_started", "publish_failed", "advert_published", "insertion_completed"])
        #expect(service.adverts.count == before + 1)
    }

    // MARK: The title step's rule

    @Test func nextWithoutATitleShowsANoteAndStays() throws {
        let driver = try Driver()
        try driver.startInsertion()
        try driver.send(.press(buttonID: "next"))
        #expect(driver.state == "adverts > wizard-title")
        #expect(try driver.screen.body == ["Type a title for your advert"])
        try driver.send(.edit(fieldID: "text", text: "   "))
        try driver.send(.press(buttonID: "next"))
        #expect(driver.state == "adverts > wizard-title")
        #expect(try driver.screen.body == ["Type a title for your advert"])
        try driver.send(.edit(fieldID: "text", text: "Trail bike"))
        try driver.send(.press(buttonID: "next"))
        #expect(try driver.screen.name == "wizard-group")
        try driver.back()
        #expect(try driver.screen.body.isEmpty, "the note is gone once a title is given")
        #expect(try driver.screen.fields.first?.value == "Trail bike")
        #expect(driver.events.names == ["insertion_started"])
    }

    // MARK: Back, one step at a time

    @Test func backFromTheReviewReturnsToTheLevelWithTheChosenGroupSelected() throws {
        let driver = try Driver()
        try driver.reachReview()
        try driver.back()
        #expect(driver.state == "adverts > wizard-title > wizard-group > wizard-group(Bicycles) > wizard-group(Off road bikes)")
        #expect(try driver.screen.items.filter(\.isSelected).map(\.id) == ["4"])
        try driver.send(.select(itemID: "3"))
        #expect(driver.state == Self.reviewState)
        #expect(try driver.screen.body == ["Title: Mountain bike", "Group: Bicycles › Off road bikes › Trail bikes"])
        try driver.send(.press(buttonID: "publish"))
        #expect(try driver.adverts.last?.groupID == "3")
        #expect(driver.events.names == ["insertion_started", "advert_published", "insertion_completed"])
    }

    @Test func backFromALevelGoesUpTheTreeThenToTheTitleStep() throws {
        let driver = try Driver()
        try driver.reachReview()
        try driver.back()
        try driver.back()
        #expect(try driver.screen.context == "Bicycles")
        try driver.back()
        #expect(driver.state == "adverts > wizard-title > wizard-group")
        #expect(try driver.screen.items.map(\.title) == ["Bicycles", "Cars"])
        try driver.back()
        #expect(driver.state == "adverts > wizard-title")
        #expect(try driver.screen.fields.first?.value == "Mountain bike")
        // Forward again: the title is kept, and the levels are fresh.
        try driver.send(.press(buttonID: "next"))
        try driver.send(.select(itemID: "1"))
        try driver.send(.select(itemID: "5"))
        #expect(try driver.screen.body == ["Title: Mountain bike", "Group: Bicycles › Racers"])
        #expect(driver.events.names == ["insertion_started"])
    }

    @Test func backFromTheTitleStepCancelsTheFlow() throws {
        let driver = try Driver()
        try driver.startInsertion()
        try driver.send(.edit(fieldID: "text", text: "Unfinished"))
        try driver.back()
        #expect(driver.state == "adverts")
        #expect(driver.events.names == ["insertion_started", "insertion_cancelled"])
        #expect(try driver.adverts.allSatisfy { $0.title != "Unfinished" })
    }

    @Test func aCancelledWizardStartsAfreshNextTime() throws {
        let driver = try Driver()
        try driver.startInsertion()
        try driver.send(.edit(fieldID: "text", text: "First try"))
        try driver.send(.press(buttonID: "next"))
        try driver.back()
        try driver.back()
        try driver.startInsertion()
        #expect(try driver.screen.fields.first?.value == "")
        #expect(driver.events.names == ["insertion_started", "insertion_cancelled", "insertion_started"])
    }

    // MARK: Tablet

    @Test func onATabletTheHostsCancelCancelsFromTheFirstStep() throws {
        let driver = try Driver(platform: "tablet")
        try driver.startInsertion()
        #expect(try driver.screen.buttons.map(\.title) == ["Cancel", "Next"])
        #expect(try driver.screen.buttons.map(\.role) == [.cancel, .primary])
        try driver.send(.press(buttonID: Panel.leftButtonID))
        #expect(driver.events.names == ["insertion_started", "insertion_cancelled"])
        #expect(try driver.screen.name == "adverts")
    }

    @Test func onATabletTheWizardRunsInTheModalAndBackMovesOneStep() throws {
        let driver = try Driver(platform: "tablet")
        try driver.reachReview()
        #expect(try driver.screen.name == "wizard-review")
        try driver.back()
        try driver.back()
        try driver.back()
        try driver.back()
        #expect(try driver.screen.name == "wizard-title")
        #expect(!driver.session.window.canGoBack, "the first step leaves through Cancel")
        try driver.send(.press(buttonID: "next"))
        try driver.send(.select(itemID: "10"))
        try driver.send(.press(buttonID: "publish"))
        #expect(driver.events.names == ["insertion_started", "advert_published", "insertion_completed"])
        #expect(try driver.screen.name == "adverts")
    }

    // MARK: Controls

    @Test func eachStepRefusesControlsItDoesNotHave() throws {
        let driver = try Driver()
        try driver.startInsertion()
        #expect(throws: UserInputError.self) { try driver.send(.press(buttonID: "publish")) }
        #expect(throws: UserInputError.self) { try driver.send(.select(itemID: "1")) }
        try driver.send(.edit(fieldID: "text", text: "Bike"))
        try driver.send(.press(buttonID: "next"))
        #expect(throws: UserInputError.self) { try driver.send(.select(itemID: "4")) }
        #expect(throws: UserInputError.self) { try driver.send(.press(buttonID: "next")) }
        #expect(throws: UserInputError.self) { try driver.send(.edit(fieldID: "text", text: "x")) }
        try driver.send(.select(itemID: "10"))
        #expect(throws: UserInputError.self) { try driver.send(.press(buttonID: "next")) }
        #expect(throws: UserInputError.self) { try driver.send(.select(itemID: "10")) }
    }
}

/// The second plugin loads through the host like the first, beside it, and declares what it emits.
@Suite struct WizardInsertionLoadingTests {
    @Test func loadsTheWizardPluginAndRegistersItsFeatureByName() throws {
        let registry = try BuiltInModules.registry()
        let loaded = try PluginLoader.load([Build.wizardPlugin], into: registry)
        #expect(loaded.map(\.module) == ["WizardInsertionPlugin"])
        let module = try #require(registry.modules.last)
        #expect(module.name == "WizardInsertionPlugin")
        #expect(module.origin == Build.wizardPlugin)
        #expect(module.remixKit == RemixKitInstance.shared.id)
        let feature = try registry.feature(named: "WizardInsertion")
        #expect(feature.role == InsertionRole.name)
        #expect(feature.module == "WizardInsertionPlugin")
        #expect(feature.events == InsertionEvents.publishing)
        try registry.check(feature: "WizardInsertion", fills: MarketplaceModule.insertionSlot, of: "marketplace")
        #expect(registry.problems().isEmpty)
    }

    @Test func bothExamplePluginsLoadFromTheBuildFolderInNameOrder() throws {
        let files = try PluginLoader.pluginFiles(in: [Build.folder])
        #expect(files.contains(Build.wizardPlugin))
        let registry = try BuiltInModules.registry()
        let loaded = try PluginLoader.load(files, into: registry)
        #expect(loaded.map(\.module).suffix(2) == ["QuickInsertionPlugin", "WizardInsertionPlugin"])
        let listing = FeatureListing(registry: registry).text
        #expect(listing.contains("WizardInsertionPlugin (\(Build.wizardPlugin))"))
        #expect(listing.contains("WizardInsertion [insertion] — Insert an advert in three steps"))
        #expect(listing.contains("can be filled by: ManualGroupInsertion, AutoGroupInsertion, AlternatingInsertion, "
                                 + "QuickInsertion, WizardInsertion"))
    }

    @Test func aFeatureMadeByThePluginCastsToTheHostsFlowFeature() throws {
        let registry = try Build.registry(loading: [Build.wizardPlugin])
        let session = try AppSession(app: "marketplace", registry: registry, chooser: FixedSlotChooser(
            fillers: [MarketplaceModule.insertionSlot: "WizardInsertion"]))
        let feature = try registry.feature(named: "WizardInsertion").make(in: session.environment)
        #expect(feature is any FlowFeature)
        #expect(try mappedFiles(endingWith: "/libWizardInsertionPlugin.so") == [Build.wizardPlugin])
        #expect(try mappedFiles(endingWith: "/libRemixFeatures.so").count == 1)
    }
}
