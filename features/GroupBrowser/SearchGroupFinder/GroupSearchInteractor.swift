import Classifieds
import Foundation
import RemixKit

/// Which leaf groups a query finds.
public final class GroupSearchInteractor {
    private let groupService: any GroupService

    /// Makes the interactor over `groupService`.
    public init(groupService: any GroupService) {
        self.groupService = groupService
    }

    /// The leaf groups whose title contains the query, ignoring case and surrounding spaces, in
    /// service order; every leaf for a blank query.
    public func leafGroups(matching query: String) -> [Group] {
        let needle = query.trimmingCharacters(in: .whitespaces)
        var found: [Group] = []
        groupService.fetchGroups { result in
            guard case .success(let groups) = result else { return }
            found = groups.filter {
                $0.children.isEmpty && (needle.isEmpty || $0.title.range(of: needle, options: .caseInsensitive) != nil)
            }
        }
        return found
    }

    /// Whether a query is empty once spaces are trimmed.
    public static func isBlank(_ query: String) -> Bool {
        query.trimmingCharacters(in: .whitespaces).isEmpty
    }
}
