import ArgumentParser
import Foundation
import RemixKit
import RemixEventLog
import RemixStore
import RemixSystem

/// `remix log`: event logs as a whole.
struct LogCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        commandName: "log", abstract: "Move event logs between JSON Lines files and an event store.",
        subcommands: [LogCopyCommand.self])
}

/// `remix log copy SRC DST`: a JSON Lines file into an event store, or a store's events into a file.
struct LogCopyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy a JSON Lines log into an event store, or a store's events into a JSON Lines file.",
        discussion: """
            SRC and DST are a file and a postgresql:// URL, either way round. Into a store, the file \
            becomes a run of its own (copy-…, from a hash of its content), in blocks that are never \
            stored twice: a copy that stopped half-way completes when run again, and a file the store \
            already holds — whatever its name or modification time — is refused, naming its run, \
            unless --again asks for a second copy. Out of a store, every run (or --run ID) is written \
            to the file, replacing it, run records first. Lines that are not events are skipped and \
            listed; then the command exits 1. See docs/storage.md.
            """)

    @Argument(help: "The log to read: a JSON Lines file or an event store's URL.")
    var source: String

    @Argument(help: "Where to write: an event store's URL or a JSON Lines file.")
    var destination: String

    @Option(name: .customLong("run"), help: "Out of a store: only this run (see the run ids simulate prints).")
    var runID: String?

    @Flag(name: .customLong("again"),
          help: "Into a store: store the file even if the store holds it already, as a run of its own (its events then count twice).")
    var again = false

    func run() async throws {
        let fromStore = StoreURL.isStoreURL(source), toStore = StoreURL.isStoreURL(destination)
        guard fromStore != toStore else {
            printError(fromStore ? "both are event stores: copy one into a file, then the file into the other"
                                 : "both are files: use cp, or name an event store's postgresql:// URL as one of them")
            throw ExitCode(1)
        }
        if runID != nil, !fromStore {
            printError("--run picks a run out of a store; the source is a file here")
            throw ExitCode(1)
        }
        if again, fromStore {
            printError("--again stores a file into a store once more; the source is a store here")
            throw ExitCode(1)
        }
        try refuseOutputsOverInputs(inputs: [.init("the log", source)], outputs: [.init("the destination", destination)])
        do {
            if fromStore {
                let url = try StoreURL(parsing: source)
                if let problem = LogTarget.problem(path: destination, replacing: true) {
                    printError(problem)
                    throw ExitCode(1)
                }
                let outcome = try await LogCopy.storeToFile(url, run: runID, destination) { done, total in
                    Self.progress(done, total, unit: "events")
                }
                Self.endProgress()
                printOut("copied \(CountText.grouped(outcome.events)) events from \(url.redacted) to \(destination)")
            } else {
                let url = try StoreURL(parsing: destination)
                let outcome = try await LogCopy.fileToStore(source, url, again: again) { done, total in
                    Self.progress(done, total, unit: "bytes")
                }
                Self.endProgress()
                printOut("copied \(CountText.grouped(outcome.events)) events from \(source) into \(url.redacted) as \(outcome.run ?? "?"): "
                      + "\(outcome.blocksWritten) blocks stored" + (outcome.blocksSkipped > 0 ? ", \(outcome.blocksSkipped) already stored" : ""))
                if outcome.badLines > 0 {
                    printError("\(CountText.grouped(outcome.badLines)) line(s) are not events and were skipped (first: "
                               + outcome.firstBadLines.joined(separator: "; ") + ")")
                    throw ExitCode(1)
                }
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            Self.endProgress()
            printError(String(describing: error))
            throw ExitCode(1)
        }
    }

    /// A progress line on a terminal's standard error (nothing when it is not a terminal).
    static func progress(_ done: Int, _ total: Int, unit: String) {
        guard isatty(STDERR_FILENO) == 1 else { return }
        let percent = total > 0 ? min(done * 100 / total, 100) : 100
        let bar = String(repeating: "#", count: percent / 5) + String(repeating: ".", count: 20 - percent / 5)
        printProgress("[\(bar)] \(percent)% \(done)/\(total) \(unit)")
    }

    static func endProgress() {
        if isatty(STDERR_FILENO) == 1 { printError("", prefix: false) }
    }
}
