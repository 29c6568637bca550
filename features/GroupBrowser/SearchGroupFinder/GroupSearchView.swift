import Classifieds
import RemixKit

/// The search screen: the query, the leaf groups it matches, and a note when nothing matches.
public struct GroupSearchViewData: Equatable, Sendable {
    /// One matching leaf group.
    public struct Result: Equatable, Sendable {
        public var groupID: GroupID
        public var title: String

        /// Makes a result row.
        public init(groupID: GroupID, title: String) {
            self.groupID = groupID
            self.title = title
        }
    }

    /// The query as typed.
    public var query: String
    /// The matching groups.
    public var results: [Result]
    /// A line under the field, e.g. "No group matches “x”", or nil.
    public var note: String?

    /// Makes view data.
    public init(query: String, results: [Result], note: String? = nil) {
        self.query = query
        self.results = results
        self.note = note
    }
}

/// Reports what the user does on the search screen.
public protocol GroupSearchViewDelegate: AnyObject {
    /// The query changed.
    func didChange(query: String)
    /// A result was chosen.
    func didSelect(groupID: GroupID)
    /// "Clear" was tapped.
    func didTapClear()
}

/// A query field over a flat list of leaf groups.
public protocol GroupSearchView: View {
    var delegate: (any GroupSearchViewDelegate)? { get set }
    var viewData: GroupSearchViewData { get set }
}

/// The headless search screen: field `query` (purpose `query`), each result a `choice` row whose
/// value is the group's title, and "Clear" (`destructive`).
public final class HeadlessGroupSearchView: GroupSearchView {
    public weak var delegate: (any GroupSearchViewDelegate)?
    public var viewData = GroupSearchViewData(query: "", results: [])

    /// Makes an empty search screen.
    public init() {}

    public var screen: ScreenContent {
        ScreenContent(
            name: "search", title: "Find group", body: viewData.note.map { [$0] } ?? [],
            items: viewData.results.map { ScreenItem(id: $0.groupID, title: $0.title, kind: .choice, value: $0.title) },
            fields: [ScreenTextField(id: "query", label: "Group name", value: viewData.query, purpose: .query)],
            buttons: [ScreenButton(id: "clear", title: "Clear", role: .destructive)])
    }

    public func receive(_ input: UserInput) throws {
        switch input {
        case .edit("query", let text): delegate?.didChange(query: text)
        case .select(let id) where viewData.results.contains(where: { $0.groupID == id }): delegate?.didSelect(groupID: id)
        case .press("clear"): delegate?.didTapClear()
        default: throw UserInputError(screen: "search", input: input)
        }
    }
}
