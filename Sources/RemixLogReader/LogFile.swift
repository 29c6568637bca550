import RemixSystem

/// Opens a log for reading: a regular file, a FIFO (a named pipe or `<(…)`), or standard input
/// for `-`. Folders, devices and sockets are refused. A FIFO is opened without waiting for a
/// writer, so one that nobody writes to reads as empty (an error) instead of hanging.
enum LogFile {
    /// What kind of file was opened.
    struct Kind {
        var isRegular: Bool
        var isFIFO: Bool
        var size: Int
    }

    static let emptyFIFO = "it is a FIFO and nothing was written to it (no writer had it open); "
        + "pipe the log into 'remix analyze -' instead"

    static func open(_ path: String) throws(LogReadError) -> (descriptor: Int32, kind: Kind) {
        let descriptor = path == "-" ? STDIN_FILENO : SystemCalls.open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else { throw unsafe .cannotRead(path: path, reason: String(cString: strerror(errno))) }
        var info = stat()
        guard unsafe fstat(descriptor, &info) == 0 else {
            let reason = unsafe String(cString: strerror(errno))
            if descriptor != STDIN_FILENO { close(descriptor) }
            throw .cannotRead(path: path, reason: reason)
        }
        let type = info.st_mode & S_IFMT
        let refusal: String? = switch type {
        case S_IFDIR: "it is a folder"
        case S_IFCHR, S_IFBLK: "it is a device, not a log (logs are files, FIFOs, or - for standard input)"
        case S_IFSOCK: "it is a socket, not a log (pipe it into 'remix analyze -')"
        default: nil
        }
        if path != "-", let refusal {
            close(descriptor)
            throw .cannotRead(path: path, reason: refusal)
        }
        if path != "-" {
            // Reads block again from here on: a FIFO's writer, once there, is waited for.
            let flags = fcntl(descriptor, F_GETFL)
            if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        }
        return (descriptor, Kind(isRegular: type == S_IFREG, isFIFO: type == S_IFIFO && path != "-", size: Int(info.st_size)))
    }
}
