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

    package var inputs: [Input]
    package var outputs: [Output]

    /// A check of `outputs` against `inputs` and each other.
    package init(inputs: [Input], outputs: [Output]) {
        self.inputs = inputs
        self.outputs = outputs
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
        return nil
    }
}
