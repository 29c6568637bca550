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
        return table.rules.first { Self.contains(lowered, $0.keyword.lowercased()) }?.groupID ?? table.defaultGroupID
    }

    /// Whether `keyword` occurs in `text`. Printable ASCII texts are compared byte by byte, which
    /// gives the answer the general search gives them without its work per character.
    static func contains(_ text: String, _ keyword: String) -> Bool {
        let textBytes = Array(text.utf8), keywordBytes = Array(keyword.utf8)
        guard !keywordBytes.isEmpty, textBytes.allSatisfy(isPrintableASCII), keywordBytes.allSatisfy(isPrintableASCII) else {
            return text.contains(keyword)
        }
        guard keywordBytes.count <= textBytes.count else { return false }
        return (0...textBytes.count - keywordBytes.count).contains { start in
            textBytes[start..<start + keywordBytes.count].elementsEqual(keywordBytes)
        }
    }

    private static func isPrintableASCII(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x80 }

    public func recommendGroup(for text: String, completion: @escaping (GroupID) -> Void) {
        let groupID = recommendation(for: text)
        clock.schedule(after: delay) { completion(groupID) }
    }
}
