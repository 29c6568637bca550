import RemixKit
import Testing

/// Split views, modal presentation, timed presentation and blocking toasts.
@Suite struct WindowPresentationTests {
    @Test func splitShowsMasterAndDetailAndSettingDetailReplacesIt() {
        let window = Window(clock: VirtualClock())
        let split = window.makeSplit()
        let master = window.makeNavigation()
        let list = TestView("list")
        master.push(list)
        split.master = master
        let first = TestView("item", context: "one")
        split.detail = window.makeViewable(first)
        window.setRoot(split)
        #expect(window.state.description == "list | item(one)")
        #expect(window.panels.count == 2)
        #expect(window.panels.first?.view === list)
        #expect(window.panels.last?.view === first)

        let second = TestView("item", context: "two")
        split.detail = window.makeViewable(second)
        #expect(window.state.description == "list | item(two)")
        #expect(window.state.layers == [.split(master: [ScreenID(name: "list")],
                                               detail: [ScreenID(name: "item", context: "two")])])
        #expect(window.panels.count == 2)
        #expect(window.panels.last?.view === second)
    }

    @Test func goingBackInASplitUsesTheMasterStack() throws {
        let window = Window(clock: VirtualClock())
        let split = window.makeSplit()
        let master = window.makeNavigation()
        let (list, groups) = (TestView("list"), TestView("groups"))
        master.push(list)
        master.push(groups)
        split.master = master
        split.detail = window.makeViewable(TestView("item"))
        window.setRoot(split)
        try window.goBack()
        #expect(window.state.description == "list | item")
        #expect(groups.backCount == 1)
    }

    @Test func presentShowsAModalLayerThatTakesTheInput() throws {
        let (window, navigation, _) = makeStackWindow("a", "b")
        let modal = window.makeNavigation()
        let m = TestView("m", buttons: ["ok"])
        modal.push(m)
        navigation.present(modal)
        #expect(window.state.description == "a > b ^ m")
        #expect(window.panels.count == 1)
        let panel = try #require(window.panels.first)
        #expect(panel.view === m)
        try window.send(.press(buttonID: "ok"), to: panel)
        #expect(m.received == [.press(buttonID: "ok")])
        // The modal's stack has one screen, so there is no back.
        #expect(!window.canGoBack)
    }

    @Test func dismissRemovesWhatThatViewablePresentedAndEverythingAbove() {
        let (window, navigation, _) = makeStackWindow("a")
        let modal = window.makeNavigation()
        modal.push(TestView("m"))
        navigation.present(modal)
        let sheet = window.makeViewable(TestView("sheet"))
        modal.present(sheet)
        sheet.present(window.makeViewable(TestView("alert")))
        #expect(window.state.description == "a ^ m ^ sheet ^ alert")

        modal.dismiss()
        #expect(window.state.description == "a ^ m")
        navigation.dismiss()
        #expect(window.state.description == "a")
    }

    @Test func dismissByAViewableThatPresentedNothingChangesNothing() {
        let (window, navigation, _) = makeStackWindow("a")
        let modal = window.makeNavigation()
        modal.push(TestView("m"))
        navigation.present(modal)
        let bystander = window.makeViewable(TestView("other"))
        bystander.dismiss()
        modal.dismiss()
        #expect(window.state.description == "a ^ m")
    }

    @Test func timedPresentationDismissesItselfAfterExactlyTheDuration() {
        let clock = VirtualClock()
        let (window, navigation, _) = makeStackWindow("a", clock: clock)
        navigation.present(window.makeViewable(TestView("note")), for: .seconds(2))
        #expect(window.state.description == "a ^ note")
        clock.advance(by: .milliseconds(1999))
        #expect(window.state.description == "a ^ note")
        clock.advance(by: .milliseconds(1))
        #expect(window.state.description == "a")
        #expect(clock.now == .seconds(2))
        #expect(!clock.hasPendingWork)
    }

    @Test func timedPresentationAlreadyDismissedIsNotDismissedAgain() {
        let clock = VirtualClock()
        let (window, navigation, _) = makeStackWindow("a", clock: clock)
        navigation.present(window.makeViewable(TestView("note")), for: .seconds(2))
        navigation.dismiss()
        let later = window.makeNavigation()
        later.push(TestView("later"))
        navigation.present(later)
        clock.advance(by: .seconds(5))
        #expect(window.state.description == "a ^ later")
    }

    @Test func toastBlocksInputUntilItGoesAway() throws {
        let clock = VirtualClock()
        let (window, navigation, views) = makeStackWindow("a", "b", clock: clock)
        views[1].buttons = [ScreenButton(id: "next", title: "Next")]
        let underneath = try #require(window.panels.first)
        navigation.present(window.makeToast(message: "Autoselecting group..."), for: .seconds(2))

        #expect(window.isBlocked)
        #expect(window.unblockedPanels == nil)
        #expect(window.state.description == "a > b ^ toast(Autoselecting group...)")
        let toast = try #require(window.panels.first)
        #expect(toast.content.title == "Autoselecting group...")
        #expect(toast.content.blocksInput)
        #expect(!toast.content.isBusy)
        #expect(!window.isBusy)
        #expect(throws: NavigationError.blocked) { try window.send(.press(buttonID: "next"), to: underneath) }
        #expect(throws: NavigationError.blocked) { try window.send(.press(buttonID: "next"), to: toast) }
        #expect(!window.canGoBack)
        #expect(throws: NavigationError.cannotGoBack) { try window.goBack() }
        #expect(views[1].received.isEmpty)

        clock.advance(by: .seconds(2))
        #expect(!window.isBlocked)
        #expect(window.unblockedPanels?.map(\.content) == window.panels.map(\.content))
        #expect(window.unblockedPanels?.first?.view === views[1])
        try window.send(.press(buttonID: "next"), to: underneath)
        #expect(views[1].received == [.press(buttonID: "next")])
    }

    @Test func aLoadingToastIsBusyAndBlocksInput() throws {
        let (window, navigation, _) = makeStackWindow("a")
        navigation.present(window.makeLoadingToast(message: "Loading"))
        #expect(window.isBlocked)
        #expect(window.state.description == "a ^ toast(Loading)")
        let toast = try #require(window.panels.first)
        #expect(toast.content.isBusy)
        #expect(toast.content.blocksInput)
        #expect(window.isBusy)
        navigation.dismiss()
        #expect(!window.isBusy)
        #expect(!window.isBlocked)
    }

    @Test func aViewThatBlocksInputBlocksTheWindow() {
        let (window, _, views) = makeStackWindow("a")
        #expect(!window.isBlocked)
        #expect(window.unblockedPanels?.count == 1)
        views[0].blocksInput = true
        #expect(window.isBlocked)
        #expect(window.unblockedPanels == nil)
        // A blocked window still shows its panels.
        #expect(window.panels.first?.view === views[0])
    }
}
