import ArgumentParser
import Foundation
import RemixApp
import RemixFormats
import RemixKit
import RemixSystem

/// Where the commands read and write — standard input, output and error — and the environment they
/// read; or, for a test that runs a command in process (``RemixCommand/execute(_:)``), buffers and
/// variables of its own. Every command writes through ``Console/current``.
package struct Console: Sendable {
    /// Writes text to standard output as it is (the caller adds newlines).
    package var out: @Sendable (String) -> Void
    /// Writes text to standard error as it is.
    package var err: @Sendable (String) -> Void
    /// Reads a line of standard input; nil at its end.
    package var readLine: @Sendable () -> String?
    /// Whether standard output and standard error are terminals (a table is coloured, progress is
    /// one line rewritten in place).
    package var outIsTerminal: Bool, errIsTerminal: Bool
    /// The environment variables the use cases read (``AppContext/environment``).
    package var environment: [String: String]
    /// The columns of the terminal that standard output, else standard error, is (nil when
    /// neither is one).
    package var terminalColumns: Int?

    /// A console of these streams and variables.
    package init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
                readLine: @escaping @Sendable () -> String? = { nil }, outIsTerminal: Bool = false, errIsTerminal: Bool = false,
                environment: [String: String] = ProcessInfo.processInfo.environment, terminalColumns: Int? = nil) {
        self.out = out
        self.err = err
        self.readLine = readLine
        self.outIsTerminal = outIsTerminal
        self.errIsTerminal = errIsTerminal
        self.environment = environment
        self.terminalColumns = terminalColumns
    }

    /// The width the terminal report fits: the terminal's, else `$COLUMNS`, else 100 — piped
    /// output too; at least 20.
    package var width: Int {
        max(terminalColumns ?? environment["COLUMNS"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 100, 20)
    }

    /// The columns of the terminal `descriptor` is, or nil.
    static func columns(of descriptor: Int32) -> Int? {
        var size = winsize()
        guard isatty(descriptor) == 1, ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// The process's standard streams. A failed write to standard output fails the command
    /// (``StandardOutputCheck``).
    package static let standard = Console(
        out: { text in
            errno = 0
            print(text, terminator: "")
            StandardOutputCheck.checkWrite()
            StandardOutputCheck.flush()
        },
        err: { writeStandardError($0) },
        readLine: { Swift.readLine() },
        outIsTerminal: isatty(STDOUT_FILENO) == 1, errIsTerminal: isatty(STDERR_FILENO) == 1,
        terminalColumns: columns(of: STDOUT_FILENO) ?? columns(of: STDERR_FILENO))

    /// The console the running command uses.
    @TaskLocal package static var current = Console.standard
}

/// Writes `text` to standard error with write(2), giving up on a failure: when standard error
/// cannot be written (a full disk, a closed pipe) there is nowhere to say so, and the command's
/// exit status still tells. Foundation's `FileHandle.write(_:)` traps on a failed write, so a
/// command that met an error on a full disk died of a signal instead of exiting with its status.
func writeStandardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
        if let base = bytes.baseAddress { _ = SystemCalls.writeAll(STDERR_FILENO, base, bytes.count) }
    }
}

/// Prints the one-line `message` to standard error, as `remix: message` unless `prefix` is false,
/// wrapped at `width` when given. Messages quote names from logs and files, which can hold any
/// character: every control character is shown escaped (``JSONText/visible(_:)``), so none can
/// move the cursor, clear the screen or start a forged line.
func printError(_ message: String, prefix: Bool = true, width: Int? = nil) {
    let line = "\(prefix ? "remix: " : "")\(JSONText.visible(message))"
    Console.current.err((width.map { TextLayout.wrap(line, width: $0) } ?? [line]).joined(separator: "\n") + "\n")
}

/// Rewrites the progress line on standard error (a terminal) with `text`, shown as
/// ``printError(_:prefix:)`` shows a message; ``printError(_:prefix:)`` with "" ends it.
func printProgress(_ text: String) {
    Console.current.err("\r\(JSONText.visible(text))")
}

/// Prints `text` to standard output, each of its lines with its control characters shown escaped
/// (names from logs and experiment files can hold terminal escapes), and wrapped at `width` when given.
func printOut(_ text: String, width: Int? = nil) {
    Console.current.out(text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line in
        let shown = JSONText.visible(String(line))
        return width.map { TextLayout.wrap(shown, width: $0) } ?? [shown]
    }.joined(separator: "\n") + "\n")
}

/// Writes `text` to standard output as it is, at once (prompts have no newline to flush them).
func writeOut(_ text: String) {
    Console.current.out(text)
}

/// Runs a use case with a context whose notices go to standard error, each on a line of its own
/// (wrapped at `width` when given, as the terminal report is), and whose progress is shown there
/// (``ProgressPrinter``), ended when the use case is.
func perform<T>(width: Int? = nil, _ useCase: (AppContext) async throws -> T) async throws -> T {
    let console = Console.current
    let progress = ProgressPrinter(console: console)
    defer { progress.finish() }
    let context = AppContext(environment: console.environment, notify: { notice in
        progress.finish()
        for line in notice.text.split(separator: "\n", omittingEmptySubsequences: false) {
            let shown = JSONText.visible(String(line))
            for part in width.map({ TextLayout.wrap(shown, width: $0) }) ?? [shown] { console.err(part + "\n") }
        }
    }, progress: progress.show)
    return try await useCase(context)
}

/// Refuses the command's options, as ArgumentParser refuses a value that does not parse, when its
/// use case found a `problem` in them (each use case's `optionProblem()`).
func refuse(_ problem: String?) throws {
    if let problem { throw ValidationError(problem) }
}

/// A command that only groups subcommands (`remix`, `remix log`, …): run without one, it is bad
/// input like any other — its usage and the subcommands on standard error, exit 1 — where
/// ArgumentParser would print the help and exit 0.
protocol CommandGroup: AsyncParsableCommand {}

extension CommandGroup {
    func run() async throws {
        let names = Self.configuration.subcommands.compactMap { $0.configuration.commandName }
        throw ValidationError("name a subcommand: \(names.joined(separator: ", ")) (see --help)")
    }
}
