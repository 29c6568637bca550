import Classifieds
import RemixKit

/// Reports what the user wants from the advert list.
public protocol AdvertListCoordinatorDelegate: AnyObject {
    func didSelect(advertID: AdvertID)
    func didSelectNewAdvertAction()
    func didSelectFiltersAction()
}

/// The advert list with its group filter.
public final class AdvertListFeature: Feature {
    private let advertService: any AdvertService
    private let groupService: any GroupService
    private let makeView: () -> any AdvertListView

    /// Makes the feature.
    public init(advertService: any AdvertService, groupService: any GroupService,
                makeView: @escaping () -> any AdvertListView = { HeadlessAdvertListView() }) {
        self.advertService = advertService
        self.groupService = groupService
        self.makeView = makeView
    }

    /// A coordinator whose list goes on `navigation`.
    public func makeCoordinator(navigation: any NavigationWireframe) -> AdvertListCoordinator {
        AdvertListCoordinator(
            navigation: navigation,
            interactor: AdvertListInteractor(advertService: advertService, groupService: groupService),
            view: makeView())
    }
}

/// Shows the list and passes the user's choices up; reloads on request, keeping the filter.
public final class AdvertListCoordinator: AdvertListViewDelegate {
    /// Receives the user's choices.
    public var delegate: (any AdvertListCoordinatorDelegate)? {
        get { weakDelegate }
        set { weakDelegate = newValue }
    }
    /// Weak, so that a tap on a view outliving its delegate does nothing; private, so that the
    /// compiler sees every access and checks their exclusive access when compiling.
    private weak var weakDelegate: (any AdvertListCoordinatorDelegate)?
    private let navigation: any NavigationWireframe
    private let interactor: AdvertListInteractor
    private let view: any AdvertListView

    init(navigation: any NavigationWireframe, interactor: AdvertListInteractor, view: any AdvertListView) {
        self.navigation = navigation
        self.interactor = interactor
        self.view = view
        view.delegate = self
    }

    /// Fills and pushes the list.
    public func start() {
        reloadAdverts()
        navigation.push(view)
    }

    /// Fetches again with the current filter.
    public func reloadAdverts() {
        interactor.fetchAdverts(completion: show)
    }

    /// Sets the filter (nil: all adverts) and fetches.
    public func updateAdverts(for groupID: GroupID?) {
        interactor.updateFilter(groupID: groupID, completion: show)
    }

    private func show(_ result: AsyncResult<AdvertListing>) {
        if case .success(let listing) = result {
            view.viewData = AdvertListFormatter.prepare(listing, filter: interactor.filteredGroupID)
        }
    }

    public func didSelect(advertID: AdvertID) { delegate?.didSelect(advertID: advertID) }
    public func didSelectNewAdvertAction() { delegate?.didSelectNewAdvertAction() }
    public func didSelectFiltersAction() { delegate?.didSelectFiltersAction() }
}
