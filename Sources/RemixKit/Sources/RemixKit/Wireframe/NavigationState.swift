/// The identity of a screen in a navigation state: `groups(Bicycles)`.
public struct ScreenID: Hashable, Sendable, CustomStringConvertible {
    /// The screen's kind, e.g. `groups`.
    public var name: String
    /// What distinguishes it from others of its kind, e.g. `Bicycles`.
    public var context: String?

    /// Makes a screen identity.
    public init(name: String, context: String? = nil) {
        self.name = name
        self.context = context
    }

    public var description: String {
        guard let context, !context.isEmpty else { return name }
        return "\(name)(\(context))"
    }

    /// Appends ``description`` to `text` (screen events render the whole state, so no
    /// intermediate strings).
    func write(to text: inout String) {
        text += name
        if let context, !context.isEmpty {
            text += "("
            text += context
            text += ")"
        }
    }
}

/// One layer of what is shown: the root or a modal presentation over it.
public enum NavigationLayer: Equatable, Sendable, CustomStringConvertible {
    /// A navigation stack, bottom first.
    case stack([ScreenID])
    /// A split view: the master's screens and the detail's screens.
    case split(master: [ScreenID], detail: [ScreenID])
    /// A single view.
    case single(ScreenID)

    /// Every screen in the layer, in display order.
    public var screens: [ScreenID] {
        switch self {
        case .stack(let screens): screens
        case .split(let master, let detail): master + detail
        case .single(let screen): [screen]
        }
    }

    public var description: String {
        var text = ""
        write(to: &text)
        return text
    }

    /// Appends ``description`` to `text`: screens joined by ` > `, a split's panes by ` | `.
    func write(to text: inout String) {
        switch self {
        case .stack(let screens): Self.write(screens, to: &text)
        case .split(let master, let detail):
            Self.write(master, to: &text)
            text += " | "
            Self.write(detail, to: &text)
        case .single(let screen): screen.write(to: &text)
        }
    }

    private static func write(_ screens: [ScreenID], to text: inout String) {
        for index in screens.indices {
            if index > 0 { text += " > " }
            screens[index].write(to: &text)
        }
    }
}

/// The whole navigation state of a session as a value: the root layer and the modal layers over it.
///
/// Its description reads like `adverts > groups(Bicycles) > title`; a modal layer follows
/// ` ^ `, and a split view shows as `master | detail`.
public struct NavigationState: Equatable, Sendable, CustomStringConvertible {
    /// The root layer first, then each modal presentation in order.
    public var layers: [NavigationLayer]

    /// Makes a navigation state.
    public init(layers: [NavigationLayer]) {
        self.layers = layers
    }

    /// The screen on top: the front layer's top screen (its detail, for a split view).
    public var topScreen: ScreenID? { layers.last?.screens.last }

    public var description: String {
        // Built in one string: this runs for every logged screen event.
        var text = ""
        for index in layers.indices {
            if index > 0 { text += " ^ " }
            layers[index].write(to: &text)
        }
        return text
    }
}

/// One change of the navigation state, as reported to window observers.
public struct NavigationTransition: Sendable, CustomStringConvertible {
    /// What happened.
    public enum Kind: String, Sendable {
        /// A screen was pushed on a stack.
        case push
        /// The user popped a screen with the back button.
        case back
        /// Screens were popped by the flow (checkpoint or root).
        case pop
        /// Something was presented modally.
        case present
        /// A modal presentation went away.
        case dismiss
        /// A root, master or detail was set.
        case show
    }

    /// What happened.
    public let kind: Kind
    /// The screen the transition concerns (pushed, popped, presented or shown), if any.
    public let screen: ScreenID?
    /// The navigation state after the transition.
    public let state: NavigationState

    /// Makes a transition.
    public init(kind: Kind, screen: ScreenID?, state: NavigationState) {
        self.kind = kind
        self.screen = screen
        self.state = state
    }

    public var description: String { "\(kind.rawValue) \(screen?.description ?? "-"): \(state)" }
}
