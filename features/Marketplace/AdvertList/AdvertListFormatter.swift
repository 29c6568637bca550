import Classifieds
import RemixKit

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
