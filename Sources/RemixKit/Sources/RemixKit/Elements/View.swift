/// A view: shows plain view data and reports what the user does to its delegate.
///
/// Every concrete view protocol of a feature (e.g. `GroupSelectionView`) refines this one. Its
/// implementations are headless: they describe themselves as a ``ScreenContent`` and turn
/// ``UserInput`` into delegate calls, so any driver — the terminal, a simulated user, a test — can
/// show and operate every feature, including plugin features it has never heard of.
public protocol View: AnyObject {
    /// What a person would see on this view right now.
    var screen: ScreenContent { get }
    /// Acts on the view as the user would; throws ``UserInputError`` when the view has no such control.
    func receive(_ input: UserInput) throws
    /// The user popped this view with the navigation back button.
    func navigationDidGoBack()
    /// The screen's identity (`screen.id`), which views may provide without building `screen`.
    var screenID: ScreenID { get }
    /// Whether the view takes no input until time passes (`screen.blocksInput`).
    var blocksInput: Bool { get }
}

extension View {
    /// Views that do not care about back navigation ignore it.
    public func navigationDidGoBack() {}
    /// The identity of the full screen description.
    public var screenID: ScreenID { screen.id }
    /// Most views take input.
    public var blocksInput: Bool { false }
}

/// The visible description of one view: its name, text, rows, text field and buttons.
public struct ScreenContent: Equatable, Sendable {
    /// A short stable name for the kind of screen (`adverts`, `groups`, `title`, `item`, `toast`).
    public var name: String
    /// What distinguishes this screen from others of its kind (e.g. the parent group's title).
    public var context: String?
    /// The screen's heading.
    public var title: String
    /// Body text, one entry per paragraph.
    public var body: [String]
    /// Rows the user can select.
    public var items: [ScreenItem]
    /// Editable texts, if the screen takes text.
    public var fields: [ScreenTextField]
    /// Buttons the user can press.
    public var buttons: [ScreenButton]
    /// A screen such as a loading toast that accepts no input until it goes away.
    public var blocksInput: Bool

    /// Makes a screen description.
    public init(
        name: String, context: String? = nil, title: String, body: [String] = [],
        items: [ScreenItem] = [], fields: [ScreenTextField] = [], buttons: [ScreenButton] = [],
        blocksInput: Bool = false
    ) {
        self.name = name
        self.context = context
        self.title = title
        self.body = body
        self.items = items
        self.fields = fields
        self.buttons = buttons
        self.blocksInput = blocksInput
    }

    /// The screen's identity in a navigation state: its name and context.
    public var id: ScreenID { ScreenID(name: name, context: context) }
}

/// A selectable row.
public struct ScreenItem: Equatable, Sendable {
    /// The identifier reported when the row is selected.
    public var id: String
    /// The row's main text.
    public var title: String
    /// Secondary text, e.g. the advert's group.
    public var detail: String
    /// Whether selecting the row drills down into more rows.
    public var hasChildren: Bool

    /// Makes a row.
    public init(id: String, title: String, detail: String = "", hasChildren: Bool = false) {
        self.id = id
        self.title = title
        self.detail = detail
        self.hasChildren = hasChildren
    }
}

/// An editable text on a screen.
public struct ScreenTextField: Equatable, Sendable {
    /// The identifier used to edit it.
    public var id: String
    /// What the text is for.
    public var label: String
    /// The current text.
    public var value: String

    /// Makes a text field description.
    public init(id: String, label: String, value: String) {
        self.id = id
        self.label = label
        self.value = value
    }
}

/// A button on a screen.
public struct ScreenButton: Equatable, Sendable {
    /// The identifier used to press it.
    public var id: String
    /// The button's label.
    public var title: String

    /// Makes a button description.
    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }
}

/// Something a user does to a view.
public enum UserInput: Equatable, Sendable {
    /// Select the row with this id.
    case select(itemID: String)
    /// Press the button with this id.
    case press(buttonID: String)
    /// Replace the content of the text field with this id.
    case edit(fieldID: String, text: String)
}

/// A user input the view cannot take.
public struct UserInputError: Error, Equatable, CustomStringConvertible {
    /// The screen that refused the input.
    public let screen: String
    /// The refused input.
    public let input: UserInput

    /// Makes the error.
    public init(screen: String, input: UserInput) {
        self.screen = screen
        self.input = input
    }

    public var description: String {
        switch input {
        case .select(let id): "the \(screen) screen has no row '\(id)'"
        case .press(let id): "the \(screen) screen has no button '\(id)'"
        case .edit(let id, _): "the \(screen) screen has no text field '\(id)'"
        }
    }
}
