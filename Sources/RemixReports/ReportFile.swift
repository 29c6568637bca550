import Foundation
import RemixAnalysis
import RemixSystem

/// Writes a report where `--output` says, in place: the path is opened (following symlinks) and
/// written through, so a symlink, a hard link, the file's mode and owner stay as they were, and a
/// FIFO or a character device (`/dev/stdout`, a terminal) is written to as a stream. A regular
/// file is truncated first; a new one is made with mode 0666 less the umask. Block devices and
/// folders are refused; a FIFO nobody reads is refused instead of waited on. Any write error
/// (`/dev/full`: "No space left on device") is thrown — a regular file then holds what was
/// written before it.
package enum ReportFile {
    /// Why a report could not be written.
    package struct WriteError: Error, Equatable, CustomStringConvertible {
        package var path: String
        package var reason: String
        package var description: String { "cannot write \(path): \(reason)" }
    }

    /// Writes `text` to `path` (see ``ReportFile``).
    package static func write(_ text: String, to path: String) throws(WriteError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0o666)
        guard descriptor >= 0 else {
            let reason = errno == ENXIO ? "it is a FIFO and nothing is reading it" : String(cString: strerror(errno))
            throw WriteError(path: path, reason: reason)
        }
        var closed = false
        defer { if !closed { close(descriptor) } }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        switch info.st_mode & S_IFMT {
        case S_IFBLK: throw WriteError(path: path, reason: "it is a block device; a report is not written onto a disk")
        case S_IFREG:
            guard ftruncate(descriptor, 0) == 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        default: break
        }
        // Blocking again, so a slow reader is waited for rather than failing with EAGAIN.
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        try write(text, to: descriptor, path: path)
        closed = true
        guard close(descriptor) == 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
    }

    /// Writes all of `text`, again after an interruption or a partial write (as `FileHandle` does).
    private static func write(_ text: String, to descriptor: Int32, path: String) throws(WriteError) {
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        do {
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            // Foundation keeps the `write` error number as the underlying POSIX error.
            let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).map { Int32($0.code) } ?? errno
            throw WriteError(path: path, reason: String(cString: strerror(code)))
        }
    }
}
