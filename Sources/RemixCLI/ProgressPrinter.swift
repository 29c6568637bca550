import Foundation
import RemixApp
import RemixFormats
import RemixKit
import Synchronization

/// The progress of a long command, on standard error so that standard output stays the result: on a
/// terminal one line rewritten in place; elsewhere (a file, a pipe, CI) plain lines — simulated users
/// at most once a second, whole runs at every tenth of the work (so that a check that takes minutes is
/// not silent there either), and none for a copy's bytes and events.
final class ProgressPrinter: Sendable {
    private struct State {
        var lineOpen = false
        var tenthsShown = -1
        var lastLine: ContinuousClock.Instant?
    }

    private let console: Console
    private let started = ContinuousClock.now
    private let state = Mutex(State())

    /// Progress shown on `console`'s standard error.
    init(console: Console) {
        self.console = console
    }

    /// Shows `progress`; it may be called from any thread.
    func show(_ progress: WorkProgress) {
        state.withLock { state in
            guard let text = line(progress, &state) else { return }
            if console.errIsTerminal {
                console.err("\r" + JSONText.visible(text))
                state.lineOpen = true
            } else {
                console.err(JSONText.visible(text) + "\n")
            }
        }
    }

    /// Ends the terminal's line, so that what follows starts on a line of its own.
    func finish() {
        state.withLock { state in
            if state.lineOpen { console.err("\n") }
            state.lineOpen = false
        }
    }

    /// The line that shows `progress`, or nil when none is due.
    private func line(_ progress: WorkProgress, _ state: inout State) -> String? {
        let (done, total) = (progress.done, progress.total)
        let percent = total > 0 ? min(done * 100 / total, 100) : 100
        switch progress.unit {
        case .users:
            let elapsed = (ContinuousClock.now - started).seconds
            let rate = elapsed > 0 ? Double(done) / elapsed : 0
            if console.errIsTerminal {
                let eta = rate > 0 ? Double(total - done) / rate : 0
                return String(format: "[%@] %3d%% %d/%d users, %.0f/s, ETA %.1f s", Self.bar(percent), percent, done, total, rate, eta)
            }
            guard ContinuousClock.now - (state.lastLine ?? started) >= .seconds(1) || done == total else { return nil }
            state.lastLine = .now
            return String(format: "progress: %d/%d users (%d%%), %.0f users/s", done, total, percent, rate)
        case .runs(let label):
            let tenths = total > 0 ? done * 10 / total : 10
            guard console.errIsTerminal || tenths > state.tenthsShown else { return nil }
            state.tenthsShown = tenths
            return "\(label) \(done)/\(total)"
        case .bytes, .events:
            guard console.errIsTerminal else { return nil }
            return "[\(Self.bar(percent))] \(percent)% \(done)/\(total) \(progress.unit == .bytes ? "bytes" : "events")"
        }
    }

    /// A bar of 20 characters, `percent` of them filled.
    private static func bar(_ percent: Int) -> String {
        String(repeating: "#", count: percent / 5) + String(repeating: ".", count: 20 - percent / 5)
    }
}
