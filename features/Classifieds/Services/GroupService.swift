import RemixKit

/// The gateway to the group tree.
public protocol GroupService: AnyObject {
    /// All groups in service order.
    func fetchGroups(completion: (AsyncResult<[Group]>) -> Void)
    /// The group with that id, or an error if there is none.
    func fetchGroup(for groupID: GroupID, completion: (AsyncResult<Group>) -> Void)
}

/// Groups held in memory (the only implementation, as in the seed).
public final class InMemoryGroupService: GroupService {
    /// The groups, in service order.
    public var groups: [Group] {
        get { storedGroups }
        set {
            // Swapped in, so that the old list goes after the change: then no access to it
            // overlaps another, and its exclusive access is checked when compiling.
            var replaced = newValue
            swap(&replaced, &storedGroups)
        }
    }
    private var storedGroups: [Group]

    /// Makes the service with `groups`.
    public init(groups: [Group]) {
        storedGroups = groups
    }

    public func fetchGroups(completion: (AsyncResult<[Group]>) -> Void) {
        completion(.success(storedGroups))
    }

    public func fetchGroup(for groupID: GroupID, completion: (AsyncResult<Group>) -> Void) {
        if let group = storedGroups.first(where: { $0.groupID == groupID }) {
            completion(.success(group))
        } else {
            completion(.error)
        }
    }
}
