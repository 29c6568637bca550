import ArgumentParser
import Foundation
import RemixFormats
import RemixHost
import RemixInterop
import RemixKit
import RemixTerminal

/// Prints the one-line `message` to standard error, as `remix: message` unless `prefix` is false.
/// Messages quote names from logs and files, which can hold any character: every control
/// character is shown escaped (``JSONText/visible(_:)``), so none can move the cursor, clear the
/// screen or start a forged line.
func printError(_ message: String, prefix: Bool = true) {
    FileHandle.standardError.write(Data("\(prefix ? "remix: " : "")\(JSONText.visible(message))\n".utf8))
}

/// Prints `text` of several lines (a usage message) to standard error, each line as
/// ``printError(_:prefix:)`` shows one.
func printErrorLines(_ text: String) {
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) { printError(String(line), prefix: false) }
}

/// Prints `error` to standard error: an import's or export's problems a line each (a newline in a
/// name within one stays escaped), anything else as ``printError(_:prefix:)`` does.
func printError(_ error: any Error, prefix: Bool = true) {
    guard let interop = error as? InteropError else { return printError(String(describing: error), prefix: prefix) }
    for line in interop.lines { printError(line, prefix: prefix) }
}

/// Rewrites the progress line on standard error (a terminal) with `text`, shown as
/// ``printError(_:prefix:)`` shows a message; ``printError(_:prefix:)`` with "" ends it.
func printProgress(_ text: String) {
    FileHandle.standardError.write(Data("\r\(JSONText.visible(text))".utf8))
}

/// Prints `text` to standard output, each of its lines with its control characters shown escaped
/// (names from logs and experiment files can hold terminal escapes).
func printOut(_ text: String) {
    print(text.split(separator: "\n", omittingEmptySubsequences: false).map { JSONText.visible(String($0)) }.joined(separator: "\n"))
}

/// Writes `text` to standard output at once (prompts have no newline to flush them).
func writeOut(_ text: String) {
    errno = 0
    print(text, terminator: "")
    StandardOutputCheck.checkWrite()
    StandardOutputCheck.flush()
}

/// `requested` worker threads (nil: one per core), capped at the cores: more threads than cores
/// only contend (64 jobs on 2 cores ran 8× slower than 2). Says so on standard error when it caps.
func usefulJobs(_ requested: Int?, cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int {
    guard let requested else { return max(cores, 1) }
    guard requested > cores else { return requested }
    printError("warning: --jobs \(requested) is more than this machine's \(cores) cores; using \(cores)")
    return max(cores, 1)
}

/// Loads the built-in modules, then the plugins of `REMIX_PLUGIN_PATH` and `plugins` (`--plugins`);
/// a broken module (e.g. its catalog file) or plugin is reported and exits 1. With
/// `REMIX_PLUGIN_TIMING` set, each plugin's load and registration times go to standard error.
func loadRegistry(plugins: [String]) throws -> FeatureRegistry {
    do {
        let registry = try BuiltInModules.registry()
        let loaded = try PluginLoader.load(PluginLoader.requestedPaths(options: plugins), into: registry)
        if ProcessInfo.processInfo.environment["REMIX_PLUGIN_TIMING"] != nil {
            for plugin in loaded { printError(plugin.description) }
        }
        for problem in registry.problems() { printError("warning: \(problem)") }
        return registry
    } catch {
        printError(String(describing: error))
        throw ExitCode(1)
    }
}

/// Runs an app in the terminal on standard input and output. With a `route`, the session's output
/// (`announce` and its events, through `output`) is held until the route has opened: a route that
/// cannot open prints only why — an unknown screen name when the route gives one, found in fresh
/// sessions from `rehearsal` that print nothing.
func runInTerminal(
    app: String, platform: String?, registry: FeatureRegistry, seed: UInt64, chooser: (any SlotChooser)?,
    events: any EventSink, output: HeldOutput, route: Route? = nil, rehearsal: (() throws -> AppSession)? = nil,
    observe: (AppSession) -> Void = { _ in }, announce: () -> Void = {}
) throws -> TerminalOutcome {
    let session: AppSession
    do {
        session = try AppSession(app: app, platform: platform, registry: registry, seed: seed,
                                 events: events, chooser: chooser)
    } catch {
        printError(String(describing: error))
        throw ExitCode(1)
    }
    observe(session)
    if route != nil { output.hold() }
    announce()
    if let route {
        session.start()
        do {
            try RouteOpener.open(route, in: session, rehearsal: rehearsal)
        } catch {
            let routes = "remix routes --app \(app)" + (platform.map { " --platform \($0)" } ?? "")
            let unknown = rehearsal.flatMap { UnknownScreenError.find(in: route, app: app, routesCommand: routes, session: $0) }
            printError(unknown?.description ?? error.description)
            throw ExitCode(1)
        }
        output.release()
    }
    let outcome = TerminalDriver(session: session, readLine: { Swift.readLine() }, write: writeOut).run(started: route != nil)
    if !outcome.errors.isEmpty {
        printError("\(outcome.errors.count) input line(s) could not be acted on; the first: \(outcome.errors[0])")
    }
    return outcome
}

/// A command that only groups subcommands (`remix`, `remix log`, …): run without one, it is bad
/// input like any other — its usage and the subcommands on standard error, exit 1 — where
/// ArgumentParser would print the help and exit 0.
protocol CommandGroup: ParsableCommand {}

extension CommandGroup {
    func run() throws {
        let names = Self.configuration.subcommands.compactMap { $0.configuration.commandName }
        throw ValidationError("name a subcommand: \(names.joined(separator: ", ")) (see --help)")
    }
}

/// Why a file cannot be written at `path` (its folder missing, not a folder, or not writable),
/// checked before any work so that a long run does not fail at its end; nil when it can.
func outputPathProblem(_ path: String, option: String) -> String? {
    let folder = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
        return "\(option) \(path): the folder \(folder) does not exist; create it first"
    }
    guard FileManager.default.isWritableFile(atPath: folder) else { return "\(option) \(path): the folder \(folder) is not writable" }
    return nil
}
