import Foundation
import Synchronization
import RemixSystem

/// The embedded event log: a JSON Lines file, appended to.
///
/// Writes are whole lines: events are buffered and written with `O_APPEND` in single `write`
/// calls that end on a line boundary, so several processes appending to one file never interleave
/// inside a line, and after a crash every complete line parses (only the last may be torn). The
/// buffer is written when it fills, at least once a second while events arrive, on `flush()`,
/// `close()`, and — through ``ExitFlusher`` — on SIGINT and SIGTERM. Thread-safe.
package final class JSONLinesFile: EventLog, Sendable {
    private struct State {
        var descriptor: Int32
        /// The buffer: lines not written yet. Events are encoded straight into it.
        var buffer: JSONLinesEncoder
        var lastFlush: ContinuousClock.Instant
        var failure: EventLogError?
    }

    /// The file's path as given.
    package let path: String
    /// Whether the file, opened for appending, ended inside a line (a writer stopped mid-line) and
    /// a newline was written first, so the torn line stays one bad line and new lines start clean.
    package let endedTorn: Bool
    private let capacity: Int
    private let state: Mutex<State>

    /// Opens (creating if needed) `path` for appending — emptied first when `truncate` — with at
    /// most `bufferSize` bytes buffered.
    package init(path: String, truncate: Bool = false, bufferSize: Int = 1 << 20) throws(EventLogError) {
        let descriptor = unsafe open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | (truncate ? O_TRUNC : 0), 0o644)
        guard descriptor >= 0 else { throw EventLogError.cannotOpen(path: path, reason: Self.errnoText()) }
        self.path = path
        // Under the exclusive lock, so that no other remix process is in the middle of a write:
        // a file grows page by page during one write(2), and a check that saw it half-written
        // would add a newline after the other process's lines, an empty line in the log.
        Self.lock(descriptor, LOCK_EX)
        endedTorn = !truncate && Self.endsInsideLine(path)
        if endedTorn {
            let newline: [UInt8] = [0x0A]
            guard unsafe newline.withUnsafeBytes({ unsafe SystemCalls.write(descriptor, $0.baseAddress, 1) }) == 1 else {
                let reason = Self.errnoText()
                SystemCalls.close(descriptor)
                throw EventLogError.cannotOpen(path: path, reason: reason)
            }
        }
        Self.lock(descriptor, LOCK_UN)
        capacity = max(bufferSize, 4096)
        state = Mutex(State(descriptor: descriptor, buffer: JSONLinesEncoder(capacity: capacity + capacity / 8), lastFlush: .now, failure: nil))
    }

    deinit {
        try? close()
    }

    /// Encodes `events` straight into the buffer (under the lock, so lines never interleave),
    /// writing it whenever it fills.
    package func append(_ events: [LoggedEvent]) throws {
        try state.withLock { state throws(EventLogError) in
            if let failure = state.failure { throw failure }
            guard state.descriptor >= 0 else { throw EventLogError.closed(path: path) }
            // Read in place: a `for event in` loop copies each event, counting its strings.
            try unsafe events.withUnsafeBufferPointer { events throws(EventLogError) in
                guard let first = events.baseAddress else { return }
                for index in events.indices {
                    unsafe state.buffer.encode(at: first + index)
                    if state.buffer.bytes.count >= capacity { try write(&state) }
                }
            }
            if ContinuousClock.now - state.lastFlush >= .seconds(1) { try write(&state) }
        }
    }

    /// Appends bytes that are whole JSON lines (each ending in a newline), e.g. from a
    /// ``JSONLinesEncoder`` filled on another thread.
    package func append(encodedLines bytes: [UInt8]) throws(EventLogError) {
        try state.withLock { state throws(EventLogError) in
            if let failure = state.failure { throw failure }
            guard state.descriptor >= 0 else { throw EventLogError.closed(path: path) }
            if state.buffer.bytes.count + bytes.count > capacity {
                try write(&state)
            }
            if bytes.count >= capacity / 4 {
                // Large chunks go straight to the file, without a copy into the buffer.
                try write(&state)
                let written = writeAll(bytes, to: state.descriptor, &state)
                if let failure = state.failure {
                    state.buffer.append(encodedLines: bytes[written...])
                    throw failure
                }
            } else {
                state.buffer.append(encodedLines: bytes[...])
            }
            if ContinuousClock.now - state.lastFlush >= .seconds(1) { try write(&state) }
        }
    }

    package func flush() throws {
        try state.withLock { state throws(EventLogError) in
            if let failure = state.failure { throw failure }
            try write(&state)
        }
    }

    package func close() throws {
        try state.withLock { state throws(EventLogError) in
            guard state.descriptor >= 0 else { return }
            defer {
                SystemCalls.close(state.descriptor)
                state.descriptor = -1
            }
            if state.failure == nil { try write(&state) }
            if let failure = state.failure { throw failure }
        }
    }

    /// Writes the buffer, then empties it keeping its storage; on an error keeps what was not
    /// written and remembers the error.
    private func write(_ state: inout State) throws(EventLogError) {
        state.lastFlush = .now
        guard !state.buffer.bytes.isEmpty, state.descriptor >= 0 else { return }
        let written = writeAll(state.buffer.bytes, to: state.descriptor, &state)
        state.buffer.removeFirst(written)
        if let failure = state.failure { throw failure }
    }

    /// Writes `bytes` (whole lines) directly and says how many were written; on an error
    /// remembers it in `state`.
    private func writeAll(_ bytes: [UInt8], to descriptor: Int32, _ state: inout State) -> Int {
        // Shared with other writers (O_APPEND keeps their writes apart), exclusive of a process
        // checking at open whether the file ends inside a line.
        Self.lock(descriptor, LOCK_SH)
        defer { Self.lock(descriptor, LOCK_UN) }
        let (written, error) = unsafe bytes.withUnsafeBytes { raw in
            unsafe raw.baseAddress.map { unsafe SystemCalls.writeAll(descriptor, $0, raw.count) } ?? (0, nil)
        }
        if let error { state.failure = .writeFailed(path: path, reason: Self.errnoText(error)) }
        return written
    }

    /// `flock(2)` with `operation`, retried when a signal interrupts the wait. Advisory: it orders
    /// remix processes among themselves; a file system without locks leaves them unordered.
    private static func lock(_ descriptor: Int32, _ operation: Int32) {
        while flock(descriptor, operation) != 0 && errno == EINTR {}
    }

    /// Whether a regular file's last byte is not a newline (false when it cannot be read).
    private static func endsInsideLine(_ path: String) -> Bool {
        let descriptor = unsafe open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { SystemCalls.close(descriptor) }
        var status = stat()
        guard unsafe fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 else { return false }
        var last: UInt8 = 0
        return unsafe pread(descriptor, &last, 1, status.st_size - 1) == 1 && last != 0x0A
    }

    /// The C library's text for the error `code` (the last one, `errno`, by default).
    static func errnoText(_ code: Int32 = errno) -> String {
        unsafe String(cString: strerror(code))
    }
}

/// A problem writing the event log.
package enum EventLogError: Error, Equatable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case writeFailed(path: String, reason: String)
    case closed(path: String)

    package var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "cannot open the event log \(path): \(reason); choose a writable path with --log"
        case .writeFailed(let path, let reason):
            "cannot write the event log \(path): \(reason); the lines written before this are intact"
        case .closed(let path):
            "the event log \(path) is already closed"
        }
    }
}
