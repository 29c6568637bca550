import Classifieds
import RemixKit

/// The adverts to list and the groups to name them by, under the current filter.
public struct AdvertListing: Equatable, Sendable {
    public var adverts: [Advert]
    public var groups: [Group]

    /// Makes a listing.
    public init(adverts: [Advert], groups: [Group]) {
        self.adverts = adverts
        self.groups = groups
    }
}

/// Keeps the list's group filter and fetches what to show: adverts whose group is exactly the
/// filter (no descendants), or all adverts when there is no filter.
public final class AdvertListInteractor {
    private let advertService: any AdvertService
    private let groupService: any GroupService
    /// The group the list is filtered by; kept across reloads.
    public var filteredGroupID: GroupID? { filter }
    /// Private, so that the compiler sees every access and checks their exclusive access when
    /// compiling.
    private var filter: GroupID?

    /// Makes the interactor.
    public init(advertService: any AdvertService, groupService: any GroupService) {
        self.advertService = advertService
        self.groupService = groupService
    }

    /// Sets the filter (nil: no filter) and fetches.
    public func updateFilter(groupID: GroupID?, completion: (AsyncResult<AdvertListing>) -> Void) {
        filter = groupID
        fetchAdverts(completion: completion)
    }

    /// Fetches with the current filter.
    public func fetchAdverts(completion: (AsyncResult<AdvertListing>) -> Void) {
        var adverts: [Advert]?
        var groups: [Group]?
        advertService.fetchAdverts { if case .success(let value) = $0 { adverts = value } }
        groupService.fetchGroups { if case .success(let value) = $0 { groups = value } }
        guard let adverts, let groups else {
            completion(.error)
            return
        }
        let shown = filter.map { filter in adverts.filter { $0.groupID == filter } } ?? adverts
        completion(.success(AdvertListing(adverts: shown, groups: groups)))
    }
}
