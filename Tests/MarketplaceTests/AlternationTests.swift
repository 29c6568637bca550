import Classifieds
import Marketplace
import RemixHost
import RemixKit
import Testing

/// Alternation (seed §2.3): the default filler of the insertion slot hands out Manual, Auto,
/// Manual, Auto, … per started attempt, cancelled attempts included. Observed by the first screen
/// of each attempt: `groups` for Manual, `title` for Auto.
@Suite("Alternating insertion and the slot's exposure hook")
struct AlternationTests {
    /// Starts an attempt, returns the name of its first screen, and cancels it.
    func firstScreenOfCancelledAttempt(_ app: MarketplaceDriver) throws -> String {
        try app.startInsertion()
        return try cancelAttemptOnScreen(app)
    }

    /// Cancels the attempt on screen (back on phone, "Cancel" on tablet) and returns its screen's name.
    func cancelAttemptOnScreen(_ app: MarketplaceDriver) throws -> String {
        let screen = app.window.state.topScreen?.name ?? "-"
        if app.window.canGoBack {
            try app.back()
        } else {
            try app.press("Cancel", on: screen)
        }
        return screen
    }

    @Test func defaultSlotFillerIsAlternatingInsertion() throws {
        let app = try MarketplaceDriver()
        #expect(try app.session.environment.slot("insertion").featureName == InsertionFlow.alternating)
    }

    @Test(arguments: ["phone", "tablet"])
    func cancelledAttemptsAlternateManualAutoManualAuto(platform: String) throws {
        let app = try MarketplaceDriver(platform: platform)
        var screens: [String] = []
        for _ in 0..<5 { screens.append(try firstScreenOfCancelledAttempt(app)) }
        #expect(screens == ["groups", "title", "groups", "title", "groups"])
        #expect(app.events(named: "insertion_cancelled").count == 5)
        #expect(app.events(named: "insertion_started").map { $0["flow"] } == [
            "ManualGroupInsertionCoordinator", "AutoGroupInsertionCoordinator", "ManualGroupInsertionCoordinator",
            "AutoGroupInsertionCoordinator", "ManualGroupInsertionCoordinator",
        ].map(EventValue.string))
    }

    @Test func publishedAndCancelledAttemptsBothCount() throws {
        let app = try MarketplaceDriver()
        // 1: Manual, published.
        try app.startInsertion()
        #expect(app.state == "adverts > groups")
        try app.select("Cars", on: "groups")
        try app.enterTitle("Mini")
        #expect(app.state == "adverts")
        // 2: Auto, cancelled.
        try app.startInsertion()
        #expect(app.state == "adverts > title")
        try app.back()
        // 3: Manual, cancelled.
        try app.startInsertion()
        #expect(app.state == "adverts > groups")
        try app.back()
        // 4: Auto, published.
        try app.startInsertion()
        #expect(app.state == "adverts > title")
        try app.enterTitle("Trail bike")
        app.session.waitWhileBlocked()
        #expect(try app.advertRows().suffix(2) == ["Mini | Cars", "Trail bike | Trail bikes"])
        // 5: Manual again.
        try app.startInsertion()
        #expect(app.state == "adverts > groups")
    }

    @Test func customFlowsOrderIsFollowed() throws {
        let app = try MarketplaceDriver(
            flow: InsertionFlow.alternating,
            parameters: ["flows": .string("AutoGroupInsertion, ManualGroupInsertion")])
        var screens: [String] = []
        for _ in 0..<3 { screens.append(try firstScreenOfCancelledAttempt(app)) }
        #expect(screens == ["title", "groups", "title"])
    }

    @Test func aSingleFlowIsAlwaysHandedOut() throws {
        let app = try MarketplaceDriver(flow: InsertionFlow.alternating,
                                        parameters: ["flows": .string("ManualGroupInsertion")])
        var screens: [String] = []
        for _ in 0..<3 { screens.append(try firstScreenOfCancelledAttempt(app)) }
        #expect(screens == ["groups", "groups", "groups"])
    }

    // MARK: Exposure hook

    @Test(arguments: ["phone", "tablet"])
    func onFirstUseRunsOnceOnTheFirstNewAdvertTapNotAtSessionStart(platform: String) throws {
        let chooser = FixedSlotChooser(InsertionFlow.alternating)
        let app = try MarketplaceDriver(platform: platform, chooser: chooser)
        #expect(chooser.asked == 1)
        #expect(chooser.firstUses == 0)
        try app.select("Specialized", on: "adverts")
        if platform == "phone" { try app.back() }
        #expect(chooser.firstUses == 0)
        try app.startInsertion()
        #expect(chooser.firstUses == 1)
        _ = try cancelAttemptOnScreen(app)
        for _ in 0..<3 { _ = try firstScreenOfCancelledAttempt(app) }
        #expect(chooser.firstUses == 1)
        #expect(chooser.asked == 1)
    }

    @Test func filteringDoesNotCountAsExposure() throws {
        let chooser = FixedSlotChooser(InsertionFlow.manual)
        let app = try MarketplaceDriver(platform: "phone", chooser: chooser)
        try app.openFilters()
        try app.select("Cars", on: "filter")
        #expect(chooser.firstUses == 0)
        try app.startInsertion()
        #expect(chooser.firstUses == 1)
    }
}
