import Dispatch
import Foundation
import RemixEventLog
import RemixKit

/// A simulation's events into an event store, block by block: each block is one transaction keyed
/// by (run, shard, block), so a write that is retried — after a lost connection, or by `--resume`
/// after the process stopped — is a no-op when the block is already stored. When the server goes
/// away mid-run it reconnects and retries with backoff for up to `retrySeconds`.
///
/// The simulation runs on threads; this sink blocks its (writer) thread on each store call, which
/// runs on PostgresNIO's own event loop.
public final class StoreBlockSink: EventBlockSink {
    /// Where it writes.
    public let url: StoreURL
    /// The run's id (``BlockKey/run``).
    public let run: String
    /// This process's shard, 1-based, and the run's number of shards.
    public let shard: Int
    public let shards: Int
    /// Whether the run may already be partly stored (complete it) or must be new.
    public let resume: Bool
    /// How long to keep retrying after a connection is lost.
    public let retrySeconds: Double
    /// Users stored in this shard: before this process started, and by it.
    public private(set) var usersStoredBefore = 0
    public private(set) var usersStored = 0
    /// Blocks that were already stored (skipped) and written by this process.
    public private(set) var blocksSkipped = 0
    public private(set) var blocksWritten = 0
    private var store: PostgresStore?
    /// Told about each lost connection before the sink retries (e.g. to warn on standard error).
    public var onRetry: ((String) -> Void)?

    public var needsEvents: Bool { true }

    /// A sink for shard `shard` of `shards` of run `run`.
    public init(url: StoreURL, run: String, shard: Int, shards: Int, resume: Bool, retrySeconds: Double) {
        self.url = url
        self.run = run
        self.shard = shard
        self.shards = shards
        self.resume = resume
        self.retrySeconds = retrySeconds
    }

    public func begin(run record: LoggedEvent) throws {
        try open()
        try self.record(run: record)
    }

    /// Connects, makes or checks the schema, and finds how much of the run's shard is stored: a
    /// run that is already (partly) stored is refused unless the sink resumes it.
    public func open() throws {
        let store = try blocking { [url] in try await PostgresStore.connect(url) }
        self.store = store
        let (blocks, users) = try blocking { [run, shard] in
            try await store.prepareSchema()
            return try await store.storedBlocks(run: run, shard: shard)
        }
        if blocks > 0, !resume {
            throw StoreError(.alreadyStored, "the event store at \(url.redacted) already holds \(users) users of this run "
                + "(\(run), shard \(shard)/\(shards)); add --resume to complete it, or change --seed or --users for a new run")
        }
        usersStoredBefore = users
    }

    /// Stores the run record of the run's shard (once: a second one is a no-op).
    public func record(run record: LoggedEvent) throws {
        let (run, shard, shards) = (self.run, self.shard, self.shards)
        try withRetries { store in try await store.writeRun(record, run: run, shard: shard, shards: shards) }
    }

    public func write(block index: Int, lines _: [UInt8], events: [LoggedEvent], users: Int) throws {
        let key = BlockKey(run: run, shard: shard, block: Int64(index))
        let written = try withRetries { store in try await store.write(events, as: key) }
        if written {
            blocksWritten += 1
            usersStored += users
        } else {
            blocksSkipped += 1
        }
    }

    public func finish() throws {
        if let store { blocking { await store.close() } }
        store = nil
    }

    /// Closes the connection without waiting for anything else.
    public func close() {
        try? finish()
    }

    /// Runs `body` with the store; when the connection is lost (unreachable, timeout, closed), it
    /// reconnects and tries again — 0.25 s, then doubling up to 4 s between tries — until
    /// `retrySeconds` have passed, then gives up saying how much is stored.
    private func withRetries<T: Sendable>(_ body: @escaping @Sendable (PostgresStore) async throws -> T) throws -> T {
        let started = ContinuousClock.now
        var pause = 0.25
        while true {
            do {
                let store = try connected()
                return try blocking(closed: { store.isClosed }) { try await body(store) }
            } catch let error as StoreError where [.unreachable, .timeout].contains(error.kind) || error.isLostConnection {
                if let store { blocking { await store.close() } }
                store = nil
                guard (ContinuousClock.now - started).seconds + pause <= retrySeconds else {
                    throw StoreError(error.kind, "\(error.message); gave up after \(Int(retrySeconds)) s of retries "
                        + "(--retry-seconds). \(usersStoredBefore + usersStored) users of this shard are stored; run the "
                        + "same command with --resume to complete the run without duplicates")
                }
                onRetry?("lost the event store (\(error.message)); retrying in \(pause) s "
                         + "(\(usersStoredBefore + usersStored) users of this shard stored so far)")
                Thread.sleep(forTimeInterval: pause)
                pause = min(pause * 2, 4)
            }
        }
    }

    private func connected() throws -> PostgresStore {
        if let store { return store }
        let fresh = try blocking { [url] in try await PostgresStore.connect(url) }
        store = fresh
        return fresh
    }
}

extension StoreError {
    /// Whether the error means the connection went away (the server stopped or restarted), so a
    /// new connection may succeed.
    var isLostConnection: Bool {
        kind == .unreachable || message.contains("closed the connection")
            || message.contains("SQLSTATE 57P01") || message.contains("SQLSTATE 57P02") || message.contains("SQLSTATE 57P03")
    }
}

/// Runs `body` on a task and waits for it on this (non-async) thread, at most `limit`, and no longer
/// once `closed` says the connection is gone: PostgresNIO's COPY can wait forever when the server
/// dies in the middle of it, so such a call counts as a lost connection and its task is left behind.
func blocking<T: Sendable>(limit: Duration = .seconds(30), closed: () -> Bool = { false },
                           _ body: @escaping @Sendable () async throws -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        let outcome: Result<T, any Error>
        do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        box.set(outcome)
        done.signal()
    }
    let started = ContinuousClock.now
    while done.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
        if closed() { throw StoreError(.unreachable, "the connection to the event store closed") }
        if ContinuousClock.now - started > limit {
            throw StoreError(.timeout, "the event store did not answer within \(Int(limit.seconds)) s")
        }
    }
    guard let result = box.get() else { throw StoreError(.server, "the store call ended without a result") }
    return try result.get()
}

/// Runs `body` on a task and waits for it, for calls that cannot fail.
func blocking(_ body: @escaping @Sendable () async -> Void) {
    _ = try? blocking { () async throws -> Bool in
        await body()
        return true
    }
}

/// The result of a task, handed to the thread that waits for it.
/// Unchecked `Sendable`: `result` is read and written only under `lock`.
private final class ResultBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, any Error>?

    func set(_ value: Result<T, any Error>) {
        lock.withLock { result = value }
    }

    func get() -> Result<T, any Error>? {
        lock.withLock { result }
    }
}
