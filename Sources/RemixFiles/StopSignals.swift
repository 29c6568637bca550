import Foundation
import Synchronization
import RemixSystem

/// The pipe a stop signal's handler writes the signal's number to: set once, before any handler is
/// installed, and only read after (a signal handler can reach nothing but a global).
nonisolated(unsafe) private var stopSignalPipe: Int32 = -1

/// What the process does when it is asked to stop (SIGINT, SIGTERM) while it writes: the
/// registered actions run — an event log is flushed, an unfinished temporary file is removed — and
/// the process exits with the conventional status (128 + signal), saying what was done. Installed
/// on the first registration; until then a stop signal ends the process as usual.
package final class StopSignals: Sendable {
    /// The process-wide handler.
    package static let shared = StopSignals()

    /// A registered action, to remove once its work is done.
    package struct Registration: Hashable, Sendable {
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
        var installed = false
        /// A stop is under way: its actions run, and it ends the process when they are done.
        var stopping = false
    }

    private let state = Mutex<State>(State())
    /// Held by steps that must not be cut in half, and by the handler while it acts.
    private let gate = NSLock()
    /// Held while the handlers are installed, so that every registration returns with them in place.
    private let installation = NSLock()
    /// Taken by a stop and never given back: the process ends holding it.
    private let ending = NSLock()

    private init() {}

    /// Runs `action` if a stop signal arrives before `remove`; `note` says what it did
    /// ("the event log was flushed").
    package func onStop(_ note: String, _ action: @escaping @Sendable () -> Void) -> Registration {
        let registration = state.withLock { state in
            state.nextID += 1
            state.actions.append(Action(id: state.nextID, note: note, run: action))
            return Registration(id: state.nextID)
        }
        installOnce()
        return registration
    }

    /// Forgets the action of `registration`.
    package func remove(_ registration: Registration) {
        state.withLock { $0.actions.removeAll { $0.id == registration.id } }
    }

    /// Runs `body` with stop signals held back: one that arrives meanwhile is acted on once `body`
    /// is done, so a step such as moving finished files into place is never cut in half.
    package func holdingStops<T>(_ body: () throws -> T) rethrows -> T {
        gate.lock()
        defer { gate.unlock() }
        return try body()
    }

    /// Returns at once unless a stop is under way; then waits for it to end the process. A command
    /// whose work failed or finished because a stop closed what it wrote (an event log closed
    /// under a run fails its next append) leaves the exit to the stop — status 128 + signal, and
    /// its note — instead of racing it with its own status and message.
    package func yieldToStop() {
        guard state.withLock({ $0.stopping }) else { return }
        ending.lock()  // held by `stop` until it ends the process
        ending.unlock()
    }

    /// Catches SIGINT and SIGTERM from now on. The handler only writes the signal's number to a
    /// pipe (all a signal handler may safely do); a thread of its own reads it and acts. Caught
    /// this way, no signal is lost between installing and being ready, as one could be with a
    /// dispatch source (ignored until the source is armed on its queue).
    private func installOnce() {
        installation.lock()
        defer { installation.unlock() }
        guard !state.withLock({ $0.installed }) else { return }
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        stopSignalPipe = descriptors[1]
        let reading = descriptors[0]
        Thread.detachNewThread { [self] in
            var number: UInt8 = 0
            while true {
                let count = SystemCalls.read(reading, &number, 1)
                if count == 1 { stop(Int32(number)) }
                if count == 0 || (count < 0 && errno != EINTR) { return }
            }
        }
        var stops = sigset_t()
        sigemptyset(&stops)
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber) { number in
                let interrupted = errno  // the interrupted code's, kept
                var byte = UInt8(truncatingIfNeeded: number)
                _ = SystemCalls.write(stopSignalPipe, &byte, 1)
                errno = interrupted
            }
            sigaddset(&stops, signalNumber)
        }
        // A process started with them blocked would never see them.
        pthread_sigmask(SIG_UNBLOCK, &stops, nil)
        state.withLock { $0.installed = true }
    }

    /// Runs the actions, says so on standard error and exits; `_exit` skips atexit work that would
    /// race the threads still running.
    private func stop(_ signalNumber: Int32) -> Never {
        ending.lock()
        state.withLock { $0.stopping = true }
        gate.lock()
        let actions = state.withLock { $0.actions }
        for action in actions { action.run() }
        let name = signalNumber == SIGINT ? "interrupted" : "terminated"
        let notes = actions.map(\.note).filter { !$0.isEmpty }
        let message = Array("\nremix: \(([name] + notes).joined(separator: "; "))\n".utf8)
        try? FileHandle.standardError.write(contentsOf: Data(message))
        _exit(128 + signalNumber)
    }
}
