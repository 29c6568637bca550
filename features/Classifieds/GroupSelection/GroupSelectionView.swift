import RemixKit

/// One level of the group tree, as shown to the user.
public struct GroupSelectionViewData: Equatable, Sendable {
    /// One row: a group and whether it has children to drill into.
    public struct Item: Equatable, Sendable {
        public var groupID: GroupID
        public var title: String
        public var hasChildren: Bool

        /// Makes a row.
        public init(groupID: GroupID, title: String, hasChildren: Bool) {
            self.groupID = groupID
            self.title = title
            self.hasChildren = hasChildren
        }
    }

    /// The screen's name: `groups` unless the list serves a purpose of its own (Marketplace's
    /// filter picker is `filter`), so that logs and populations tell the screens apart.
    public var screenName: String
    /// The heading, always "Select group".
    public var title: String
    /// The parent group's title, or nil on the root level.
    public var parentTitle: String?
    /// The groups of this level.
    public var items: [Item]

    /// Makes view data.
    public init(screenName: String = GroupSelectionViewData.defaultScreenName, title: String, parentTitle: String? = nil,
                items: [Item]) {
        self.screenName = screenName
        self.title = title
        self.parentTitle = parentTitle
        self.items = items
    }

    /// The group list's screen name when its user gives none.
    public static let defaultScreenName = "groups"
}

/// Reports what the user does on a group list.
public protocol GroupSelectionViewDelegate: AnyObject {
    /// A row was tapped.
    func didSelect(groupID: GroupID)
    /// "Reset" was tapped.
    func didDeselectAll()
    /// The back button popped `view`.
    func didAbortSelection(fromView view: any GroupSelectionView)
    /// The titles of the groups below `groupID`, for opening a route that names a deeper group.
    func titles(below groupID: GroupID) -> [String]
}

extension GroupSelectionViewDelegate {
    /// Delegates that do not say know no deeper groups.
    public func titles(below groupID: GroupID) -> [String] { [] }
}

/// A list of groups at one level of the tree.
public protocol GroupSelectionView: View {
    var delegate: (any GroupSelectionViewDelegate)? { get set }
    var viewData: GroupSelectionViewData { get set }
}

/// The headless group list: rows to select and a Reset button. A group with children drills
/// down; a leaf group completes the choice. Each row's value is the group's title.
public final class HeadlessGroupSelectionView: GroupSelectionView {
    public var delegate: (any GroupSelectionViewDelegate)? {
        get { weakDelegate }
        set { weakDelegate = newValue }
    }
    /// Weak, so that a tap on a view outliving its delegate does nothing; private, so that the
    /// compiler sees every access and checks their exclusive access when compiling.
    private weak var weakDelegate: (any GroupSelectionViewDelegate)?
    /// Swapped in when set, so that the old data goes after the change: then no access to it
    /// overlaps another, and its exclusive access is checked when compiling, not at run time.
    public var viewData: GroupSelectionViewData {
        get { data }
        set {
            var replaced = newValue
            swap(&replaced, &data)
            cache.reset()
        }
    }
    private var data = GroupSelectionViewData(title: "", items: [])
    /// The screen for the current view data, made on first request (drivers read it every step).
    private var cache = ScreenCache()
    /// The list's one button, the same on every screen it makes.
    private static let buttons = [ScreenButton(id: "reset", title: "Reset", role: .destructive)]

    /// Makes an empty group list.
    public init() {}

    public var screen: ScreenContent {
        if let screen = cache.kept { return screen }
        let screen = ScreenContent(
            name: viewData.screenName, context: viewData.parentTitle, title: viewData.title,
            items: viewData.items.map {
                ScreenItem(id: $0.groupID, title: $0.title, kind: $0.hasChildren ? .drillDown : .choice,
                           value: $0.title)
            },
            buttons: Self.buttons)
        cache.keep(screen)
        return screen
    }

    public var screenID: ScreenID { ScreenID(name: viewData.screenName, context: viewData.parentTitle) }

    public func receive(_ input: UserInput) throws {
        switch input {
        case .select(let id) where viewData.items.contains(where: { $0.groupID == id }):
            delegate?.didSelect(groupID: id)
        case .press("reset"):
            delegate?.didDeselectAll()
        default:
            throw UserInputError(screen: viewData.screenName, input: input)
        }
    }

    public func navigationDidGoBack() {
        delegate?.didAbortSelection(fromView: self)
    }
}

extension HeadlessGroupSelectionView: RouteOpening {
    /// A group named by the next screen's context among this list's rows (a subgroup's list, or the
    /// screen a choice leads to, such as a filtered list); for a next screen without one (the
    /// insertion's `title`), the first group that completes the choice, since the route does not
    /// say which. A group deeper down is reached through the subgroup that holds it.
    public func input(toOpen next: ScreenID) -> UserInput? {
        let rows = screen.items
        if let context = next.context {
            if let row = rows.first(where: { $0.title == context || $0.value == context }) { return .select(itemID: row.id) }
            // A deeper group: the subgroup that holds it.
            let holder = viewData.items.first { $0.hasChildren && delegate?.titles(below: $0.groupID).contains(context) == true }
            return holder.map { .select(itemID: $0.groupID) }
        }
        guard next.name != viewData.screenName, let leaf = rows.first(where: { $0.kind == .choice }) else { return nil }
        return .select(itemID: leaf.id)
    }
}
