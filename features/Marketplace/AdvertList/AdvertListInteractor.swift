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
    public private(set) var filteredGroupID: GroupID?

    /// Makes the interactor.
    public init(advertService: any AdvertService, groupService: any GroupService) {
        self.advertService = advertService
        self.groupService = groupService
    }

    /// Sets the filter (nil: no filter) and fetches.
    public func updateFilter(groupID: GroupID?, completion: (AsyncResult<AdvertListing>) -> Void) {
        filteredGroupID = groupID
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
        let shown = filteredGroupID.map { filter in adverts.filter { $0.groupID == filter } } ?? adverts
        completion(.success(AdvertListing(adverts: shown, groups: groups)))
    }
}

/// Turns a listing into advert-list view data.
public enum AdvertListFormatter {
    /// One row per advert, in order; the group column is the group's title, or "" if unknown.
    public static func prepare(_ listing: AdvertListing, filter: GroupID? = nil) -> AdvertListViewData {
        let titles = GroupTitles(listing.groups)
        return AdvertListViewData(
            items: listing.adverts.map {
                .init(advertID: $0.advertID, title: $0.title, group: titles[$0.groupID] ?? "")
            },
            filterTitle: filter.map { titles[$0] ?? $0 })
    }
}

/// Group titles by id, the first group of an id winning. A short list is searched in place (the
/// list is prepared on every reload, and hashing its ids cost more than the search); a long one
/// is indexed once.
private struct GroupTitles {
    /// Up to this many groups are searched rather than indexed.
    static let searchLimit = 32
    private let groups: [Group]
    private let index: [GroupID: String]?

    init(_ groups: [Group]) {
        self.groups = groups
        if groups.count <= Self.searchLimit {
            index = nil
        } else {
            var titles: [GroupID: String] = [:]
            for group in groups where titles[group.groupID] == nil { titles[group.groupID] = group.title }
            index = titles
        }
    }

    subscript(groupID: GroupID) -> String? {
        if let index { return index[groupID] }
        return groups.firstIndex { $0.groupID == groupID }.map { groups[$0].title }
    }
}
