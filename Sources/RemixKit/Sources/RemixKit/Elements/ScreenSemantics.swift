/// What pressing a button does, as a person reads it from the UI (like an accessibility trait).
///
/// Drivers that know no app — the terminal, a generic simulated user — use roles to tell the way
/// forward from the way out.
public enum ButtonRole: String, Equatable, Hashable, Sendable, CaseIterable {
    /// The screen's main way forward: "Next", "New advert", "OK".
    case primary
    /// Commits the user's work and ends the task: "Publish".
    case submit
    /// Abandons the flow the screen belongs to: a modal flow's "Cancel".
    case cancel
    /// Returns to the previous screen.
    case back
    /// Discards what the user chose or typed: "Reset".
    case destructive
    /// Anything else, e.g. a secondary "Filters".
    case other
}

/// What a text field asks for: a name an intent can fill (`title`, `number`, `query`).
///
/// String-backed so that a plugin can name purposes of its own; the common ones are constants.
public struct FieldPurpose: RawRepresentable, Equatable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible {
    /// The purpose's name.
    public var rawValue: String

    /// Makes a purpose named `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Makes a purpose from a string literal.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public var description: String { rawValue }

    /// Free text with no more specific purpose (the default).
    public static let text: FieldPurpose = "text"
    /// The title of something being created, e.g. an advert's title.
    public static let title: FieldPurpose = "title"
    /// A number, e.g. a term of a sum.
    public static let number: FieldPurpose = "number"
    /// A search or filter query.
    public static let query: FieldPurpose = "query"
}

/// What selecting a row does.
public enum ItemKind: String, Equatable, Hashable, Sendable, CaseIterable {
    /// Opens the thing the row stands for (e.g. an advert's detail); the default.
    case item
    /// Leads further: shows more rows below this one (e.g. a group with subgroups).
    case drillDown
    /// Completes a choice: the row's value is what the user picks (e.g. a leaf group).
    case choice
}
