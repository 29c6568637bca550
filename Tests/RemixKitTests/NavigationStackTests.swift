import RemixKit
import Testing

/// The headless navigation stack: push, pop checkpoints, user back and the left button.
@Suite struct NavigationStackTests {
    @Test func pushPutsViewsOnTopInOrder() {
        let (window, navigation, views) = makeStackWindow("a", "b", "c")
        #expect(window.state.description == "a > b > c")
        #expect(navigation.topView === views[2])
        #expect(window.panels.count == 1)
        #expect(window.panels.first?.view === views[2])
    }

    @Test func popToLastCheckpointReturnsToTheTopRecordedBySetPopCheckpoint() {
        let (window, navigation, _) = makeStackWindow("a", "b")
        navigation.setPopCheckpoint()
        navigation.push(TestView("c"))
        navigation.push(TestView("d"))
        navigation.popToLastCheckpoint()
        #expect(window.state.description == "a > b")
    }

    @Test func popToLastCheckpointDropsTheCheckpointItUsed() {
        let (window, navigation, _) = makeStackWindow("a", "b")
        navigation.setPopCheckpoint()
        navigation.push(TestView("c"))
        navigation.popToLastCheckpoint()
        navigation.push(TestView("d"))
        // The checkpoint at b is gone, so this pops to the root.
        navigation.popToLastCheckpoint()
        #expect(window.state.description == "a")
    }

    @Test func checkpointsNestAndUnwindLatestFirst() {
        let (window, navigation, _) = makeStackWindow("a", "b")
        navigation.setPopCheckpoint()
        navigation.push(TestView("c"))
        navigation.setPopCheckpoint()
        navigation.push(TestView("d"))
        navigation.popToLastCheckpoint()
        #expect(window.state.description == "a > b > c")
        navigation.push(TestView("e"))
        navigation.popToLastCheckpoint()
        #expect(window.state.description == "a > b")
    }

    @Test func popToLastCheckpointWithoutCheckpointPopsToTheRoot() {
        let (window, navigation, views) = makeStackWindow("a", "b", "c")
        navigation.popToLastCheckpoint()
        #expect(window.state.description == "a")
        #expect(navigation.topView === views[0])
    }

    @Test func setPopCheckpointOnAnEmptyStackIsANoOp() {
        let window = Window(clock: VirtualClock())
        let navigation = window.makeNavigation()
        window.setRoot(navigation)
        navigation.setPopCheckpoint()
        for name in ["a", "b"] { navigation.push(TestView(name)) }
        navigation.setPopCheckpoint()
        navigation.push(TestView("c"))
        navigation.popToLastCheckpoint()
        #expect(window.state.description == "a > b")
        navigation.push(TestView("d"))
        // Only b was recorded; with it gone the stack pops to the root.
        navigation.popToLastCheckpoint()
        #expect(window.state.description == "a")
    }

    @Test func unsetPopCheckpointDropsTheLatestCheckpointOnly() {
        let (window, navigation, _) = makeStackWindow("a", "b")
        navigation.setPopCheckpoint()
        navigation.push(TestView("c"))
        navigation.setPopCheckpoint()
        navigation.push(TestView("d"))
        navigation.unsetPopCheckpoint()
        navigation.popToLastCheckpoint()
        #expect(window.state.description == "a > b")
    }

    @Test func unsetPopCheckpointWithoutCheckpointsChangesNothing() {
        let (window, navigation, _) = makeStackWindow("a", "b", "c")
        navigation.unsetPopCheckpoint()
        #expect(window.state.description == "a > b > c")
        navigation.popToLastCheckpoint()
        #expect(window.state.description == "a")
    }

    @Test func userBackPopsTheTopAndTellsThePoppedView() throws {
        let (window, navigation, views) = makeStackWindow("a", "b", "c")
        #expect(window.canGoBack)
        try window.goBack()
        #expect(window.state.description == "a > b")
        #expect(navigation.topView === views[1])
        #expect(views.map(\.backCount) == [0, 0, 1])
        try window.goBack()
        #expect(views.map(\.backCount) == [0, 1, 1])
    }

