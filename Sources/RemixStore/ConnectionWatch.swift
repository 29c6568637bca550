import PostgresNIO
import Synchronization

/// Ends calls on a connection that closes under them. When the server dies in the middle of a
/// COPY, PostgresNIO (1.x) can leave the call waiting forever (it leaks the call's continuation:
/// `SWIFT TASK CONTINUATION MISUSE: copyFrom… leaked its continuation`). A call made through
/// ``PostgresStore/unlessClosed(_:)`` fails instead, as a lost connection (``StoreError/isTransient``),
/// as soon as the connection closes; the abandoned call stays suspended on its leaked
/// continuation — it holds its memory and nothing else, and nothing waits for it.
final class ConnectionWatch: Sendable {
    private struct State {
        var closed = false
        var next = 0
        var waiting: [Int: @Sendable () -> Void] = [:]
    }

    private let state = Mutex(State())

    /// Watches the connection whose channel completes `closed` when it closes.
    init(_ closed: EventLoopFuture<Void>) {
        closed.whenComplete { [weak self] _ in self?.closed() }
    }

    private func closed() {
        let waiting = state.withLock { state in
            state.closed = true
            defer { state.waiting.removeAll() }
            return Array(state.waiting.values)
        }
        for onClose in waiting { onClose() }
    }

    /// Calls `onClose` when the connection closes, unless ``forget(_:)`` comes first; nil (and no
    /// call) when it is closed already.
    func onClose(_ onClose: @escaping @Sendable () -> Void) -> Int? {
        state.withLock { state in
            guard !state.closed else { return nil }
            state.next += 1
            state.waiting[state.next] = onClose
            return state.next
        }
    }

    /// Drops the `onClose` registered as `id` (its call ended).
    func forget(_ id: Int) {
        _ = state.withLock { $0.waiting.removeValue(forKey: id) }
    }
}

/// A continuation resumed by whichever of two ends comes first.
private final class FirstOutcome<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Result<T, StoreError>, Never>?>

    init(_ continuation: CheckedContinuation<Result<T, StoreError>, Never>) {
        self.continuation = Mutex(continuation)
    }

    func resume(_ outcome: Result<T, StoreError>) {
        continuation.withLock { continuation in
            defer { continuation = nil }
            return continuation
        }?.resume(returning: outcome)
    }
}

extension PostgresStore {
    /// Runs `body`, which uses this connection, and fails as a lost connection if the connection
    /// closes before `body` ends (see ``ConnectionWatch``).
    func unlessClosed<T: Sendable>(_ body: @escaping @Sendable () async throws(StoreError) -> T) async throws(StoreError) -> T {
        let lost = StoreError(.unreachable, "PostgreSQL at \(url.endpoint) closed the connection during a call")
        let outcome: Result<T, StoreError> = await withCheckedContinuation { continuation in
            let first = FirstOutcome(continuation)
            guard let id = watch.onClose({ first.resume(.failure(lost)) }) else {
                first.resume(.failure(lost))
                return
            }
            Task { [watch] in
                let result: Result<T, StoreError>
                do throws(StoreError) {
                    result = .success(try await body())
                } catch {
                    result = .failure(error)
                }
                watch.forget(id)
                first.resume(result)
            }
        }
        return try outcome.get()
    }
}
