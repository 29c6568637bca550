import Classifieds
import RemixKit

/// Turns a group into detail view data: its title and description.
public enum GroupDetailFormatter {
    /// The detail view data for `group`.
    public static func prepare(_ group: Group) -> ItemDetailViewData {
        ItemDetailViewData(title: group.title, detail: group.description)
    }
}

/// GroupBrowser's root: the group tree; choosing a leaf shows its description, Reset returns to
/// the root list.
public final class GroupBrowserFeature: Feature {
    private let groupService: any GroupService
    private let groupSelection: GroupSelectionFeature
    private let events: any EventSink
    private let makeDetailView: () -> any ItemDetailView

    /// Makes the feature.
    public init(groupService: any GroupService, groupSelection: GroupSelectionFeature, events: any EventSink,
                makeDetailView: @escaping () -> any ItemDetailView = { HeadlessItemDetailView() }) {
        self.groupService = groupService
        self.groupSelection = groupSelection
        self.events = events
        self.makeDetailView = makeDetailView
    }

    /// The coordinator, with a navigation stack as the window's root.
    public func makeCoordinator(window: Window) -> GroupBrowserCoordinator {
        GroupBrowserCoordinator(window: window, groupService: groupService, groupSelection: groupSelection,
                                events: events, makeDetailView: makeDetailView)
    }
}

/// Browses the group tree and shows leaf groups in detail.
public final class GroupBrowserCoordinator: AppRoot, GroupSelectionCoordinatorDelegate {
    private let window: Window
    private let navigation: any NavigationWireframe
    private let groupService: any GroupService
    private let selection: GroupSelectionCoordinator
    private let events: any EventSink
    private let makeDetailView: () -> any ItemDetailView

    init(window: Window, groupService: any GroupService, groupSelection: GroupSelectionFeature,
         events: any EventSink, makeDetailView: @escaping () -> any ItemDetailView) {
        self.window = window
        self.navigation = window.makeNavigation()
        self.groupService = groupService
        self.selection = groupSelection.makeCoordinator(navigation: navigation)
        self.events = events
        self.makeDetailView = makeDetailView
    }

    public func start() {
        navigation.setPopCheckpoint()
        selection.delegate = self
        selection.start()
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
