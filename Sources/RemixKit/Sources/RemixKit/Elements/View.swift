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

/// The visible description of one view: its name, text, rows, text field and buttons, with the
/// semantics a person tells from a UI (button roles, field purposes, row kinds and values, busy
/// state; see ScreenSemantics.swift).
///
/// A value kept in one shared box (copy-on-write): drivers copy it several times per step (a
/// panel, a view's cached screen), and a copy is then one reference instead of one per field.
public struct ScreenContent: Equatable, Sendable {
    /// The fields. Mutated only through ``ScreenContent/unique()``, that is while this value is
    /// its only owner, so a box shared between values (or threads) is never written.
    @usableFromInline
    final class Storage: @unchecked Sendable {
        @usableFromInline var name: String
        @usableFromInline var context: String?
        @usableFromInline var title: String
        @usableFromInline var body: [String]
        @usableFromInline var items: [ScreenItem]
        @usableFromInline var fields: [ScreenTextField]
        @usableFromInline var buttons: [ScreenButton]
        @usableFromInline var blocksInput: Bool
        @usableFromInline var isBusy: Bool

        @usableFromInline
        init(
            name: String, context: String?, title: String, body: [String], items: [ScreenItem],
            fields: [ScreenTextField], buttons: [ScreenButton], blocksInput: Bool, isBusy: Bool
        ) {
            self.name = name
            self.context = context
            self.title = title
            self.body = body
            self.items = items
            self.fields = fields
            self.buttons = buttons
            self.blocksInput = blocksInput
            self.isBusy = isBusy
        }

        @usableFromInline
        func copy() -> Storage {
            Storage(
                name: name, context: context, title: title, body: body, items: items, fields: fields,
                buttons: buttons, blocksInput: blocksInput, isBusy: isBusy)
        }
    }

    @usableFromInline var storage: Storage

    /// The box, copied first if another value shares it.
    @inlinable
    mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// A short stable name for the kind of screen (`adverts`, `groups`, `title`, `item`, `toast`).
    @inlinable public var name: String {
        get { storage.name }
        set { unique().name = newValue }
    }
    /// What distinguishes this screen from others of its kind (e.g. the parent group's title).
    @inlinable public var context: String? {
        get { storage.context }
        set { unique().context = newValue }
    }
    /// The screen's heading.
    @inlinable public var title: String {
        get { storage.title }
        set { unique().title = newValue }
    }
    /// Body text, one entry per paragraph.
    @inlinable public var body: [String] {
        get { storage.body }
        _modify { yield &unique().body }
    }
    /// Rows the user can select.
    @inlinable public var items: [ScreenItem] {
        get { storage.items }
        _modify { yield &unique().items }
    }
    /// Editable texts, if the screen takes text.
    @inlinable public var fields: [ScreenTextField] {
        get { storage.fields }
        _modify { yield &unique().fields }
    }
    /// Buttons the user can press.
    @inlinable public var buttons: [ScreenButton] {
        get { storage.buttons }
        _modify { yield &unique().buttons }
    }
    /// A screen such as a loading toast that accepts no input until it goes away.
    @inlinable public var blocksInput: Bool {
        get { storage.blocksInput }
        set { unique().blocksInput = newValue }
    }
    /// Whether the app is working on something the user waits for (a spinner, a recommendation
    /// loading); an error toast blocks input without being busy.
    @inlinable public var isBusy: Bool {
        get { storage.isBusy }
        set { unique().isBusy = newValue }
    }

    /// Makes a screen description.
    public init(
        name: String, context: String? = nil, title: String, body: [String] = [],
        items: [ScreenItem] = [], fields: [ScreenTextField] = [], buttons: [ScreenButton] = [],
        blocksInput: Bool = false, isBusy: Bool = false
    ) {
        storage = Storage(
            name: name, context: context, title: title, body: body, items: items, fields: fields,
            buttons: buttons, blocksInput: blocksInput, isBusy: isBusy)
    }

    /// The screen's identity in a navigation state: its name and context.
    public var id: ScreenID { ScreenID(name: name, context: context) }

    public static func == (lhs: ScreenContent, rhs: ScreenContent) -> Bool {
        if lhs.storage === rhs.storage { return true }
        let l = lhs.storage, r = rhs.storage
        return l.name == r.name && l.context == r.context && l.title == r.title && l.body == r.body
            && l.items == r.items && l.fields == r.fields && l.buttons == r.buttons
            && l.blocksInput == r.blocksInput && l.isBusy == r.isBusy
    }
}

/// A selectable row.
public struct ScreenItem: Equatable, Sendable {
    /// The identifier reported when the row is selected.
    public var id: String
    /// The row's main text.
    public var title: String
    /// Secondary text, e.g. the advert's group.
    public var detail: String
    /// What selecting the row does: open an item, drill down, or complete a choice.
    public var kind: ItemKind
    /// What the row stands for, as an intent names it (a group's title, an advert's id), if anything.
    public var value: String?
    /// Whether the row is the current choice (e.g. the group chosen so far).
    public var isSelected: Bool

    /// Makes a row.
    public init(id: String, title: String, detail: String = "", kind: ItemKind = .item, value: String? = nil,
                isSelected: Bool = false) {
        self.id = id
        self.title = title
        self.detail = detail
        self.kind = kind
        self.value = value
        self.isSelected = isSelected
    }

    /// Makes a row that drills down when `hasChildren`, or opens an item otherwise.
    public init(id: String, title: String, detail: String = "", hasChildren: Bool) {
        self.init(id: id, title: title, detail: detail, kind: hasChildren ? .drillDown : .item)
    }

    /// Whether selecting the row drills down into more rows (`kind == .drillDown`).
    public var hasChildren: Bool { kind == .drillDown }
}

/// An editable text on a screen.
public struct ScreenTextField: Equatable, Sendable {
    /// The identifier used to edit it.
    public var id: String
    /// What the text is for.
    public var label: String
    /// The current text.
    public var value: String
    /// What the text is for, as an intent names it (`title`, `number`).
    public var purpose: FieldPurpose

    /// Makes a text field description.
    public init(id: String, label: String, value: String, purpose: FieldPurpose = .text) {
        self.id = id
        self.label = label
        self.value = value
        self.purpose = purpose
    }
}

/// A button on a screen.
public struct ScreenButton: Equatable, Sendable {
    /// The identifier used to press it.
    public var id: String
    /// The button's label.
    public var title: String
    /// What pressing it does: go forward, submit, cancel, go back, discard, or something else.
    public var role: ButtonRole

    /// Makes a button description.
    public init(id: String, title: String, role: ButtonRole = .other) {
        self.id = id
        self.title = title
        self.role = role
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