    @Test func programmaticPopsDoNotTellThePoppedViews() {
        let (window, navigation, views) = makeStackWindow("a", "b")
        navigation.setPopCheckpoint()
        let pushed = [TestView("c"), TestView("d")]
        for view in pushed { navigation.push(view) }
        navigation.popToLastCheckpoint()
        navigation.popToLastCheckpoint()
        #expect(window.state.description == "a")
        #expect((views + pushed).allSatisfy { $0.backCount == 0 })
    }

    @Test func cannotGoBackFromARoot() {
        let (window, _, views) = makeStackWindow("a")
        #expect(!window.canGoBack)
        #expect(throws: NavigationError.cannotGoBack) { try window.goBack() }
        #expect(window.state.description == "a")
        #expect(views[0].backCount == 0)
    }

    @Test func cannotGoBackInAnEmptyWindow() {
        let window = Window(clock: VirtualClock())
        #expect(window.panels.isEmpty)
        #expect(throws: NavigationError.cannotGoBack) { try window.goBack() }
    }

    @Test func leftButtonAppearsFirstOnTheTopViewAndRunsItsAction() throws {
        let (window, navigation, views) = makeStackWindow("a")
        views[0].buttons = [ScreenButton(id: "next", title: "Next")]
        var pressed = 0
        navigation.setLeftButton(title: "Cancel") { pressed += 1 }
        let panel = try #require(window.panels.first)
        #expect(panel.content.buttons == [ScreenButton(id: Panel.leftButtonID, title: "Cancel", role: .cancel),
                                          ScreenButton(id: "next", title: "Next")])
        try window.send(.press(buttonID: Panel.leftButtonID), to: panel)
        #expect(pressed == 1)
        #expect(views[0].received.isEmpty)
        try window.send(.press(buttonID: "next"), to: panel)
        #expect(pressed == 1)
        #expect(views[0].received == [.press(buttonID: "next")])
    }

    @Test func leftButtonBelongsToTheViewThatWasOnTopWhenItWasSet() throws {
        let (window, navigation, _) = makeStackWindow("a", "b")
        navigation.setLeftButton(title: "Cancel") {}
        navigation.push(TestView("c"))
        #expect(window.panels.first?.content.buttons.isEmpty == true)
        try window.goBack()
        #expect(window.panels.first?.content.buttons.map(\.id) == [Panel.leftButtonID])
        try window.goBack()
        #expect(window.panels.first?.content.buttons.isEmpty == true)
    }

    @Test func aLeftButtonSetAgainReplacesTheFirstAndGoesWithItsView() throws {
        let (window, navigation, _) = makeStackWindow("a", "b")
        var pressed: [String] = []
        navigation.setLeftButton(title: "Cancel") { pressed.append("cancel") }
        navigation.setLeftButton(title: "Close") { pressed.append("close") }
        let panel = try #require(window.panels.first)
        #expect(panel.content.buttons.map(\.title) == ["Close"])
        try window.send(.press(buttonID: Panel.leftButtonID), to: panel)
        #expect(pressed == ["close"])
        navigation.setPopCheckpoint()
        navigation.push(TestView("c"))
        navigation.setLeftButton(title: "Cancel") {}
        navigation.popToLastCheckpoint()
        #expect(window.panels.first?.content.buttons.map(\.title) == ["Close"])
        try window.goBack()
        #expect(window.panels.first?.content.buttons.isEmpty == true)
    }

    @Test func pressingLeftButtonIdWithoutLeftButtonGoesToTheView() throws {
        let (window, _, _) = makeStackWindow("a")
        let panel = try #require(window.panels.first)
        #expect(throws: UserInputError.self) {
            try window.send(.press(buttonID: Panel.leftButtonID), to: panel)
        }
    }
}
