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

    /// `name`, or `name(context)` — concatenated, since every simulated screen event writes one
    /// and string interpolation cost more than the pieces.
    public var description: String {
        guard let context, !context.isEmpty else { return name }
        var text = name
        text.reserveCapacity(name.utf8.count + context.utf8.count + 2)
        text += "("
        text += context
        text += ")"
        return text
    }

    /// Hands ``description`` to `piece` in parts (screen events render the whole state, so no
    /// intermediate strings).
    public func describe(_ piece: (String) -> Void) {
        piece(name)
        if let context, !context.isEmpty {
            piece("(")
            piece(context)
            piece(")")
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
        describe { text += $0 }
        return text
    }

    /// Hands ``description`` to `piece` in parts (``StateText``).
    func describe(_ piece: (String) -> Void) {
        switch self {
        case .stack(let screens): Self.describe(screens, piece)
        case .split(let master, let detail):
            Self.describe(master, piece)
            piece(StateText.paneSeparator)
            Self.describe(detail, piece)
        case .single(let screen): screen.describe(piece)
        }
    }

    private static func describe(_ screens: [ScreenID], _ piece: (String) -> Void) {
        var joined = StateText.Screens()
        for screen in screens { joined.write(screen, piece) }
    }
}

/// How a navigation state is written: screens joined by ` > `, a split's panes by ` | `, layers
/// by ` ^ `. ``NavigationState`` values and ``Window/describeState(_:)``, which reads the
/// containers as they are, both write through it.
enum StateText {
    /// Between two layers.
    static let layerSeparator = " ^ "
    /// Between a split view's master and detail.
    static let paneSeparator = " | "

    /// Writes screens in parts, one after another, joined by ` > `.
    struct Screens {
        private var separate = false

        mutating func write(_ screen: ScreenID, _ piece: (String) -> Void) {
            if separate { piece(" > ") }
            separate = true
            screen.describe(piece)
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
        var text = ""
        describe { text += $0 }
        return text
    }

    /// Hands ``description`` to `piece` in parts, so that a screen event can write the state
    /// without building the string.
    public func describe(_ piece: (String) -> Void) {
        for index in layers.indices {
            if index > 0 { piece(StateText.layerSeparator) }
            layers[index].describe(piece)
        }
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
