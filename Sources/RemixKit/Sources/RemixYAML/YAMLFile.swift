import RemixSystem

/// Reads YAML files, turning every way a path can fail (missing, a folder, a symbolic link loop,
/// no permission, too large, not UTF-8) into one clear diagnostic at `path:1:1`.
///
/// Invariant of its `unsafe` uses (the C library's file calls): every buffer handed to a call is
/// an array lent for that call alone, with its own count as the limit.
public enum YAMLFile {
    /// What a path names.
    public enum Kind: Sendable, Equatable {
        /// A regular file.
        case file
        /// A folder.
        case folder
        /// Nothing: no such file or folder.
        case missing
        /// Something that cannot be read, and why ("it is a symbolic link loop ...").
        case unusable(String)
    }

    /// What `path` names, following symbolic links.
    public static func kind(of path: String) -> Kind {
        inspect(path).kind
    }

    /// The text of the file at `path`, at most ``YAMLLimits/maxBytes`` of UTF-8.
    public static func read(_ path: String) throws(Diagnostic) -> String {
        let start = SourceLocation(file: path, line: 1, column: 1)
        let (kind, size) = inspect(path)
        switch kind {
        case .file: break
        case .folder: throw Diagnostic(start, .error, "cannot read this file: it is a folder, not a file")
        case .missing: throw Diagnostic(start, .error, "no such file")
        case .unusable(let why): throw Diagnostic(start, .error, "cannot read this file: \(why)")
        }
        try YAMLLimits.checkSize(size, file: path)
        let descriptor = unsafe open(path, O_RDONLY)
        guard descriptor >= 0 else { throw Diagnostic(start, .error, "cannot read this file: \(reason(errno))") }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = unsafe chunk.withUnsafeMutableBytes { unsafe readBytes(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Diagnostic(start, .error, "cannot read this file: \(reason(errno))")
            }
            if count == 0 { break }
            bytes += chunk[..<count]
            // The file may have grown since it was measured.
            try YAMLLimits.checkSize(bytes.count, file: path)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Diagnostic(firstInvalidUTF8(bytes, file: path), .error,
                             "this file is not UTF-8 text; save it as UTF-8")
        }
        return text
    }

    /// Reads and parses the file at `path`.
    public static func parse(_ path: String) throws(Diagnostic) -> YAMLValue {
        try YAMLValue.parse(read(path), file: path)
    }

    /// The kind of `path` and, for a file, its size in bytes.
    private static func inspect(_ path: String) -> (kind: Kind, size: Int) {
        var info = stat()
        if unsafe stat(path, &info) == 0 {
            switch info.st_mode & 0o170000 {
            case 0o040000: return (.folder, 0)
            case 0o100000: return (.file, Int(info.st_size))
            default: return (.unusable("it is not a regular file (a device, pipe or socket)"), 0)
            }
        }
        let error = errno
        switch error {
        case ENOENT, ENOTDIR:
            var link = stat()
            guard unsafe lstat(path, &link) == 0 else { return (.missing, 0) }
            return (.unusable("it is a symbolic link to \(linkTarget(path)), which does not exist"), 0)
        case ELOOP:
            return (.unusable("it is a symbolic link loop (following its links leads back to itself); "
                              + "point it at a real file or remove it"), 0)
        default:
            return (.unusable(reason(error)), 0)
        }
    }

    /// A sentence for a failed system call's `errno`.
    private static func reason(_ error: Int32) -> String {
        switch error {
        case EACCES, EPERM: return "permission denied; check its permissions (and those of its folders)"
        case ELOOP: return "it is a symbolic link loop (following its links leads back to itself)"
        case EISDIR: return "it is a folder, not a file"
        default: return unsafe String(cString: strerror(error))
        }
    }

    private static func linkTarget(_ path: String) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = unsafe readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return "a path" }
        return "'" + String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) + "'"
    }

    /// Where the first byte that is not UTF-8 is, as line and column.
    private static func firstInvalidUTF8(_ bytes: [UInt8], file: String) -> SourceLocation {
        var line = 1, column = 1
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        while case .scalarValue(let scalar) = decoder.decode(&iterator) {
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return SourceLocation(file: file, line: line, column: column)
    }
}

/// `read(2)`, which `YAMLFile.read` hides inside the type.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    unsafe SystemCalls.read(descriptor, buffer, count)
}
