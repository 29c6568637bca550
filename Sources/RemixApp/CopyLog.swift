import RemixEventLog
import RemixFormats
import RemixKit
import RemixStore

/// `remix log copy SRC DST`: a JSON Lines file into an event store, or a store's events into a file.
package struct CopyLog {
    /// The log to read: a JSON Lines file or an event store's URL.
    package var source: String
    /// Where to write: an event store's URL or a JSON Lines file.
    package var destination: String
    /// Out of a store: only this run.
    package var run: String?
    /// Into a store: store the file even if the store holds it already.
    package var again = false

    /// A copy of `source` to `destination`.
    package init(source: String, destination: String) {
        self.source = source
        self.destination = destination
    }

    /// What was copied.
    package struct Outcome {
        /// The copy's figures (events, blocks, the run it became).
        package var copy: LogCopy.Outcome
        /// Whether it went out of a store into a file.
        package var fromStore: Bool
        /// The store's URL without its password.
        package var store: String
        /// Why the copy fails though complete: lines of the file that are not events were skipped.
        package var failure: AppError?
    }

    /// Copies the log. Lines of a file that are not events are skipped and listed in the outcome's
    /// ``Outcome/failure``.
    package func run(_ context: AppContext) async throws -> Outcome {
        let fromStore = StoreURL.isStoreURL(source), toStore = StoreURL.isStoreURL(destination)
        guard fromStore != toStore else {
            throw AppError(fromStore ? "both are event stores: copy one into a file, then the file into the other"
                                     : "both are files: use cp, or name an event store's postgresql:// URL as one of them")
        }
        if run != nil, !fromStore { throw AppError("--run picks a run out of a store; the source is a file here") }
        if again, fromStore { throw AppError("--again stores a file into a store once more; the source is a store here") }
        try Outputs.refuseOverInputs(inputs: [.init("the log", source)], outputs: [.init("destination", destination)])
        let progress = context.progress
        if fromStore {
            let url = try StoreURL(parsing: source)
            if let problem = LogTarget.problem(path: destination, replacing: true) { throw AppError(problem) }
            let copy = try await LogCopy.storeToFile(url, run: run, destination) { progress(WorkProgress(.events, done: $0, total: $1)) }
            return Outcome(copy: copy, fromStore: true, store: url.redacted)
        }
        let url = try StoreURL(parsing: destination)
        let copy = try await LogCopy.fileToStore(source, url, again: again) { progress(WorkProgress(.bytes, done: $0, total: $1)) }
        let failure = copy.badLines == 0 ? nil : AppError("\(CountText.grouped(copy.badLines)) line(s) are not events and were "
                                                           + "skipped (first: " + copy.firstBadLines.joined(separator: "; ") + ")")
        return Outcome(copy: copy, fromStore: false, store: url.redacted, failure: failure)
    }
}
