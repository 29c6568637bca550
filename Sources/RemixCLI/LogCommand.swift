import ArgumentParser
import RemixApp
import RemixFormats
import RemixKit

/// `remix log`: event logs as a whole.
struct LogCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        commandName: "log", abstract: "Move event logs between JSON Lines files and an event store.",
        subcommands: [LogCopyCommand.self, LogUpgradeCommand.self])
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
        var copy = CopyLog(source: source, destination: destination)
        (copy.run, copy.again) = (runID, again)
        let outcome = try await perform(copy.run)
        let figures = outcome.copy
        if outcome.fromStore {
            printOut("copied \(CountText.grouped(figures.events)) events from \(outcome.store) to \(destination)")
        } else {
            printOut("copied \(CountText.grouped(figures.events)) events from \(source) into \(outcome.store) as \(figures.run ?? "?"): "
                     + "\(figures.blocksWritten) blocks stored" + (figures.blocksSkipped > 0 ? ", \(figures.blocksSkipped) already stored" : ""))
        }
        if let failure = outcome.failure { throw failure }
    }
}

/// `remix log upgrade URL`: an event store of an older schema version brought up to this binary's.
struct LogUpgradeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upgrade",
        abstract: "Bring an event store of an older schema version up to this remix's.",
        discussion: """
            Version 2 derives a screen event's screen name and an exposure's feature from the \
            events' fields into columns of their own, and reads each family of events the analysis \
            needs through a covering index; analyze needs it. The upgrade runs in one transaction \
            (rewriting remix_events once, about a minute per 10 M events, while writers wait), so it \
            either completes or leaves the store as it was. A store already current is left alone. \
            Writing into a version 1 store works without it. See docs/storage.md.
            """)

    @Argument(help: "The event store's postgresql:// URL.")
    var store: String

    func run() async throws {
        let outcome = try await perform(UpgradeStore(store: store).run)
        if outcome.from == outcome.to {
            printOut("the event store at \(outcome.store) is at schema version \(outcome.to) already; nothing to do")
        } else {
            printOut("upgraded the event store at \(outcome.store) from schema version \(outcome.from) to \(outcome.to)")
        }
    }
}
