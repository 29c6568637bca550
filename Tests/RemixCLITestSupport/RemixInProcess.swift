import Foundation
#if canImport(RemixCLI)
import RemixCLI
#endif
import RemixTestSupport
import Synchronization

/// Runs `remix` commands in this process as the binary runs them — parsing, validation, the use
/// case, rendering and the one error printer (``RemixCommand/execute(_:)``) — with standard input,
/// output and error as buffers and the environment given: how tests reach what a command does
/// (argument-parser's `AssertExecuteCommand` does the same). Only what the binary alone shows — its
/// exit by a signal, a write to a full disk, a memory limit, a pipe from a shell — needs
/// ``RemixProcess``.
///
/// A process has one working folder and the tests run at once, so a relative path in `arguments`
/// (or an option's default, such as `--experiments experiments`) is read from the test process's
/// folder, the package root where `swift test` runs — as it was for a `remix` started without a
/// folder; a test of files of its own names them by absolute paths (``TemporaryFolder/path(_:)``).
package enum RemixInProcess {
    /// Runs `remix arguments`; `environment` changes variables (nil removes one); `input` is what
    /// standard input reads, which is empty when nil.
    package static func run(_ arguments: [String], environment: [String: String?] = [:], input: String? = nil) async -> ProcessResult {
        #if canImport(RemixCLI)
        let out = Buffer(), err = Buffer()
        let lines = Lines(input ?? "")
        var variables = ProcessInfo.processInfo.environment
        for (name, value) in environment { variables[name] = value }
        let console = Console(out: out.append, err: err.append, readLine: lines.next, environment: variables)
        let status = await Console.$current.withValue(console) { await RemixCommand.execute(arguments) }
        return ProcessResult(status: status, stdout: out.text, stderr: err.text)
        #else
        // A build without the CLI (a sanitizer run, Package.swift): the built `remix` instead.
        do {
            return try RemixProcess.run(arguments, environment: environment, input: input)
        } catch {
            return ProcessResult(status: -1, stdout: "", stderr: "cannot start remix: \(error)")
        }
        #endif
    }
}

#if canImport(RemixCLI)
/// Text written by a command, from whichever thread writes it.
private final class Buffer: Sendable {
    private let contents = Mutex("")

    @Sendable func append(_ text: String) { contents.withLock { $0 += text } }

    var text: String { contents.withLock { $0 } }
}

/// Standard input's lines, read one at a time as `readLine()` reads them: without their newline,
/// nil at the end.
private final class Lines: Sendable {
    private let remaining: Mutex<[String]>

    init(_ input: String) {
        var lines = input.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        remaining = Mutex(lines)
    }

    @Sendable func next() -> String? {
        remaining.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
}
#endif
