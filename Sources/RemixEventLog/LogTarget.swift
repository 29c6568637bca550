import RemixSystem

/// Checks a path before a run writes its event log there, so that a slip of the `--log` option
/// never destroys a file that is not a log: a run that replaces a log only replaces something that
/// is one (empty, or starting like a JSON line). That the log is none of the run's inputs is
/// checked with every other output (`RemixFiles.OutputCheck`).
package enum LogTarget {
    /// Why the log cannot be written at `path`, or nil. `replacing` says the run empties the file
    /// first (no `--append`); a run that appends to a file that is not a log is refused too.
    package static func problem(path: String, replacing: Bool) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }  // a new file
        guard (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 else { return nil }
        guard let first = firstVisibleByte(path), first != UInt8(ascii: "{") else { return nil }
        return "refusing to \(replacing ? "replace" : "append to") \(path): it does not look like an event log (its first line "
            + "is not a JSON object); " + (replacing ? "remove it first or choose another --log" : "choose another --log")
    }

    /// The first byte of the file that is not white space, reading at most 4 KiB.
    private static func firstVisibleByte(_ path: String) -> UInt8? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return buffer[..<count].first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    }
}
