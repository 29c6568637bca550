import Foundation
import RemixFormats
import RemixSystem

/// What a path names on disk, so that every name of one file compares equal: a symbolic link
/// and its target, two hard links, `./x` and `x`.
package enum FileIdentity: Hashable, Sendable {
    /// An existing file (of any kind), by device and inode after following symbolic links.
    case file(device: UInt64, inode: UInt64)
    /// A path where nothing is yet: absolute, with the links of its folders (and a dangling link
    /// at its end) followed, so two spellings of one new file compare equal.
    case new(path: String)

    /// The identity of `path`.
    package init(path: String) {
        var status = stat()
        if stat(path, &status) == 0 {
            self = .file(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        } else {
            self = .new(path: Self.resolved(path))
        }
    }

    /// Whether `path` is written to as a stream rather than replaced: a character device
    /// (`/dev/null`, `/dev/stdout`, a terminal), a FIFO or a socket. Writing one destroys no file,
    /// so such outputs are never refused.
    package static func isStream(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        let kind = status.st_mode & S_IFMT
        return kind == S_IFCHR || kind == S_IFIFO || kind == S_IFSOCK
    }

    /// Every regular file under `path`: the file itself, or a folder's files, recursively.
    package static func files(under path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return [] }
        guard isFolder.boolValue else { return [path] }
        let names = FileManager.default.subpaths(atPath: path) ?? []
        return names.map { path + "/" + $0 }.filter { name in
            var status = stat()
            return stat(name, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        }
    }

    /// `path` made absolute, its folder's links resolved and a dangling link at its end followed
    /// (a few times at most: a loop stays a path).
    private static func resolved(_ path: String) -> String {
        var current = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        for _ in 0..<8 {
            let folder = PathText.folder(of: current)
            let name = (current as NSString).lastPathComponent
            let real = realpath(folder, nil).map { pointer in
                defer { free(pointer) }
                return String(cString: pointer)
            } ?? (folder as NSString).standardizingPath
            current = (real == "/" ? "" : real) + "/" + name
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return current }
            current = target.hasPrefix("/") ? target : PathText.folder(of: current) + "/" + target
        }
        return current
    }
}
