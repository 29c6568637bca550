import Synchronization
import RemixSystem

/// Makes a failed write to standard output a failure of the command: a report that never arrived
/// (a full disk, `> /dev/full`) must not exit 0.
package enum StandardOutputCheck {
    /// The error number of the first failed flush of standard output, or 0.
    private static let firstFailure = Atomic<Int32>(0)

    /// Registers an exit handler that flushes standard output and, when that or an earlier write
    /// failed, says so on standard error and exits 1. Signal exits (`_exit`) skip it, as they should.
    package static func install() {
        atexit {
            StandardOutputCheck.flush()
            let failure = StandardOutputCheck.firstFailure.load(ordering: .relaxed)
            guard failure != 0 || ferror(SystemCalls.standardOutput) != 0 else { return }
            let reason = String(cString: strerror(failure == 0 ? EIO : failure))
            fputs("remix: cannot write standard output: \(reason); the output is incomplete\n", SystemCalls.standardError)
            _exit(1)
        }
    }

    /// Right after a write (a text longer than stdio's buffer is partly written inside `print`):
    /// remembers why it failed, if it did.
    static func checkWrite() {
        let error = errno
        guard ferror(SystemCalls.standardOutput) != 0, error != 0 else { return }
        _ = firstFailure.compareExchange(expected: 0, desired: error, ordering: .relaxed)
    }

    /// Flushes standard output, remembering why the first failed flush failed.
    static func flush() {
        if fflush(SystemCalls.standardOutput) != 0 {
            _ = firstFailure.compareExchange(expected: 0, desired: errno, ordering: .relaxed)
        }
    }
}
