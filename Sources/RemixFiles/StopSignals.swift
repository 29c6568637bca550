import Dispatch
import Foundation
import Synchronization
import RemixSystem

/// What the process does when it is asked to stop (SIGINT, SIGTERM) while it writes: the
/// registered actions run — an event log is flushed, an unfinished temporary file is removed — and
/// the process exits with the conventional status (128 + signal), saying what was done. Installed
/// on the first registration; until then a stop signal ends the process as usual.
public final class StopSignals: Sendable {
    /// The process-wide handler.
    public static let shared = StopSignals()

    /// A registered action, to remove once its work is done.
    public struct Registration: Hashable, Sendable {
        fileprivate let id: Int
    }

    private struct Action {
        var id: Int
        var note: String
        var run: @Sendable () -> Void
    }

    private struct State {
        var nextID = 0
        var actions: [Action] = []
        var sources: [any DispatchSourceSignal] = []
    }

    private let state = Mutex<State>(State())
    /// Held by steps that must not be cut in half, and by the handler while it acts.
    private let gate = NSLock()

    private init() {}

    /// Runs `action` if a stop signal arrives before `remove`; `note` says what it did
    /// ("the event log was flushed").
    public func onStop(_ note: String, _ action: @escaping @Sendable () -> Void) -> Registration {
        let registration = state.withLock { state in
            state.nextID += 1
            state.actions.append(Action(id: state.nextID, note: note, run: action))
            return Registration(id: state.nextID)
        }
        installOnce()
        return registration
    }

    /// Forgets the action of `registration`.
    public func remove(_ registration: Registration) {
        state.withLock { $0.actions.removeAll { $0.id == registration.id } }
    }

    /// Runs `body` with stop signals held back: one that arrives meanwhile is acted on once `body`
    /// is done, so a step such as moving finished files into place is never cut in half.
    public func holdingStops<T>(_ body: () throws -> T) rethrows -> T {
        gate.lock()
        defer { gate.unlock() }
        return try body()
    }

    private func installOnce() {
        state.withLock { state in
            guard state.sources.isEmpty else { return }
            for signalNumber in [SIGINT, SIGTERM] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
                source.setEventHandler { [self] in stop(signalNumber) }
                source.resume()
                state.sources.append(source)
            }
        }
    }

    /// Runs the actions, says so on standard error and exits; `_exit` skips atexit work that would
    /// race the threads still running.
    private func stop(_ signalNumber: Int32) -> Never {
        gate.lock()
        let actions = state.withLock { $0.actions }
        for action in actions { action.run() }
        let name = signalNumber == SIGINT ? "interrupted" : "terminated"
        let notes = actions.map(\.note).filter { !$0.isEmpty }
        let message = Array("\nremix: \(([name] + notes).joined(separator: "; "))\n".utf8)
        _ = message.withUnsafeBytes { SystemCalls.write(STDERR_FILENO, $0.baseAddress, $0.count) }
        _exit(128 + signalNumber)
    }
}
