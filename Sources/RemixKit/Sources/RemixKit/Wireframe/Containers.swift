/// The headless navigation stack.
final class NavigationStack: WindowAttachment, NavigationWireframe {
    struct LeftButton {
        let title: String
        let action: () -> Void
    }

    private var views: [any View] = []
    private var checkpoints: [ObjectIdentifier] = []
    /// The left buttons set on views of the stack (a flow sets one or two): a short list, as
    /// comparing a few identities costs less than hashing one.
    private var leftButtons: [(view: ObjectIdentifier, button: LeftButton)] = []

    override init(window: Window) {
        super.init(window: window)
        // Stacks hold a few screens: one allocation instead of regrowing on the first pushes.
        var list = views.taken()
        list.reserveCapacity(4)
        views = list
    }

    var topView: (any View)? { views.last }
    var depth: Int { views.count }
    /// Calls `body` with the screen of each view, bottom first.
    func forEachScreenID(_ body: (ScreenID) -> Void) {
        for view in views { body(view.screenID) }
    }

    func leftButton(for view: any View) -> LeftButton? {
        guard !leftButtons.isEmpty else { return nil }
        let id = ObjectIdentifier(view)
        return leftButtons.first { $0.view == id }?.button
    }

    // The lists are changed in a copy taken out and put back (`Array.taken()`).

    func push(_ view: any View) {
        var list = views.taken()
        list.append(view)
        views = list
        window?.notify(.push, screen: view.screenID, in: self)
    }

    func setPopCheckpoint() {
        guard let top = views.last else { return }
        var list = checkpoints.taken()
        list.append(ObjectIdentifier(top))
        checkpoints = list
    }

    func unsetPopCheckpoint() {
        _ = popCheckpoint()
    }

    private func popCheckpoint() -> ObjectIdentifier? {
        var list = checkpoints.taken()
        let last = list.popLast()
        checkpoints = list
        return last
    }

    func popToLastCheckpoint() {
        let target = popCheckpoint()
        let keep = target.flatMap { id in views.firstIndex { ObjectIdentifier($0) == id } } ?? 0
        guard keep < views.count - 1 else { return }
        // Read before removing: a slice of the views kept across the removal would copy them.
        for view in views[(keep + 1)...] { removeLeftButton(of: view) }
        let screen = views.last?.screenID
        var list = views.taken()
        list.removeSubrange((keep + 1)...)
        views = list
        window?.notify(.pop, screen: screen, in: self)
    }

    func setLeftButton(title: String, action: @escaping () -> Void) {
        guard let top = views.last else { return }
        removeLeftButton(of: top)
        var list = leftButtons.taken()
        list.append((ObjectIdentifier(top), LeftButton(title: title, action: action)))
        leftButtons = list
    }

    private func removeLeftButton(of view: any View) {
        guard !leftButtons.isEmpty else { return }
        let id = ObjectIdentifier(view)
        var list = leftButtons.taken()
        list.removeAll { $0.view == id }
        leftButtons = list
    }

    /// The user pressed back: pop the top view and tell it.
    func popByUser() {
        guard views.count > 1 else { return }
        var list = views.taken()
        let popped = list.removeLast()
        views = list
        removeLeftButton(of: popped)
        window?.notify(.back, screen: popped.screenID, in: self)
        popped.navigationDidGoBack()
    }

    func present(_ viewable: any Viewable) { window?.present(viewable, by: self) }
    func present(_ viewable: any Viewable, for duration: Duration) { window?.present(viewable, by: self, for: duration) }
    func dismiss() { window?.dismissPresentations(by: self) }
}

/// The headless split view.
final class SplitContainer: WindowAttachment, SplitWireframe {
    // Kept apart from the properties the protocol sets, so that nothing changes them in place
    // while telling the window (their exclusive access is then checked when compiling).
    private var shownMaster: (any Viewable)?
    private var shownDetail: (any Viewable)?

    var master: (any Viewable)? {
        get { shownMaster }
        set {
            shownMaster = newValue
            window?.notify(.show, screen: newValue.flatMap(Window.lastScreen), in: self)
        }
    }

    var detail: (any Viewable)? {
        get { shownDetail }
        set {
            shownDetail = newValue
            window?.notify(.show, screen: newValue.flatMap(Window.lastScreen), in: self)
        }
    }

    func present(_ viewable: any Viewable) { window?.present(viewable, by: self) }
    func present(_ viewable: any Viewable, for duration: Duration) { window?.present(viewable, by: self, for: duration) }
    func dismiss() { window?.dismissPresentations(by: self) }
}

/// One view made presentable.
final class ViewContainer: WindowAttachment, Viewable {
    let view: any View

    init(window: Window, view: any View) {
        self.view = view
        super.init(window: window)
    }

    func present(_ viewable: any Viewable) { window?.present(viewable, by: self) }
    func present(_ viewable: any Viewable, for duration: Duration) { window?.present(viewable, by: self, for: duration) }
    func dismiss() { window?.dismissPresentations(by: self) }
}

/// A transient message with no controls; it blocks input while shown, and is busy while it
/// stands for work in progress (a loading toast).
final class ToastView: View {
    let message: String
    let isBusy: Bool

    init(message: String, isBusy: Bool) {
        self.message = message
        self.isBusy = isBusy
    }

    var screen: ScreenContent {
        ScreenContent(name: "toast", context: message, title: message, blocksInput: true, isBusy: isBusy)
    }

    var screenID: ScreenID { ScreenID(name: "toast", context: message) }
    var blocksInput: Bool { true }

    func receive(_ input: UserInput) throws {
        throw UserInputError(screen: "toast", input: input)
    }
}
