/// The headless screen of one session: a root viewable and the modal presentations over it.
///
/// It is the ``WireframeFactory`` for the session's features and the one place every navigation
/// change passes through: observers see each ``NavigationTransition`` with the new state.
/// Drivers (terminal, simulated user, tests) read ``panels`` and act through ``send(_:to:)`` and
/// ``goBack()``.
public final class Window: WireframeFactory {
    private struct Presentation {
        let viewable: any Viewable
        let presenter: ObjectIdentifier
    }

    /// The session clock, used for timed presentations.
    public let clock: any Clock
    private var root: (any Viewable)?
    private var modals: [Presentation] = []
    private var observers: [(NavigationTransition) -> Void] = []
    /// The first change observer, and those added after it: a session has one (its log), kept
    /// without an array.
    private var firstChangeObserver: ((NavigationTransition.Kind, ScreenID?, Window) -> Void)?
    private var changeObservers: [(NavigationTransition.Kind, ScreenID?, Window) -> Void] = []

    /// Whether this window has gone, shared with the containers it made (see ``WindowAttachment``).
    let life = WindowLife()

    /// Makes an empty window whose timed presentations run on `clock`.
    public init(clock: any Clock) {
        self.clock = clock
    }

    deinit {
        life.isGone = true
    }

    // The window's lists are changed in a copy taken out and put back (`Array.taken()`).

    /// Shows `viewable` as the root of the window.
    public func setRoot(_ viewable: any Viewable) {
        root = viewable
        notify(.show, screen: Self.lastScreen(of: viewable))
    }

    /// Calls `observer` after every navigation change.
    public func addTransitionObserver(_ observer: @escaping (NavigationTransition) -> Void) {
        var list = observers.taken()
        list.append(observer)
        observers = list
    }

    /// Calls `observer` after every navigation change with what changed and the window, whose
    /// ``describeState(_:)`` gives the new state during the call. No ``NavigationState`` value is
    /// built for it (a screen event per step would otherwise build and free one).
    public func addChangeObserver(_ observer: @escaping (NavigationTransition.Kind, ScreenID?, Window) -> Void) {
        if firstChangeObserver == nil {
            firstChangeObserver = observer
        } else {
            var list = changeObservers.taken()
            list.append(observer)
            changeObservers = list
        }
    }

    /// Hands the description of ``state`` to `piece` in parts, read from the containers as they
    /// are, without building the state value.
    public func describeState(_ piece: (String) -> Void) {
        var first = true
        if let root { Self.describeLayer(of: root, first: &first, piece) }
        for modal in modals { Self.describeLayer(of: modal.viewable, first: &first, piece) }
    }

    /// The navigation state as a value.
    public var state: NavigationState {
        var layers: [NavigationLayer] = []
        layers.reserveCapacity(modals.count + 1)
        if let root, let layer = Self.layer(of: root) { layers.append(layer) }
        for modal in modals {
            if let layer = Self.layer(of: modal.viewable) { layers.append(layer) }
        }
        return NavigationState(layers: layers)
    }

    // MARK: WireframeFactory

    public func makeNavigation() -> any NavigationWireframe { NavigationStack(window: self) }
    public func makeSplit() -> any SplitWireframe { SplitContainer(window: self) }
    public func makeViewable(_ view: any View) -> any Viewable { ViewContainer(window: self, view: view) }
    public func makeToast(message: String) -> any Viewable {
        ViewContainer(window: self, view: ToastView(message: message, isBusy: false))
    }
    public func makeLoadingToast(message: String) -> any Viewable {
        ViewContainer(window: self, view: ToastView(message: message, isBusy: true))
    }

    // MARK: Driving

    /// The views of the front layer that a person sees and can act on, with the buttons the
    /// wireframe added (e.g. a modal flow's "Cancel"). The window keeps the last answer's storage
    /// for the next, so its views live until the next read.
    public var panels: [Panel] {
        gatherPanels(unlessBlocked: false) ?? []
    }

