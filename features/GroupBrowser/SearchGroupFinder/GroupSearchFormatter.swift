import Classifieds
import Foundation
import RemixKit

/// Turns a query and its results into search view data.
public enum GroupSearchFormatter {
    /// The rows, and a note when a non-blank query matches nothing.
    public static func prepare(query: String, results: [Group]) -> GroupSearchViewData {
        let note = results.isEmpty && !GroupSearchInteractor.isBlank(query) ? "No group matches “\(query)”" : nil
        return GroupSearchViewData(query: query, results: results.map { .init(groupID: $0.groupID, title: $0.title) },
                                   note: note)
    }
}
