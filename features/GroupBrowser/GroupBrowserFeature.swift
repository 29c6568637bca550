import Classifieds
import RemixKit

/// Turns a group into detail view data: its title and description.
public enum GroupDetailFormatter {
    /// The detail view data for `group`.
    public static func prepare(_ group: Group) -> ItemDetailViewData {
        ItemDetailViewData(title: group.title, detail: group.description)
    }
}

/// GroupBrowser's root: the `navigation` slot's way of finding a group (the tree by default);
/// choosing a leaf shows its description, Reset returns to the first screen.
public final class GroupBrowserFeature: Feature {
    private let groupService: any GroupService
    private let finder: Slot
    private let events: any EventSink
    private let makeDetailView: () -> any ItemDetailView

    /// Makes the feature; `finder` is the filled `navigation` slot.
    public init(groupService: any GroupService, finder: Slot, events: any EventSink,
                makeDetailView: @escaping () -> any ItemDetailView = { HeadlessItemDetailView() }) {
        self.groupService = groupService
        self.finder = finder
        self.events = events
        self.makeDetailView = makeDetailView
    }

    /// The coordinator, with a navigation stack as the window's root.
    public func makeCoordinator(window: Window) -> GroupBrowserCoordinator {
        GroupBrowserCoordinator(window: window, groupService: groupService, finder: finder,
                                events: events, makeDetailView: makeDetailView)
    }
}

/// Runs the way of finding a group and shows leaf groups in detail.
public final class GroupBrowserCoordinator: AppRoot, GroupSelectionCoordinatorDelegate {
    private let window: Window
    private let navigation: any NavigationWireframe
    private let groupService: any GroupService
    private let finder: Slot
    private var finding: (any GroupFinderCoordinator)?
    private let events: any EventSink
    private let makeDetailView: () -> any ItemDetailView

    init(window: Window, groupService: any GroupService, finder: Slot,
         events: any EventSink, makeDetailView: @escaping () -> any ItemDetailView) {
        self.window = window
        self.navigation = window.makeNavigation()
        self.groupService = groupService
        self.finder = finder
        self.events = events
        self.makeDetailView = makeDetailView
    }

    /// Shows the finder's first screen: the slot's first use, so the session's exposure.
    public func start() {
        navigation.setPopCheckpoint()
        if let feature = finder.use(as: (any GroupFinderFeature).self) {
            let coordinator = feature.makeCoordinator(navigation: navigation)
            coordinator.delegate = self
            finding = coordinator
            coordinator.start()
        }
        window.setRoot(navigation)
    }

    public func didSelect(groupID: GroupID?) {
        guard let groupID else {
            navigation.popToLastCheckpoint()
            navigation.setPopCheckpoint()
            return
        }
        groupService.fetchGroup(for: groupID) { result in
            guard case .success(let group) = result else { return }
            let view = makeDetailView()
            view.viewData = GroupDetailFormatter.prepare(group)
            events.record(DomainEvent("group_viewed", [EventField("group", .string(groupID))]))
            navigation.push(view)
        }
    }

    public func didCancelSelection() {}
}
