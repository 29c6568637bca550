import Foundation
import RemixSystem

/// The progress of a long command, on standard error so that standard output stays the result:
/// on a terminal one line rewritten in place; elsewhere (a file, a pipe, CI) a line at every tenth
/// of the work, so that a check that takes minutes in a debug build is not silent there either.
final class ProgressLine {
    private let label: String
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private var tenthsShown = -1

    /// Progress of `label` items (`A/A run`), shown as `label done/total`.
    init(_ label: String) {
        self.label = label
    }

    /// Shows that `done` of `total` are done (0 before the first).
    func update(_ done: Int, of total: Int) {
        if isTerminal {
            printProgress("\(label) \(done)/\(total)")
            return
        }
        let tenths = total > 0 ? done * 10 / total : 10
        guard tenths > tenthsShown else { return }
        tenthsShown = tenths
        printError("\(label) \(done)/\(total)", prefix: false)
    }

    /// Ends the terminal's line, so that what follows starts on a line of its own.
    func finish() {
        if isTerminal { printError("", prefix: false) }
    }
}
