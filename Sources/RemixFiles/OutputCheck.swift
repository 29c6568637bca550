import Foundation

/// The rule every command that writes files obeys: no output is one of the command's inputs, and
/// no two outputs are one file — compared as files (``FileIdentity``), so a symbolic or hard link
/// to an input is refused too. Checked before anything is written, so a refused command touches
/// nothing.
package struct OutputCheck: Sendable {
    /// A file and what it is to the command: for an input (a file, or a folder whose files,
    /// recursively, are all inputs), what it holds ("the event log"); for an output, the option
    /// that names it ("--output").
    package struct File: Sendable {
        package var role: String
        package var path: String
        /// `path`, which is `role`.
        package init(_ role: String, _ path: String) {
            self.role = role
            self.path = path
        }
    }

    /// A file or folder the command reads.
    package typealias Input = File
    /// A file the command writes.
    package typealias Output = File

    /// A folder the command replaces whole (its files written anew, the old ones gone): every file
    /// in it now would be lost, so it may hold no input, and only files the command writes there.
    package struct Folder: Sendable {
        package var role: String
        package var path: String
        /// Whether a file (its path within the folder) is one the command writes there.
        package var writes: @Sendable (String) -> Bool
        /// The folder at `path`, named by `role`, where the command writes the files `writes` accepts.
        package init(_ role: String, _ path: String, writes: @escaping @Sendable (String) -> Bool) {
            self.role = role
            self.path = path
            self.writes = writes
        }
    }

    package var inputs: [Input]
    package var outputs: [Output]
    package var folders: [Folder]

    /// A check of `outputs` and `folders` against `inputs`, and of `outputs` against each other.
    package init(inputs: [Input], outputs: [Output], folders: [Folder] = []) {
        self.inputs = inputs
        self.outputs = outputs
        self.folders = folders
    }

    /// Why the command must not run, or nil: the first output that is an input or an earlier
    /// output. Streams (`/dev/null`, a FIFO, a terminal) are written without replacing anything
    /// and are never refused.
    package func problem() -> String? {
        var read: [FileIdentity: Input] = [:]
        for input in inputs {
            for file in FileIdentity.files(under: input.path) {
                let identity = FileIdentity(path: file)
                if read[identity] == nil { read[identity] = Input(input.role, file) }
            }
        }
        var written: [FileIdentity: Output] = [:]
        for output in outputs where !FileIdentity.isStream(output.path) {
            let identity = FileIdentity(path: output.path)
            if let input = read[identity] {
                return "refusing to write \(output.role) \(output.path): it is \(input.role) \(input.path), which this command "
                    + "reads; choose another \(output.role) (nothing was written)"
            }
            if let earlier = written[identity] {
                return "refusing to write \(output.role) \(output.path): it is the same file as \(earlier.role) "
                    + "\(earlier.path); give each output a file of its own (nothing was written)"
            }
            written[identity] = output
        }
        for folder in folders {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), !isFolder.boolValue {
                return "refusing to write \(folder.role) \(folder.path): it is a file, and this command writes a folder there; "
                    + "move it or choose another \(folder.role) (nothing was written)"
            }
            let files = FileIdentity.files(under: folder.path)
            if let input = files.lazy.compactMap({ read[FileIdentity(path: $0)] }).first {
                return "refusing to write \(folder.role) \(folder.path): it is a folder that holds \(input.role) \(input.path), which this "
                    + "command reads, and it is replaced whole; choose another \(folder.role) (nothing was written)"
            }
            let others = files.map { String($0.dropFirst(folder.path.count + 1)) }.filter { !folder.writes($0) }.sorted()
            if !others.isEmpty {
                let named = others.prefix(3).joined(separator: ", ") + (others.count > 3 ? ", …" : "")
                return "refusing to write \(folder.role) \(folder.path): it is a folder that holds files this command did not write "
                    + "(\(named)), and it is replaced whole; move them or choose another \(folder.role) (nothing was written)"
            }
        }
        return nil
    }
}
