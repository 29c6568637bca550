import Classifieds
import RemixKit

/// Discovery on a phone: everything on one navigation stack. Filtering and insertion run after a
/// pop checkpoint at the list and pop back to it when they end.
public final class NavigationDiscoveryCoordinator: AppRoot, AdvertListCoordinatorDelegate,
    GroupSelectionCoordinatorDelegate, FlowCoordinatorDelegate {
    private let window: Window
    private let navigation: any NavigationWireframe
    private let dependencies: DiscoveryFeature.Dependencies
    private let interactor: DiscoveryInteractor
    private let advertList: AdvertListCoordinator
    private var groupSelection: GroupSelectionCoordinator?
    private var insertion: (any FlowCoordinator)?
    /// When the running insertion started (session time), for its duration.
    private var insertionStart: Duration?

    init(window: Window, dependencies: consuming DiscoveryFeature.Dependencies, interactor: DiscoveryInteractor) {
        self.window = window
        self.navigation = window.makeNavigation()
        self.interactor = interactor
        self.advertList = dependencies.advertList.makeCoordinator(navigation: navigation)
        self.dependencies = dependencies
    }

    public func start() {
        advertList.delegate = self
        advertList.start()
        window.setRoot(navigation)
    }

    public func didSelect(advertID: AdvertID) {
        dependencies.showDetail(of: advertID, from: interactor) { navigation.push($0) }
    }

    public func didSelectFiltersAction() {
        navigation.setPopCheckpoint()
        let coordinator = dependencies.groupSelection.makeCoordinator(navigation: navigation, screenName: MarketplaceScreens.filter)
        coordinator.delegate = self
        groupSelection = coordinator
        coordinator.start()
    }

    public func didSelect(groupID: GroupID?) {
        advertList.updateAdverts(for: groupID)
        dependencies.recordFilter(groupID)
        endGroupSelection()
    }

    public func didCancelSelection() {
        endGroupSelection()
    }

    private func endGroupSelection() {
        groupSelection = nil
        navigation.popToLastCheckpoint()
    }

    public func didSelectNewAdvertAction() {
        navigation.setPopCheckpoint()
        insertionStart = dependencies.now
        insertion = dependencies.startInsertion(on: navigation, delegate: self)
        if insertion == nil { navigation.unsetPopCheckpoint() }
    }

    public func flowCoordinator(_ coordinator: any FlowCoordinator, didFinishWith outcome: FlowOutcome) {
        if case .completed = outcome { advertList.reloadAdverts() }
        dependencies.recordInsertion(outcome, startedAt: insertionStart)
        insertion = nil
        navigation.popToLastCheckpoint()
    }
}
