import RemixEventLog
import RemixKit

/// A simulation's events into an event store, block by block: each block is one transaction keyed
/// by (run, shard, block), so a write that is retried — after a lost connection, or by `--resume`
/// after the process stopped — is a no-op when the block is already stored. When a write fails in
/// a way that may pass (``StoreError/isTransient``: the connection was lost, the server restarts,
/// a transaction was rolled back for others), it reconnects and tries again with backoff for up to
/// `retrySeconds`; any other failure ends the run at once.
///
/// An actor: the simulation's writer awaits each call in order, and nothing blocks a thread.
package actor StoreBlockSink: AsyncEventBlockSink {
    /// Where it writes.
    package let url: StoreURL
    /// The run's id (``BlockKey/run``).
    package let run: String
    /// This process's shard, 1-based, and the run's number of shards.
    package let shard: Int
    package let shards: Int
    /// Whether the run may already be partly stored (complete it) or must be new.
    package let resume: Bool
    /// How long to keep retrying after a connection is lost.
    package let retrySeconds: Double
    /// Users stored in this shard: before this process started, and by it.
    package private(set) var usersStoredBefore = 0
    package private(set) var usersStored = 0
    /// Blocks that were already stored (skipped) and written by this process.
    package private(set) var blocksSkipped = 0
    package private(set) var blocksWritten = 0
    /// Events this process stored, and how many make a bulk write that ends with a vacuum.
    private var eventsWritten = 0
    private let vacuumAfterEvents: Int
    /// The default of `vacuumAfterEvents`: a bulk write.
    package static let bulkWriteEvents = 1_000_000
    private var store: PostgresStore?
    private let onRetry: @Sendable (String) -> Void
    let clock: RetryClock

    package nonisolated var needsEvents: Bool { true }

    /// A sink for shard `shard` of `shards` of run `run`; `onRetry` is told about each failure
    /// before the sink tries again (e.g. to warn on standard error).
    /// A write of at least `vacuumAfterEvents` events ends with a vacuum (``finish()``).
    package init(url: StoreURL, run: String, shard: Int, shards: Int, resume: Bool, retrySeconds: Double,
                vacuumAfterEvents: Int = bulkWriteEvents, onRetry: @escaping @Sendable (String) -> Void = { _ in }) {
        self.init(url: url, run: run, shard: shard, shards: shards, resume: resume, retrySeconds: retrySeconds,
                  clock: .continuous, vacuumAfterEvents: vacuumAfterEvents, onRetry: onRetry)
    }

    /// As the public initializer, with the clock that times the retries (tests pass one that only counts).
    init(url: StoreURL, run: String, shard: Int, shards: Int, resume: Bool, retrySeconds: Double, clock: RetryClock,
         vacuumAfterEvents: Int = bulkWriteEvents, onRetry: @escaping @Sendable (String) -> Void) {
        self.url = url
        self.run = run
        self.shard = shard
        self.shards = shards
        self.resume = resume
        self.retrySeconds = retrySeconds
        self.clock = clock
        self.vacuumAfterEvents = vacuumAfterEvents
        self.onRetry = onRetry
    }

    package func begin(run record: LoggedEvent) async throws {
        try await open()
        try await self.record(run: record)
    }

    /// Connects, makes or checks the schema, and finds how much of the run's shard is stored: a
    /// run that is already (partly) stored is refused unless the sink resumes it.
    package func open() async throws(StoreError) {
        let store = try await connected()
        try await store.prepareSchema()
        let (blocks, users) = try await store.storedBlocks(run: run, shard: shard)
        if blocks > 0, !resume {
            throw StoreError(.alreadyStored, "the event store at \(url.redacted) already holds \(users) users of this run "
                + "(\(run), shard \(shard)/\(shards)); add --resume to complete it, or change --seed or --users for a new run")
        }
        usersStoredBefore = users
    }

    /// Stores the run record of the run's shard (once: a second one is a no-op).
    package func record(run record: LoggedEvent) async throws(StoreError) {
        let (run, shard, shards) = (self.run, self.shard, self.shards)
        try await withRetries { store async throws(StoreError) in try await store.writeRun(record, run: run, shard: shard, shards: shards) }
    }

    package func write(block index: Int, lines _: [UInt8], events: [LoggedEvent], users: Int) async throws {
        let key = BlockKey(run: run, shard: shard, block: Int64(index))
        let written = try await withRetries { store async throws(StoreError) in try await store.write(events, as: key) }
        if written {
            blocksWritten += 1
            eventsWritten += events.count
            usersStored += users
        } else {
            blocksSkipped += 1
        }
    }

    /// Ends a write that completed: after a bulk write (this process stored `vacuumAfterEvents`
    /// events or more), vacuums the events table (`SKIP_LOCKED`: not while another shard's vacuum
    /// runs) so that the analysis reads its covering indexes without the table, rather than once
    /// autovacuum comes by; then closes the connection. Smaller writes leave it to autovacuum,
    /// whose lag they barely add to. The events are stored either way, so a vacuum that fails (a
    /// role that does not own the table is only warned) is left to autovacuum too.
    package func finish() async {
        if eventsWritten >= vacuumAfterEvents, eventsWritten > 0, let store {
            _ = try? await store.run("VACUUM (ANALYZE, SKIP_LOCKED) remix_events")
        }
        await close()
    }

    /// Closes the connection.
    package func close() async {
        await store?.close()
        store = nil
    }

    /// Runs `body` with the store; when it fails in a way that may pass, it reconnects and tries
    /// again — 0.25 s, then doubling up to 4 s between tries — until `retrySeconds` have passed,
    /// then gives up saying how much is stored. A cancelled task stops at once.
    func withRetries<T: Sendable>(
        _ body: @Sendable (PostgresStore) async throws(StoreError) -> T
    ) async throws(StoreError) -> T {
        let started = clock.now()
        var pause = Duration.milliseconds(250)
        while true {
            do throws(StoreError) {
                return try await body(try await connected())
            } catch let error where error.isTransient && !Task.isCancelled {
                await close()
                guard clock.now() - started + pause <= .seconds(retrySeconds) else {
                    throw StoreError(error.kind, "\(error.message); gave up after \(Int(retrySeconds)) s of retries "
                        + "(--retry-seconds). \(usersStoredBefore + usersStored) users of this shard are stored; run the "
                        + "same command with --resume to complete the run without duplicates", sqlState: error.sqlState)
                }
                onRetry("lost the event store (\(error.message)); retrying in \(pause.seconds) s "
                        + "(\(usersStoredBefore + usersStored) users of this shard stored so far)")
                do {
                    try await clock.sleep(pause)
                } catch {
                    throw StoreFailure.map(error, url)
                }
                pause = min(pause * 2, .seconds(4))
            }
        }
    }

    /// The open connection, or a new one.
    private func connected() async throws(StoreError) -> PostgresStore {
        if let store, !store.isClosed { return store }
        let fresh = try await PostgresStore.connect(url)
        store = fresh
        return fresh
    }
}

/// How a writer measures the time it has spent retrying and waits between tries: real time, or in
/// tests a clock that only adds up the pauses (no test waits for one).
struct RetryClock: Sendable {
    /// The time on this clock.
    var now: @Sendable () -> Duration
    /// Waits `duration`; throws when the task is cancelled.
    var sleep: @Sendable (Duration) async throws -> Void

    static var continuous: RetryClock {
        let origin = ContinuousClock.now
        return RetryClock(now: { ContinuousClock.now - origin }, sleep: { try await Task.sleep(for: $0) })
    }
}
