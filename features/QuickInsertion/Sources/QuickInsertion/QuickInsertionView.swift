import Classifieds
import Marketplace
import RemixKit

/// The one screen of a quick insertion: the title (as on Marketplace's title step), the leaf groups
/// to choose from, and what is chosen.
public struct QuickInsertionViewData: Equatable, Sendable {
    /// One leaf group the advert can go in.
    public struct GroupRow: Equatable, Sendable {
        /// The group.
        public var groupID: GroupID
        /// The group's title.
        public var title: String
        /// The titles of the group's ancestors, root first, joined with " › " ("" for a root group).
        public var path: String

        /// Makes a row.
        public init(groupID: GroupID, title: String, path: String) {
            self.groupID = groupID
            self.title = title
            self.path = path
        }
    }

    /// The title field: its label and text, as Marketplace's title step shows them.
    public var title: TextEntryStepViewData
    /// The leaf groups, in service order.
    public var groups: [GroupRow]
    /// The chosen group, if any.
    public var selectedGroupID: GroupID?
    /// A problem to show (e.g. a failed publish), if any.
    public var message: String?

    /// Makes view data.
    public init(title: TextEntryStepViewData, groups: [GroupRow], selectedGroupID: GroupID? = nil, message: String? = nil) {
        self.title = title
        self.groups = groups
        self.selectedGroupID = selectedGroupID
        self.message = message
    }
}

/// Reports what the user does on the quick insertion screen. Like Marketplace's text entry step,
/// the view keeps the text being typed and hands it over with every action.
public protocol QuickInsertionViewDelegate: AnyObject {
    /// A group row was tapped.
    func didSelect(groupID: GroupID, withText text: String)
    /// "Publish" was tapped.
    func didTapPublish(withText text: String)
    /// The back button popped the screen.
    func didGoBack(withText text: String)
}

/// The quick insertion screen.
public protocol QuickInsertionView: View {
    /// Receives the user's actions.
    var delegate: (any QuickInsertionViewDelegate)? { get set }
    /// What the screen shows.
    var viewData: QuickInsertionViewData { get set }
}

/// The headless quick insertion screen: the `text` field (purpose `title`), one choice row per leaf
/// group (value: the group's title; the chosen one selected) and a Publish button (role `submit`).
public final class HeadlessQuickInsertionView: QuickInsertionView {
    /// The screen's name in screen descriptions and navigation states.
    public static let screenName = "quick"
    public weak var delegate: (any QuickInsertionViewDelegate)?
    /// Setting view data also resets the text being edited to the data's title.
    public var viewData = QuickInsertionViewData(title: TextEntryStepViewData(title: "", value: ""), groups: []) {
        didSet { text = viewData.title.value }
    }
    private var text = ""

    /// Makes an empty screen.
    public init() {}

    public var screen: ScreenContent {
        let chosen = viewData.groups.first { $0.groupID == viewData.selectedGroupID }
        let group = chosen.map { "Group: " + ($0.path.isEmpty ? $0.title : "\($0.path) › \($0.title)") }
            ?? "Group: none chosen yet"
        return ScreenContent(
            name: Self.screenName, title: "New advert", body: [viewData.message, group].compactMap { $0 },
            items: viewData.groups.map {
                ScreenItem(id: $0.groupID, title: $0.title, detail: $0.path, kind: .choice, value: $0.title,
                           isSelected: $0.groupID == viewData.selectedGroupID)
            },
            fields: [ScreenTextField(id: "text", label: viewData.title.title, value: text, purpose: .title)],
            buttons: [ScreenButton(id: "publish", title: "Publish", role: .submit)])
    }

    public var screenID: ScreenID { ScreenID(name: Self.screenName) }

    public func receive(_ input: UserInput) throws {
        switch input {
        case .edit("text", let newText): text = newText
        case .select(let id) where viewData.groups.contains(where: { $0.groupID == id }):
            delegate?.didSelect(groupID: id, withText: text)
        case .press("publish"): delegate?.didTapPublish(withText: text)
        default: throw UserInputError(screen: Self.screenName, input: input)
        }
    }

    public func navigationDidGoBack() {
        delegate?.didGoBack(withText: text)
    }
}

/// Turns groups and a draft into the quick insertion screen's view data.
public enum QuickInsertionFormatter {
    /// The leaf groups of `groups` (those without children) with their ancestors' titles.
    public static func leafRows(of groups: [Group]) -> [QuickInsertionViewData.GroupRow] {
        let byID = Dictionary(groups.map { ($0.groupID, $0) }, uniquingKeysWith: { first, _ in first })
        return groups.filter(\.children.isEmpty).map { group in
            var ancestors: [String] = []
            var parent = group.parent
            while let id = parent, let next = byID[id], ancestors.count < groups.count {
                ancestors.insert(next.title, at: 0)
                parent = next.parent
            }
            return .init(groupID: group.groupID, title: group.title, path: ancestors.joined(separator: " › "))
        }
    }

    /// The screen for `draft`, offering `rows`, showing `message` if any.
    public static func prepare(rows: [QuickInsertionViewData.GroupRow], draft: Draft, message: String? = nil)
        -> QuickInsertionViewData {
        QuickInsertionViewData(title: TitleStepFormatter.prepare(title: draft.title), groups: rows,
                               selectedGroupID: draft.groupID, message: message)
    }
}
