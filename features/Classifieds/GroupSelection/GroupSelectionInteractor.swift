import RemixKit

/// Whether selecting a group ends the selection (a leaf) or drills down (a parent).
public enum GroupSelectionType: Equatable, Sendable {
    case leaf
    case parent
}

/// Business rules of group selection: which groups form a level, and leaf versus parent.
public final class GroupSelectionInteractor {
    private let groupService: any GroupService

    /// Makes the interactor over `groupService`.
    public init(groupService: any GroupService) {
        self.groupService = groupService
    }

    /// The groups whose parent is `parentGroupID` (nil: the roots), in service order.
    public func fetchGroups(parentGroupID: GroupID?, completion: (AsyncResult<[Group]>) -> Void) {
        groupService.fetchGroups { result in
            switch result {
            case .success(let groups): completion(.success(groups.filter { $0.parent == parentGroupID }))
            case .error: completion(.error)
            }
        }
    }

    /// Leaf when the group has no children, parent otherwise; an unknown id is an error.
    public func findSelectionType(for groupID: GroupID, completion: (AsyncResult<GroupSelectionType>) -> Void) {
        groupService.fetchGroup(for: groupID) { result in
            switch result {
            case .success(let group): completion(.success(group.children.isEmpty ? .leaf : .parent))
            case .error: completion(.error)
            }
        }
    }

    /// The group's title, if it exists.
    public func title(of groupID: GroupID) -> String? {
        var title: String?
        groupService.fetchGroup(for: groupID) { result in
            if case .success(let group) = result { title = group.title }
        }
        return title
    }

    /// The titles of every group below `groupID` (children, their children, …), for routes that
    /// name a group deeper than the level shown.
    public func titles(below groupID: GroupID) -> [String] {
        var titles: [String] = []
        var pending = [groupID]
        while let next = pending.popLast() {
            groupService.fetchGroup(for: next) { result in
                guard case .success(let group) = result else { return }
                for child in group.children {
                    groupService.fetchGroup(for: child) { found in
                        if case .success(let childGroup) = found { titles.append(childGroup.title) }
                    }
                    pending.append(child)
                }
            }
        }
        return titles
    }
}
