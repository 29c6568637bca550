import Foundation
import RemixSystem

/// A sticky-bucket file opened under an advisory `flock(2)` lock — shared for reading, exclusive
/// for a save — held until ``close()``. Advisory: it orders remix processes among themselves (a
/// file system without locks leaves them unordered, as for the event log).
struct LockedFile {
    let path: String
    private let handle: FileHandle

    /// Opens `path` — for appending, created if missing, when `writing` — and waits for its lock.
    init(path: String, writing: Bool) throws(StickyBucketFileError) {
        self.path = path
        // O_NONBLOCK: a named pipe is refused below rather than waited on for a writer.
        let flags = (writing ? O_RDWR | O_APPEND | O_CREAT : O_RDONLY) | O_CLOEXEC | O_NONBLOCK
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            if code == EISDIR { throw .notAFile(path: path, kind: "a folder") }
            throw writing ? .cannotOpen(path: path, reason: Self.text(code)) : .unreadable(path: path, reason: Self.text(code))
        }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            try? handle.close()
            throw .notAFile(path: path, kind: Self.kind(status.st_mode))
        }
        while flock(descriptor, writing ? LOCK_EX : LOCK_SH) != 0 && errno == EINTR {}
    }

    /// The whole file.
    func contents() throws(StickyBucketFileError) -> [UInt8] {
        do {
            try handle.seek(toOffset: 0)
            return Array(try handle.readToEnd() ?? Data())
        } catch {
            throw .unreadable(path: path, reason: Self.reason(error))
        }
    }

    /// Cuts the file at `offset` (a torn last line's start).
    func truncate(at offset: Int) throws(StickyBucketFileError) {
        do {
            try handle.truncate(atOffset: UInt64(offset))
        } catch {
            throw .cannotWrite(path: path, reason: Self.reason(error))
        }
    }

    /// Appends `bytes` (whole lines) at the end.
    func append(_ bytes: [UInt8]) throws(StickyBucketFileError) {
        guard !bytes.isEmpty else { return }
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            throw .cannotWrite(path: path, reason: Self.reason(error))
        }
    }

    /// Releases the lock and closes the file.
    func close() {
        try? handle.close()
    }

    /// What a file's mode says it is, for a message.
    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a folder"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a named pipe"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }

    /// The C library's text for `code`.
    private static func text(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// A Foundation error's reason, as the C library says it when it has the code.
    private static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return text(Int32(underlying.code))
        }
        return error.domain == NSPOSIXErrorDomain ? text(Int32(error.code)) : error.localizedDescription
    }
}
