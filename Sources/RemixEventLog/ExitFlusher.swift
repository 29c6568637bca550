import Synchronization
import RemixFiles

/// Flushes event logs when the process is asked to stop (SIGINT, SIGTERM), then exits with the
/// conventional status (128 + signal), so an interrupted run keeps every event it produced. The
/// signals themselves are handled by ``StopSignals``, with every other command's clean-up.
package final class ExitFlusher: Sendable {
    /// The process-wide flusher.
    package static let shared = ExitFlusher()

    private let registrations = Mutex<[ObjectIdentifier: StopSignals.Registration]>([:])

    private init() {}

    /// Flushes `log` on SIGINT and SIGTERM until it is removed.
    package func watch(_ log: JSONLinesFile) {
        // Closing writes the buffer and makes later appends fail, so nothing is half-written.
        let registration = StopSignals.shared.onStop("the event log was flushed") { try? log.close() }
        registrations.withLock { $0[ObjectIdentifier(log)] = registration }
    }

    /// Stops watching `log`.
    package func remove(_ log: JSONLinesFile) {
        guard let registration = registrations.withLock({ $0.removeValue(forKey: ObjectIdentifier(log)) }) else { return }
        StopSignals.shared.remove(registration)
    }
}