    /// ``panels``, or nil when the front screen takes no input (``isBlocked``): what a driver
    /// reads at each step, looking at the front layer once.
    public var unblockedPanels: [Panel]? {
        gatherPanels(unlessBlocked: true)
    }

    private func gatherPanels(unlessBlocked: Bool) -> [Panel]? {
        guard let front = frontViewable else { return [] }
        // Gathered into the storage of the last answer, unique again once its reader let it go
        // (a driver asks every step): no allocation per step.
        var panels: [Panel] = []
        swap(&panels, &panelStorage)
        // Emptied from the end: `removeAll(keepingCapacity:)` goes through the general
        // `replaceSubrange`, several times the cost for the panel or two a window shows.
        while !panels.isEmpty { panels.removeLast() }
        // Room for a split's two panes from the first read, so that the second does not regrow it.
        if panels.capacity < 2 { panels.reserveCapacity(2) }
        let blocked = Self.forEachVisibleView(of: front) { view, stack in
            if unlessBlocked, view.blocksInput { return true }
            panels.append(Self.panel(view, in: stack))
            return false
        }
        panelStorage = panels
        return blocked ? nil : panels
    }

    /// The storage of the last ``panels``.
    private var panelStorage: [Panel] = []

    /// The first of ``panels``, without making the others (a driver looking again after acting).
    public var frontPanel: Panel? {
        guard let front = frontViewable else { return nil }
        var panel: Panel?
        Self.forEachVisibleView(of: front) { view, stack in
            panel = Self.panel(view, in: stack)
            return true
        }
        return panel
    }

    private static func panel(_ view: any View, in stack: NavigationStack?) -> Panel {
        var content = view.screen
        if let button = stack?.leftButton(for: view) {
            content.buttons.insert(ScreenButton(id: Panel.leftButtonID, title: button.title, role: .cancel), at: 0)
        }
        return Panel(view: view, content: content)
    }

    /// Whether the front layer's navigation stack has a screen to go back from.
    public var canGoBack: Bool {
        guard !isBlocked, let stack = frontStack else { return false }
        return stack.depth > 1
    }

    /// Whether the front screen (e.g. a loading toast) takes no input until time passes.
    public var isBlocked: Bool {
        guard let front = frontViewable else { return false }
        return Self.forEachVisibleView(of: front) { view, _ in view.blocksInput }
    }

    /// Whether the front layer shows work in progress the user waits for (e.g. a loading toast).
    public var isBusy: Bool {
        guard let front = frontViewable else { return false }
        return Self.forEachVisibleView(of: front) { view, _ in view.screen.isBusy }
    }

    /// Presses the back button of the front navigation stack.
    public func goBack() throws {
        guard canGoBack, let stack = frontStack else { throw NavigationError.cannotGoBack }
        stack.popByUser()
    }

    /// Acts on a panel's view as the user would.
    public func send(_ input: UserInput, to panel: Panel) throws {
        guard !isBlocked else { throw NavigationError.blocked }
        // The view alone is captured: capturing the panel would copy it.
        let target = panel.view
        guard let front = frontViewable, Self.forEachVisibleView(of: front, { view, _ in view === target }) else {
            throw NavigationError.notInFront
        }
        if case .press(Panel.leftButtonID) = input, let stack = stackHolding(panel.view),
           let button = stack.leftButton(for: panel.view) {
            button.action()
            return
        }
        try panel.view.receive(input)
    }

    // MARK: Used by the containers

    func present(_ viewable: any Viewable, by presenter: any Viewable) {
        var list = modals.taken()
        list.append(Presentation(viewable: viewable, presenter: ObjectIdentifier(presenter)))
        modals = list
        notify(.present, screen: Self.lastScreen(of: viewable))
    }

    func present(_ viewable: any Viewable, by presenter: any Viewable, for duration: Duration) {
        present(viewable, by: presenter)
        clock.schedule(after: duration) { [weak self, weak viewable] in
            guard let self, let viewable else { return }
            self.dismiss(viewable)
        }
    }

