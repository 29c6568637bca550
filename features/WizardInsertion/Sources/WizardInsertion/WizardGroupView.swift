import Classifieds
import RemixKit

/// One level of the group tree on the wizard's group step.
public struct WizardGroupViewData: Equatable, Sendable {
    /// One group of the level.
    public struct Row: Equatable, Sendable {
        /// The group.
        public var groupID: GroupID
        /// The group's title.
        public var title: String
        /// Whether choosing the group shows its children (otherwise it completes the choice).
        public var hasChildren: Bool
        /// Whether the group is the advert's current group.
        public var isSelected: Bool

        /// Makes a row.
        public init(groupID: GroupID, title: String, hasChildren: Bool, isSelected: Bool = false) {
            self.groupID = groupID
            self.title = title
            self.hasChildren = hasChildren
            self.isSelected = isSelected
        }
    }

    /// The step's heading (e.g. "Step 2 of 3: Group").
    public var heading: String
    /// The title of the group whose children this level shows, or nil on the root level.
    public var parentTitle: String?
    /// The level's groups, in service order.
    public var rows: [Row]
    /// A problem to show (e.g. the groups cannot be read), if any.
    public var message: String?

    /// Makes view data.
    public init(heading: String, parentTitle: String? = nil, rows: [Row], message: String? = nil) {
        self.heading = heading
        self.parentTitle = parentTitle
        self.rows = rows
        self.message = message
    }
}

/// Reports what the user does on one level of the group step.
public protocol WizardGroupViewDelegate: AnyObject {
    /// A row was tapped.
    func didSelect(groupID: GroupID)
    /// The back button popped `view`, one level of the step.
    func didGoBack(from view: any WizardGroupView)
}

/// One level of the wizard's group step.
public protocol WizardGroupView: View {
    /// Receives the user's actions.
    var delegate: (any WizardGroupViewDelegate)? { get set }
    /// What the level shows.
    var viewData: WizardGroupViewData { get set }
}

/// The headless group level: the note (if any) as body and one row per group — `drillDown` for a
/// group with children, `choice` for a leaf — whose value is the group's title; the advert's
/// current group is selected. Its context is the parent group's title.
public final class HeadlessWizardGroupView: WizardGroupView {
    /// The screen's name in screen descriptions and navigation states.
    public static let screenName = "wizard-group"
    public weak var delegate: (any WizardGroupViewDelegate)?
    public var viewData = WizardGroupViewData(heading: "", rows: [])

    /// Makes an empty level.
    public init() {}

    public var screen: ScreenContent {
        ScreenContent(
            name: Self.screenName, context: viewData.parentTitle, title: viewData.heading,
            body: [viewData.message].compactMap { $0 },
            items: viewData.rows.map {
                ScreenItem(id: $0.groupID, title: $0.title, kind: $0.hasChildren ? .drillDown : .choice,
                           value: $0.title, isSelected: $0.isSelected)
            })
    }

    public var screenID: ScreenID { ScreenID(name: Self.screenName, context: viewData.parentTitle) }

    public func receive(_ input: UserInput) throws {
        switch input {
        case .select(let id) where viewData.rows.contains(where: { $0.groupID == id }):
            delegate?.didSelect(groupID: id)
        default: throw UserInputError(screen: Self.screenName, input: input)
        }
    }

    public func navigationDidGoBack() {
        delegate?.didGoBack(from: self)
    }
}
