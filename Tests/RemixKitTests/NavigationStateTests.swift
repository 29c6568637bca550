import RemixKit
import Testing

/// The navigation state as a value, and the transitions window observers see.
@Suite struct NavigationStateTests {
    private let a = ScreenID(name: "a")
    private let bWithContext = ScreenID(name: "b", context: "ctx")

    @Test func screenIDDescriptionShowsContextInParentheses() {
        #expect(a.description == "a")
        #expect(bWithContext.description == "b(ctx)")
        #expect(ScreenID(name: "b", context: "").description == "b")
    }

    @Test func stackReadsBottomToTop() {
        let state = NavigationState(layers: [.stack([a, bWithContext])])
        #expect(state.description == "a > b(ctx)")
        #expect(state.topScreen == bWithContext)
    }

    @Test func splitReadsMasterBarDetail() {
        let state = NavigationState(layers: [.split(master: [ScreenID(name: "m")], detail: [ScreenID(name: "d")])])
        #expect(state.description == "m | d")
        #expect(state.topScreen == ScreenID(name: "d"))
    }

    @Test func modalLayersFollowACaret() {
        let state = NavigationState(layers: [.stack([a, bWithContext]), .single(ScreenID(name: "t"))])
        #expect(state.description == "a > b(ctx) ^ t")
        #expect(state.topScreen == ScreenID(name: "t"))
    }

    @Test func emptyStateHasNoTopScreen() {
        #expect(NavigationState(layers: []).description == "")
        #expect(NavigationState(layers: []).topScreen == nil)
    }

    @Test func observerSeesEveryChangeWithItsKindScreenAndState() throws {
        let window = Window(clock: VirtualClock())
        var seen: [String] = []
        window.addTransitionObserver { seen.append($0.description) }
        let navigation = window.makeNavigation()
        window.setRoot(navigation)
        navigation.push(TestView("a"))
        navigation.setPopCheckpoint()
        navigation.push(TestView("b", context: "x"))
        navigation.push(TestView("c"))
        try window.goBack()
        navigation.popToLastCheckpoint()
        let modal = window.makeViewable(TestView("m"))
        navigation.present(modal)
        navigation.dismiss()
        #expect(seen == [
            "show -: ",
            "push a: a",
            "push b(x): a > b(x)",
            "push c: a > b(x) > c",
            "back c: a > b(x)",
            "pop b(x): a",
            "present m: a ^ m",
            "dismiss m: a",
        ])
    }

    @Test func observerSeesKindsAsValues() {
        let clock = VirtualClock()
        let window = Window(clock: clock)
        var transitions: [NavigationTransition] = []
        window.addTransitionObserver { transitions.append($0) }
        let split = window.makeSplit()
        window.setRoot(split)
        split.detail = window.makeViewable(TestView("d"))
        split.present(window.makeToast(message: "hi"), for: .seconds(1))
        clock.advance(by: .seconds(1))
        #expect(transitions.map(\.kind) == [.show, .show, .present, .dismiss])
        #expect(transitions.map(\.screen) == [nil, ScreenID(name: "d"), ScreenID(name: "toast", context: "hi"),
                                              ScreenID(name: "toast", context: "hi")])
        #expect(transitions.last?.state == window.state)
        #expect(transitions[2].state.description == " | d ^ toast(hi)")
    }

    @Test func everyObserverIsCalled() {
        let (window, navigation, _) = makeStackWindow("a")
        var first = 0, second = 0
        window.addTransitionObserver { _ in first += 1 }
        window.addTransitionObserver { _ in second += 1 }
        navigation.push(TestView("b"))
        #expect(first == 1 && second == 1)
    }

    @Test func aStackFilledBeforeItIsShownReportsOneShowWithItsScreens() {
        let window = Window(clock: VirtualClock())
        var seen: [String] = []
        window.addTransitionObserver { seen.append($0.description) }
        let navigation = window.makeNavigation()
        navigation.push(TestView("a"))
        let hidden = window.makeNavigation()
        hidden.push(TestView("h"))
        window.setRoot(navigation)
        navigation.push(TestView("b"))
        #expect(seen == ["show a: a", "push b: a > b"], "changes off screen are not transitions")
    }

    @Test func changeObserversReadTheSameStateFromTheWindowWithoutAValue() throws {
        let clock = VirtualClock()
        let window = Window(clock: clock)
        var described: [String] = [], transitions: [String] = []
        window.addChangeObserver { kind, screen, window in
            var stack = ""
            window.describeState { stack += $0 }
            described.append("\(kind.rawValue) \(screen?.description ?? "-"): \(stack)")
        }
        window.addTransitionObserver { transitions.append($0.description) }
        let split = window.makeSplit()
        window.setRoot(split)
        let master = window.makeNavigation()
        split.master = master
        master.push(TestView("a"))
        master.push(TestView("b", context: "x"))
        let inner = window.makeSplit()
        inner.master = window.makeViewable(TestView("m"))
        inner.detail = window.makeViewable(TestView("n", context: ""))
        split.detail = inner
        let modal = window.makeNavigation()
        master.present(modal)
        modal.push(TestView("c"))
        modal.push(TestView("d"))
        split.present(window.makeToast(message: "hi"), for: .seconds(1))
        clock.advance(by: .seconds(1))
        try window.goBack()
        master.dismiss()
        split.detail = nil
        #expect(described == transitions)
        #expect(transitions.contains("present toast(hi): a > b(x) | m > n ^ c > d ^ toast(hi)"))
        #expect(transitions.contains("back d: a > b(x) | m > n ^ c"))
        #expect(described.last == "show -: a > b(x) | ")
    }
}
