import Foundation
import RemixSystem

/// Checks a path before a run writes its event log there, so that a slip of the `--log` option
/// never destroys a file: the log may not be one of the run's own input files, and a run that
/// replaces a log only replaces something that is one (empty, or starting like a JSON line).
public enum LogTarget {
    /// Why the log cannot be written at `path`, or nil. `inputs` are the run's input files
    /// (compared by device and inode, so other names of the same file count); `replacing` says
    /// the run empties the file first (no `--append`); a run that appends to a file that is not a
    /// log is refused too.
    public static func problem(path: String, inputs: [(role: String, path: String)], replacing: Bool) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }  // a new file
        for input in inputs {
            var other = stat()
            if stat(input.path, &other) == 0, other.st_dev == status.st_dev, other.st_ino == status.st_ino {
                return "refusing to write the event log to \(path): it is \(input.role) \(input.path), an input of this run; "
                    + "choose another --log"
            }
        }
        guard (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 else { return nil }
        guard let first = firstVisibleByte(path), first != UInt8(ascii: "{") else { return nil }
        return "refusing to \(replacing ? "replace" : "append to") \(path): it does not look like an event log (its first line "
            + "is not a JSON object); " + (replacing ? "remove it first or choose another --log" : "choose another --log")
    }

    /// Every regular file under `path` (the file itself, or a folder's files, recursively).
    public static func files(under path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return [] }
        guard isFolder.boolValue else { return [path] }
        let names = FileManager.default.subpaths(atPath: path) ?? []
        return names.map { path + "/" + $0 }.filter { name in
            var status = stat()
            return stat(name, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        }
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
