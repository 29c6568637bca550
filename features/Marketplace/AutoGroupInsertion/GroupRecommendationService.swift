import Classifieds
import RemixKit

/// Recommends a group for an advert title. It cannot fail.
public protocol GroupRecommendationService: AnyObject {
    /// Calls `completion` with the recommended group, possibly later on the session clock.
    func recommendGroup(for text: String, completion: @escaping (GroupID) -> Void)
}

/// Picks the first keyword rule (in table order) whose keyword occurs in the lower-cased title,
/// else the default group; answers after `delay` on the session clock (2 s, as in the seed).
public final class KeywordGroupRecommendationService: GroupRecommendationService {
    private let table: RecommendationTable
    private let clock: any Clock
    /// How long a recommendation takes.
    public var delay: Duration

    /// Makes the service.
    public init(table: RecommendationTable, clock: any Clock, delay: Duration = .seconds(2)) {
        self.table = table
        self.clock = clock
        self.delay = delay
    }

    /// The group the table picks for `text`, without waiting.
    public func recommendation(for text: String) -> GroupID {
        let lowered = text.lowercased()
        return table.rules.first { lowered.contains($0.keyword.lowercased()) }?.groupID ?? table.defaultGroupID
    }

    public func recommendGroup(for text: String, completion: @escaping (GroupID) -> Void) {
        let groupID = recommendation(for: text)
        clock.schedule(after: delay) { completion(groupID) }
    }
}