    func dismissPresentations(by presenter: any Viewable) {
        let id = ObjectIdentifier(presenter)
        guard let index = modals.firstIndex(where: { $0.presenter == id }) else { return }
        let dismissed = modals[index].viewable
        var list = modals.taken()
        list.removeSubrange(index...)
        modals = list
        notify(.dismiss, screen: Self.lastScreen(of: dismissed))
    }

    private func dismiss(_ viewable: any Viewable) {
        guard let index = modals.firstIndex(where: { $0.viewable === viewable }) else { return }
        var list = modals.taken()
        list.removeSubrange(index...)
        modals = list
        notify(.dismiss, screen: Self.lastScreen(of: viewable))
    }

    /// Tells the observers about a change; a change inside `container` counts only once the
    /// container is on screen (a stack filled before it becomes the root is shown by `show`).
    func notify(_ kind: NavigationTransition.Kind, screen: ScreenID?, in container: (any Viewable)? = nil) {
        guard !observers.isEmpty || firstChangeObserver != nil else { return }
        if let container, !isDisplayed(container) { return }
        if let firstChangeObserver {
            firstChangeObserver(kind, screen, self)
            for observer in changeObservers { observer(kind, screen, self) }
        }
        guard !observers.isEmpty else { return }
        let transition = NavigationTransition(kind: kind, screen: screen, state: state)
        for observer in observers { observer(transition) }
    }

    // MARK: Structure

    private func isDisplayed(_ container: any Viewable) -> Bool {
        if let root, Self.shows(root, container) { return true }
        return modals.contains { Self.shows($0.viewable, container) }
    }

    /// Whether `container` is `viewable` or one of its split panes.
    private static func shows(_ viewable: any Viewable, _ container: any Viewable) -> Bool {
        if viewable === container { return true }
        guard let split = viewable as? SplitContainer else { return false }
        return split.master === container || split.detail === container
    }

    private var frontViewable: (any Viewable)? { modals.last?.viewable ?? root }

    private var frontStack: NavigationStack? {
        switch frontViewable {
        case let stack as NavigationStack: stack
        case let split as SplitContainer: split.master as? NavigationStack
        default: nil
        }
    }

    private func stackHolding(_ view: any View) -> NavigationStack? {
        guard let front = frontViewable else { return nil }
        var holder: NavigationStack?
        Self.forEachVisibleView(of: front) { visible, stack in
            guard visible === view else { return false }
            holder = stack
            return true
        }
        return holder
    }

    /// Calls `body` with each visible view of `viewable` (and the stack showing it) in display
    /// order until `body` returns true; says whether it did. Allocates nothing: the window asks
    /// this several times per user step.
    @discardableResult
    private static func forEachVisibleView(
        of viewable: any Viewable, _ body: (any View, NavigationStack?) -> Bool
    ) -> Bool {
        switch viewable {
        case let stack as NavigationStack:
            guard let top = stack.topView else { return false }
            return body(top, stack)
        case let split as SplitContainer:
            if let master = split.master, forEachVisibleView(of: master, body) { return true }
            if let detail = split.detail, forEachVisibleView(of: detail, body) { return true }
            return false
        case let single as ViewContainer:
            return body(single.view, nil)
        default:
            return false
        }
    }
}

/// A view of the front layer as a driver sees it.
public struct Panel {
    /// The id of the button a navigation stack adds with `setLeftButton`; its role is `cancel`.
    public static let leftButtonID = "navigation.left"
    /// The view itself.
    public let view: any View
    /// What it shows, including wireframe buttons.
    public let content: ScreenContent
}

/// A navigation request the window cannot carry out.
public enum NavigationError: Error, Equatable, CustomStringConvertible {
    /// There is no screen to go back from.
    case cannotGoBack
    /// The front screen takes no input until time passes.
    case blocked
    /// The panel's screen is no longer in front (it was covered or removed).
    case notInFront

    public var description: String {
        switch self {
        case .cannotGoBack: "there is no screen to go back to here"
        case .blocked: "the screen is busy; wait for it to finish"
        case .notInFront: "that screen is no longer in front"
        }
    }
}
