import RemixKit
import Testing

/// Containers reach their window as a weak reference would: while it lives, and not at all once
/// it is gone, whichever of the two goes first.
@Suite struct WindowLifetimeTests {
    @Test func containersThatOutliveTheirWindowDoNothing() {
        var window: Window? = Window(clock: VirtualClock())
        let navigation = window!.makeNavigation()
        let split = window!.makeSplit()
        let viewable = window!.makeViewable(TestView("alone"))
        window!.setRoot(navigation)
        navigation.push(TestView("a"))
        weak let gone = window
        window = nil
        #expect(gone == nil)
        // No window to tell: each call does nothing, as with a weak reference.
        let later = TestView("b")
        navigation.push(later)
        navigation.present(viewable)
        navigation.dismiss()
        split.master = navigation
        split.detail = viewable
        viewable.present(navigation)
        viewable.dismiss()
        // The stack itself still works; only the window hears nothing.
        #expect(navigation.topView === later)
    }

    @Test func aWindowOutlivesContainersThatGoFirst() throws {
        let window = Window(clock: VirtualClock())
        var seen: [String] = []
        window.addTransitionObserver { seen.append($0.state.description) }
        for index in 0..<20 {
            // Made and dropped: each takes itself off the window's list as it goes.
            let dropped = window.makeNavigation()
            dropped.push(TestView("dropped\(index)"))
        }
        let navigation = window.makeNavigation()
        window.setRoot(navigation)
        navigation.push(TestView("a"))
        let toast = window.makeToast(message: "saved")
        navigation.present(toast, for: .seconds(1))
        #expect(window.state.description == "a ^ toast(saved)")
        navigation.dismiss()
        #expect(window.state.description == "a")
        #expect(seen.last == "a")
    }

    @Test func aWindowAndItsContainersGoTogether() {
        weak var goneWindow: Window?
        weak var goneNavigation: AnyObject?
        do {
            let window = Window(clock: VirtualClock())
            let navigation = window.makeNavigation()
            window.setRoot(navigation)
            navigation.push(TestView("a"))
            goneWindow = window
            goneNavigation = navigation
        }
        #expect(goneWindow == nil)
        #expect(goneNavigation == nil)
    }
}
