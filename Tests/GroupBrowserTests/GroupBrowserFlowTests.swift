import Classifieds
import GroupBrowser
import RemixHost
import RemixKit
import Testing

/// GroupBrowser end to end: browse the tree, open leaf groups, Reset and back.
@Suite struct GroupBrowserFlowTests {
    @Test func rootListsTheRootGroups() throws {
        let app = try GroupBrowserDriver()
        #expect(app.state == "groups")
        let content = try app.front.content
        #expect(content.title == "Select group")
        #expect(content.items.map(\.title) == ["Bicycles", "Cars"])
        #expect(content.items.map(\.hasChildren) == [true, false])
        #expect(!app.window.canGoBack)
    }

    @Test func groupRowsDrillDownOrCompleteTheChoiceAndResetIsDestructive() throws {
        let app = try GroupBrowserDriver()
        let root = try app.front.content
        #expect(root.items.map(\.kind) == [.drillDown, .choice])
        #expect(root.items.map(\.value) == ["Bicycles", "Cars"])
        #expect(root.buttons.map(\.role) == [.destructive])
        try app.tap("Bicycles")
        try app.tap("Racers")
        let detail = try app.front.content
        #expect(detail.items.isEmpty && detail.fields.isEmpty && detail.buttons.isEmpty)
        #expect(!detail.isBusy)
    }

    @Test func drillingIntoBicyclesListsItsChildren() throws {
        let app = try GroupBrowserDriver()
        try app.tap("Bicycles")
        #expect(app.state == "groups > groups(Bicycles)")
        #expect(try app.rows == ["Off road bikes", "Racers"])
        try app.tap("Off road bikes")
        #expect(app.state == "groups > groups(Bicycles) > groups(Off road bikes)")
        #expect(try app.rows == ["Trail bikes", "Mountain bikes"])
        #expect(app.events.events.isEmpty)
    }

    @Test func selectingALeafOpensItsDetailAndRecordsTheView() throws {
        let app = try GroupBrowserDriver()
        try app.tap("Bicycles")
        try app.tap("Racers")
        #expect(app.state == "groups > groups(Bicycles) > item(Racers)")
        let view = try #require(app.front.view as? HeadlessItemDetailView)
        #expect(view.viewData.title == "Racers")
        #expect(!view.viewData.detail.isEmpty)
        #expect(try app.front.content.body == [view.viewData.detail])
        #expect(app.events.events == [DomainEvent("group_viewed", [EventField("group", .string("5"))])])
    }

    @Test func detailShowsTheCatalogDescription() throws {
        let catalog = try Catalog.load(contentsOf: try #require(GroupBrowserModule.bundledCatalog))
        let app = try GroupBrowserDriver()
        try app.tap("Bicycles")
        try app.tap("Off road bikes")
        try app.tap("Mountain bikes")
        let detail = try #require(app.front.view as? HeadlessItemDetailView).viewData
        #expect(detail == GroupDetailFormatter.prepare(try #require(catalog.groups.first { $0.groupID == "4" })))
        #expect(app.events.events.last?["group"] == .string("4"))
    }

    @Test func carsIsARootLeafAndOpensDirectly() throws {
        let app = try GroupBrowserDriver()
        try app.tap("Cars")
        #expect(app.state == "groups > item(Cars)")
        #expect(try app.front.content.title == "Cars")
        #expect(try app.front.content.body.first?.isEmpty == false)
        #expect(app.events.names == ["group_viewed"])
        #expect(app.events.events.first?["group"] == .string("10"))
    }

    @Test func resetFromADeepLevelReturnsToTheRootList() throws {
        let app = try GroupBrowserDriver()
        try app.tap("Bicycles")
        try app.tap("Off road bikes")
        try app.reset()
        #expect(app.state == "groups")
        #expect(try app.rows == ["Bicycles", "Cars"])
    }

    @Test func resetWorksAgainAfterAReset() throws {
        let app = try GroupBrowserDriver()
        try app.tap("Bicycles")
        try app.reset()
        try app.tap("Bicycles")
        try app.tap("Off road bikes")
        try app.reset()
        #expect(app.state == "groups")
        try app.reset()
        #expect(app.state == "groups")
    }

    @Test func resetOnTheRootStaysOnTheRoot() throws {
        let app = try GroupBrowserDriver()
        try app.reset()
        #expect(app.state == "groups")
        try app.tap("Cars")
        #expect(app.state == "groups > item(Cars)")
    }

    @Test func backFromTheDetailReturnsToTheList() throws {
        let app = try GroupBrowserDriver()
        try app.tap("Bicycles")
        try app.tap("Racers")
        try app.window.goBack()
        #expect(app.state == "groups > groups(Bicycles)")
        #expect(try app.rows == ["Off road bikes", "Racers"])
        try app.tap("Racers")
        #expect(app.state == "groups > groups(Bicycles) > item(Racers)")
        #expect(app.events.names == ["group_viewed", "group_viewed"])
    }

    @Test func backFromALevelGoesUpOneLevel() throws {
        let app = try GroupBrowserDriver()
        try app.tap("Bicycles")
        try app.tap("Off road bikes")
        try app.window.goBack()
        #expect(app.state == "groups > groups(Bicycles)")
        try app.window.goBack()
        #expect(app.state == "groups")
        #expect(!app.window.canGoBack)
        #expect(throws: NavigationError.cannotGoBack) { try app.window.goBack() }
    }

    @Test func detailScreenTakesNoInput() throws {
        let app = try GroupBrowserDriver()
        try app.tap("Cars")
        let panel = try app.front
        #expect(panel.content.buttons.isEmpty)
        #expect(throws: UserInputError.self) { try app.window.send(.press(buttonID: "reset"), to: panel) }
    }

    @Test func runsTheSameOnTablet() throws {
        let app = try GroupBrowserDriver(platform: "tablet")
        try app.tap("Bicycles")
        try app.tap("Racers")
        #expect(app.state == "groups > groups(Bicycles) > item(Racers)")
    }

    @Test func groupSelectionViewsReportToTheirDelegate() throws {
        let app = try GroupBrowserDriver()
        let root = try #require(app.front.view as? HeadlessGroupSelectionView)
        #expect(root.viewData.items.map(\.groupID) == ["1", "10"])
        root.delegate?.didSelect(groupID: "1")
        #expect(app.state == "groups > groups(Bicycles)")
        let level = try #require(app.front.view as? HeadlessGroupSelectionView)
        level.delegate?.didDeselectAll()
        #expect(app.state == "groups")
    }
}

/// GroupBrowser's detail formatter.
@Suite struct GroupDetailFormatterTests {
    @Test func titleAndDetailComeFromTheGroup() {
        let group = Group(groupID: "10", title: "Cars", description: "Four wheels.")
        #expect(GroupDetailFormatter.prepare(group) == ItemDetailViewData(title: "Cars", detail: "Four wheels."))
    }

    @Test func emptyDescriptionGivesEmptyDetail() {
        let group = Group(groupID: "1", children: ["2"], title: "Bicycles")
        #expect(GroupDetailFormatter.prepare(group) == ItemDetailViewData(title: "Bicycles", detail: ""))
    }
}
