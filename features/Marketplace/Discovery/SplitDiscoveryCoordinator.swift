import Classifieds
import RemixKit

/// Discovery on a tablet: the list in the split view's master, the selected advert in its detail;
/// filtering and insertion are presented modally (insertion with a Cancel button).
public final class SplitDiscoveryCoordinator: AppRoot, AdvertListCoordinatorDelegate,
    GroupSelectionCoordinatorDelegate, FlowCoordinatorDelegate {
    private let window: Window
    private let split: any SplitWireframe
    private let dependencies: DiscoveryFeature.Dependencies
    private let interactor: DiscoveryInteractor
    private let advertList: AdvertListCoordinator
    private let masterNavigation: any NavigationWireframe
    private var groupSelection: GroupSelectionCoordinator?
    private var insertion: (any FlowCoordinator)?
    /// When the running insertion started (session time), for its duration.
    private var insertionStart: Duration?

    init(window: Window, dependencies: consuming DiscoveryFeature.Dependencies, interactor: DiscoveryInteractor) {
        self.window = window
        self.split = window.makeSplit()
        self.interactor = interactor
        self.masterNavigation = window.makeNavigation()
        self.advertList = dependencies.advertList.makeCoordinator(navigation: masterNavigation)
        self.dependencies = dependencies
    }

    public func start() {
        advertList.delegate = self
        advertList.start()
        split.master = masterNavigation
        window.setRoot(split)
    }

    public func didSelect(advertID: AdvertID) {
        dependencies.showDetail(of: advertID, from: interactor) { split.detail = window.makeViewable($0) }
    }

    public func didSelectFiltersAction() {
        let navigation = window.makeNavigation()
        let coordinator = dependencies.groupSelection.makeCoordinator(navigation: navigation, screenName: MarketplaceScreens.filter)
        coordinator.delegate = self
        groupSelection = coordinator
        coordinator.start()
        split.present(navigation)
    }

    public func didSelect(groupID: GroupID?) {
        advertList.updateAdverts(for: groupID)
        dependencies.recordFilter(groupID)
        didCancelSelection()
    }

    public func didCancelSelection() {
        groupSelection = nil
        split.dismiss()
    }

    public func didSelectNewAdvertAction() {
        let navigation = window.makeNavigation()
        insertionStart = dependencies.now
        guard let coordinator = dependencies.startInsertion(on: navigation, delegate: self) else { return }
        insertion = coordinator
        split.present(navigation)
        navigation.setLeftButton(title: "Cancel") { [weak self, weak coordinator] in
            guard let self, let coordinator else { return }
            flowCoordinator(coordinator, didFinishWith: .cancelled)
        }
    }

    public func flowCoordinator(_ coordinator: any FlowCoordinator, didFinishWith outcome: FlowOutcome) {
        if case .completed = outcome { advertList.reloadAdverts() }
        dependencies.recordInsertion(outcome, startedAt: insertionStart)
        insertion = nil
        split.dismiss()
    }
}
