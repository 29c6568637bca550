import Classifieds
import RemixKit
import Testing

/// Records what a group selection reports.
final class SelectionDelegateSpy: GroupSelectionCoordinatorDelegate {
    enum Report: Equatable {
        case selected(GroupID?)
        case cancelled
    }

    private(set) var reports: [Report] = []

    func didSelect(groupID: GroupID?) { reports.append(.selected(groupID)) }
    func didCancelSelection() { reports.append(.cancelled) }
}

/// The seed's group tree: Bicycles (Off road bikes (Trail, Mountain), Racers), Cars.
func seedGroups() -> [Group] {
    [
        Group(groupID: "1", children: ["2", "5"], title: "Bicycles"),
        Group(groupID: "2", parent: "1", children: ["3", "4"], title: "Off road bikes"),
        Group(groupID: "3", parent: "2", title: "Trail bikes"),
        Group(groupID: "4", parent: "2", title: "Mountain bikes"),
        Group(groupID: "5", parent: "1", title: "Racers"),
        Group(groupID: "10", title: "Cars"),
    ]
}

/// Group selection driven through its headless views, as a user would.
@Suite struct GroupSelectionCoordinatorTests {
    let window = Window(clock: VirtualClock())
    let navigation: any NavigationWireframe
    let service = InMemoryGroupService(groups: seedGroups())
    let coordinator: GroupSelectionCoordinator
    let spy = SelectionDelegateSpy()

    /// The selection runs on top of a host screen, as Marketplace's filter does.
    init() {
        navigation = window.makeNavigation()
        window.setRoot(navigation)
        navigation.push(HeadlessItemDetailView())
        coordinator = GroupSelectionFeature(groupService: service).makeCoordinator(navigation: navigation)
        coordinator.delegate = spy
        coordinator.start()
    }

    private var front: Panel {
        get throws { try #require(window.panels.last) }
    }

    private func select(_ id: GroupID) throws {
        try window.send(.select(itemID: id), to: front)
    }

    private func pressReset() throws {
        try window.send(.press(buttonID: "reset"), to: front)
    }

    @Test func startPushesTheRootLevel() throws {
        #expect(window.state.description == "item > groups")
        let content = try front.content
        #expect(content.title == "Select group")
        #expect(content.items == [ScreenItem(id: "1", title: "Bicycles", kind: .drillDown, value: "Bicycles"),
                                  ScreenItem(id: "10", title: "Cars", kind: .choice, value: "Cars")])
        #expect(content.items.map(\.hasChildren) == [true, false])
        #expect(content.buttons == [ScreenButton(id: "reset", title: "Reset", role: .destructive)])
        let view = try #require(front.view as? HeadlessGroupSelectionView)
        #expect(view.viewData.parentTitle == nil)
    }

    @Test func selectingAParentPushesALevelTitledByIt() throws {
        try select("1")
        #expect(window.state.description == "item > groups > groups(Bicycles)")
        let view = try #require(front.view as? HeadlessGroupSelectionView)
        #expect(view.viewData == GroupSelectionViewData(
            title: "Select group", parentTitle: "Bicycles",
            items: [.init(groupID: "2", title: "Off road bikes", hasChildren: true),
                    .init(groupID: "5", title: "Racers", hasChildren: false)]))
        try select("2")
        #expect(window.state.description == "item > groups > groups(Bicycles) > groups(Off road bikes)")
        #expect(try front.content.items.map(\.title) == ["Trail bikes", "Mountain bikes"])
        #expect(spy.reports.isEmpty)
    }

    @Test func selectingALeafReportsItAndPushesNothing() throws {
        try select("1")
        try select("2")
        try select("4")
        #expect(spy.reports == [.selected("4")])
        #expect(window.state.description == "item > groups > groups(Bicycles) > groups(Off road bikes)")
    }

    @Test func selectingARootLeafReportsIt() throws {
        try select("10")
        #expect(spy.reports == [.selected("10")])
        #expect(window.state.description == "item > groups")
    }

    @Test func resetReportsNilOnAnyLevel() throws {
        try pressReset()
        try select("1")
        try pressReset()
        #expect(spy.reports == [.selected(nil), .selected(nil)])
    }

    @Test func backOnTheRootLevelCancels() throws {
        try window.goBack()
        #expect(spy.reports == [.cancelled])
        #expect(window.state.description == "item")
    }

    @Test func backOnADeeperLevelIsIgnored() throws {
        try select("1")
        try select("2")
        try window.goBack()
        try window.goBack()
        #expect(spy.reports.isEmpty)
        #expect(window.state.description == "item > groups")
        try window.goBack()
        #expect(spy.reports == [.cancelled])
    }

    @Test func selectingAGroupThatNoLongerExistsCancels() throws {
        service.groups.removeAll { $0.groupID == "10" }
        try select("10")
        #expect(spy.reports == [.cancelled])
    }

    @Test func rowsNotOnTheLevelAreRefused() throws {
        #expect(throws: UserInputError.self) { try select("5") }
        #expect(spy.reports.isEmpty)
    }

    @Test func eachLevelListsTheServicesCurrentGroups() throws {
        service.groups.append(Group(groupID: "6", parent: "1", title: "Tandems"))
        try select("1")
        #expect(try front.content.items.map(\.id) == ["2", "5", "6"])
    }
}
