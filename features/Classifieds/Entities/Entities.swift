/// Identifies a group of adverts.
public typealias GroupID = String
/// Identifies an advert.
public typealias AdvertID = String

/// A classified advert.
public struct Advert: Equatable, Sendable {
    public var advertID: AdvertID
    public var title: String
    public var description: String
    public var groupID: GroupID

    /// Makes an advert.
    public init(advertID: AdvertID, title: String, description: String, groupID: GroupID) {
        self.advertID = advertID
        self.title = title
        self.description = description
        self.groupID = groupID
    }
}

/// A group in the group tree, stored flat with both a parent pointer and a children list.
public struct Group: Equatable, Sendable {
    public var groupID: GroupID
    public var parent: GroupID?
    public var children: [GroupID]
    public var title: String
    public var description: String

    /// Makes a group.
    public init(groupID: GroupID, parent: GroupID? = nil, children: [GroupID] = [], title: String, description: String = "") {
        self.groupID = groupID
        self.parent = parent
        self.children = children
        self.title = title
        self.description = description
    }
}

/// What an insertion flow collects before publishing: a title and a group.
public struct Draft: Equatable, Sendable {
    public var title: String?
    public var groupID: GroupID?

    /// An empty draft.
    public init(title: String? = nil, groupID: GroupID? = nil) {
        self.title = title
        self.groupID = groupID
    }
}
