import Dispatch
import Foundation
import Synchronization
import RemixSystem

/// Flushes event logs when the process is asked to stop (SIGINT, SIGTERM), then exits with the
/// conventional status (128 + signal), so an interrupted run keeps every event it produced.
public final class ExitFlusher: Sendable {
    /// The process-wide flusher.
    public static let shared = ExitFlusher()

    private let logs = Mutex<[JSONLinesFile]>([])
    private let sources = Mutex<[any DispatchSourceSignal]>([])

    private init() {}

    /// Flushes `log` on SIGINT and SIGTERM until it is removed.
    public func watch(_ log: JSONLinesFile) {
        logs.withLock { $0.append(log) }
        installOnce()
    }

    /// Stops watching `log`.
    public func remove(_ log: JSONLinesFile) {
        logs.withLock { $0.removeAll { $0 === log } }
    }

    private func installOnce() {
        sources.withLock { sources in
            guard sources.isEmpty else { return }
            for signalNumber in [SIGINT, SIGTERM] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
                source.setEventHandler { [self] in
                    // Closing writes the buffer and makes later appends fail, so nothing is
                    // half-written; _exit then skips atexit work that would race the workers.
                    for log in logs.withLock({ $0 }) { try? log.close() }
                    let name = signalNumber == SIGINT ? "interrupted" : "terminated"
                    let message = Array("\nremix: \(name); the event log was flushed\n".utf8)
                    _ = message.withUnsafeBytes { SystemCalls.write(STDERR_FILENO, $0.baseAddress, $0.count) }
                    _exit(128 + signalNumber)
                }
                source.resume()
                sources.append(source)
            }
        }
    }
}
