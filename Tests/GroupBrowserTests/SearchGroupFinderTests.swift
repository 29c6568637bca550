import Classifieds
import GroupBrowser
import RemixHost
import RemixKit
import Testing

/// GroupBrowser with SearchGroupFinder in its `navigation` slot: find a group by name, open it.
@Suite struct SearchGroupFinderTests {
    @Test func startsOnTheSearchScreenListingEveryLeafGroup() throws {
        let app = try GroupBrowserDriver(finder: "SearchGroupFinder")
        #expect(app.state == "search")
        let content = try app.front.content
        #expect(content.title == "Find group")
        #expect(content.items.map(\.title) == ["Trail bikes", "Mountain bikes", "Racers", "Cars"])
        #expect(content.body.isEmpty)
        #expect(!app.window.canGoBack)
    }

    @Test func screenDeclaresAQueryFieldChoiceRowsAndADestructiveClear() throws {
        let app = try GroupBrowserDriver(finder: "SearchGroupFinder")
        let content = try app.front.content
        #expect(content.fields.map(\.id) == ["query"])
        #expect(content.fields.map(\.purpose) == [.query])
        #expect(content.items.allSatisfy { $0.kind == .choice })
        #expect(content.items.map(\.value) == content.items.map(\.title))
        #expect(content.buttons.map(\.id) == ["clear"])
        #expect(content.buttons.map(\.role) == [.destructive])
        #expect(!content.isBusy)
    }

    @Test func typingNarrowsTheListIgnoringCaseAndSpaces() throws {
        let app = try GroupBrowserDriver(finder: "SearchGroupFinder")
        try app.search(" BIKES ")
        #expect(try app.rows == ["Trail bikes", "Mountain bikes"])
        try app.search("moun")
        #expect(try app.rows == ["Mountain bikes"])
        #expect(try app.front.content.fields.first?.value == "moun")
        #expect(app.events.events.isEmpty)
    }

    @Test func choosingAResultOpensItsDetailAndRecordsTheView() throws {
        let app = try GroupBrowserDriver(finder: "SearchGroupFinder")
        try app.search("racer")
        try app.tap("Racers")
        #expect(app.state == "search > item(Racers)")
        #expect(try app.front.content.title == "Racers")
        #expect(app.events.events == [DomainEvent("group_found", [EventField("query", .string("racer")),
                                                                  EventField("group", .string("5"))]),
                                      DomainEvent("group_viewed", [EventField("group", .string("5"))])])
    }

    @Test func parentGroupsAreNotResults() throws {
        let app = try GroupBrowserDriver(finder: "SearchGroupFinder")
        try app.search("bicycles")
        #expect(try app.rows.isEmpty)
    }

    @Test func aQueryThatMatchesNothingSaysSoAndRecordsTheMiss() throws {
        let app = try GroupBrowserDriver(finder: "SearchGroupFinder")
        try app.search("tricycle")
        let content = try app.front.content
        #expect(content.items.isEmpty)
        #expect(content.body == ["No group matches “tricycle”"])
        #expect(app.events.events == [DomainEvent("group_search_missed", [EventField("query", .string("tricycle"))])])
        try app.search("   ")
        #expect(try app.rows.count == 4)
        #expect(app.events.names == ["group_search_missed"])
    }

    @Test func clearEmptiesTheQueryAndListsEveryLeafAgain() throws {
        let app = try GroupBrowserDriver(finder: "SearchGroupFinder")
        try app.search("cars")
        try app.window.send(.press(buttonID: "clear"), to: app.front)
        let view = try #require(app.front.view as? HeadlessGroupSearchView)
        #expect(view.viewData.query == "")
        #expect(view.viewData.results.count == 4)
    }

    @Test func backFromTheDetailKeepsTheQuery() throws {
        let app = try GroupBrowserDriver(finder: "SearchGroupFinder")
        try app.search("cars")
        try app.tap("Cars")
        try app.window.goBack()
        #expect(app.state == "search")
        #expect(try app.rows == ["Cars"])
        try app.tap("Cars")
        #expect(app.events.names == ["group_found", "group_viewed", "group_found", "group_viewed"])
        #expect(app.events.events.filter { $0.name == "group_found" }.allSatisfy {
            $0.fields.first == EventField("query", .string("cars"))
        })
    }

    @Test func unknownInputIsRefused() throws {
        let app = try GroupBrowserDriver(finder: "SearchGroupFinder")
        let panel = try app.front
        #expect(throws: UserInputError.self) { try app.window.send(.select(itemID: "1"), to: panel) }
        #expect(throws: UserInputError.self) { try app.window.send(.press(buttonID: "reset"), to: panel) }
    }

    @Test func fakeViewDrivesTheCoordinatorThroughItsDelegate() throws {
        let app = try GroupBrowserDriver(finder: "SearchGroupFinder")
        let view = try #require(app.front.view as? HeadlessGroupSearchView)
        view.delegate?.didChange(query: "trail")
        #expect(view.viewData.results.map(\.groupID) == ["3"])
        view.delegate?.didSelect(groupID: "3")
        #expect(app.state == "search > item(Trail bikes)")
    }

    @Test func runsTheSameOnTablet() throws {
        let app = try GroupBrowserDriver(platform: "tablet", finder: "SearchGroupFinder")
        try app.tap("Mountain bikes")
        #expect(app.state == "search > item(Mountain bikes)")
    }
}

/// GroupBrowser's default `navigation` filler.
@Suite struct TreeGroupFinderTests {
    @Test func theTreeFinderIsTodaysBrowser() throws {
        let app = try GroupBrowserDriver(finder: "TreeGroupFinder")
        try app.tap("Bicycles")
        try app.tap("Racers")
        #expect(app.state == "groups > groups(Bicycles) > item(Racers)")
    }
}
