import RemixExperiments
import RemixStickyBuckets
import RemixStore

/// `--sticky FILE|URL`: where sticky-bucket documents are kept. A `postgres://` (or
/// `postgresql://`) URL is the event store's `remix_sticky_buckets` table; anything else is a
/// JSON Lines file (``StickyBucketFile``). Sticky bucketing is on only when the option is given.
package enum StickyBucketOption {
    /// The store `value` names; a file path that cannot hold documents (a folder, a device, a
    /// missing folder) is refused here, before the command does its work.
    package static func store(_ value: String) throws -> any StickyBucketStore {
        guard !value.isEmpty else { throw AppError("--sticky is empty; give a file path or a postgres:// URL") }
        if StoreURL.isStoreURL(value) { return PostgresStickyBucketStore(url: try StoreURL(parsing: value)) }
        let file = StickyBucketFile(path: value)
        if let problem = file.problem() { throw AppError(problem.description) }
        return file
    }

    /// The attributes whose documents an experiment may read: its hash attribute and fallback.
    package static func attributes(of experiment: Experiment) -> [String] {
        [experiment.hashAttribute.flatMap { $0.isEmpty ? nil : $0 } ?? "id"]
            + (experiment.fallbackAttribute.flatMap { $0.isEmpty ? nil : $0 }.map { [$0] } ?? [])
    }
}
