import RemixKit

/// Reports the end of a group selection.
public protocol GroupSelectionCoordinatorDelegate: AnyObject {
    /// A leaf was chosen, or nil for "Reset".
    func didSelect(groupID: GroupID?)
    /// The user backed out of the root level (or chose a group that no longer exists).
    func didCancelSelection()
}

/// Lets the user pick a leaf group by drilling down the tree. Reused by Marketplace's filter and
/// manual insertion, and as GroupBrowser's root.
public final class GroupSelectionFeature: Feature {
    private let groupService: any GroupService
    private let makeView: () -> any GroupSelectionView

    /// Makes the feature over `groupService`; `makeView` makes each level's view.
    public init(groupService: any GroupService,
                makeView: @escaping () -> any GroupSelectionView = { HeadlessGroupSelectionView() }) {
        self.groupService = groupService
        self.makeView = makeView
    }

    /// A coordinator that pushes its levels on `navigation`, each a screen named `screenName`.
    public func makeCoordinator(navigation: any NavigationWireframe,
                                screenName: String = GroupSelectionViewData.defaultScreenName) -> GroupSelectionCoordinator {
        GroupSelectionCoordinator(
            navigation: navigation, interactor: GroupSelectionInteractor(groupService: groupService),
            makeView: makeView, screenName: screenName)
    }
}

/// The flow of group selection: one pushed list per level; leaves end it.
public final class GroupSelectionCoordinator: GroupSelectionViewDelegate {
    /// Receives the selection or the cancellation.
    public var delegate: (any GroupSelectionCoordinatorDelegate)? {
        get { weakDelegate }
        set { weakDelegate = newValue }
    }
    /// Weak, so that a tap on a view outliving its delegate does nothing; private, so that the
    /// compiler sees every access and checks their exclusive access when compiling.
    private weak var weakDelegate: (any GroupSelectionCoordinatorDelegate)?
    private let navigation: any NavigationWireframe
    private let interactor: GroupSelectionInteractor
    private let makeView: () -> any GroupSelectionView
    private let screenName: String
    /// The first level's view, to tell its abort (the flow's cancel) from a deeper level's. Held
    /// strongly: it holds this coordinator weakly, and a weak reference to it would give every
    /// count of the view the runtime's slow path.
    private var rootView: (any GroupSelectionView)?

    init(navigation: any NavigationWireframe, interactor: GroupSelectionInteractor,
         makeView: @escaping () -> any GroupSelectionView, screenName: String) {
        self.navigation = navigation
        self.interactor = interactor
        self.makeView = makeView
        self.screenName = screenName
    }

    /// Pushes the root level.
    public func start() {
        rootView = pushLevel(parent: nil)
    }

    @discardableResult
    private func pushLevel(parent: GroupID?) -> any GroupSelectionView {
        let view = makeView()
        view.delegate = self
        view.viewData.screenName = screenName
        let parentTitle = parent.flatMap(interactor.title(of:))
        interactor.fetchGroups(parentGroupID: parent) { [screenName] result in
            if case .success(let groups) = result {
                view.viewData = GroupSelectionFormatter.prepare(groups: groups, parentTitle: parentTitle, screenName: screenName)
            }
        }
        navigation.push(view)
        return view
    }

    public func titles(below groupID: GroupID) -> [String] {
        interactor.titles(below: groupID)
    }

    public func didSelect(groupID: GroupID) {
        interactor.findSelectionType(for: groupID) { result in
            switch result {
            case .success(.leaf): delegate?.didSelect(groupID: groupID)
            case .success(.parent): pushLevel(parent: groupID)
            case .error: delegate?.didCancelSelection()
            }
        }
    }

    public func didDeselectAll() {
        delegate?.didSelect(groupID: nil)
    }

    public func didAbortSelection(fromView view: any GroupSelectionView) {
        if view === rootView { delegate?.didCancelSelection() }
    }
}
