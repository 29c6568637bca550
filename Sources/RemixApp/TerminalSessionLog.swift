import Foundation
import RemixEventLog
import RemixExperiments
import RemixFormats
import RemixHost
import RemixKit
import RemixStore
import RemixTerminal

/// `remix run --log`: the terminal session's events — its start, screens, exposures, the features'
/// events and its end — stamped with the wall clock, echoed as they happen and written to the log
/// (a JSON Lines file, appended to, or an event store) when the session ends.
final class TerminalSessionLog: EventSink {
    private let echo: TerminalEventEcho
    let session: String
    let user: String
    private let started = Date()
    private(set) var events: [LoggedEvent] = []
    private var lastScreen = ""
    private var steps = 0

    /// A log of session `session` for `user`, echoing each feature event through `echo`.
    init(echo: TerminalEventEcho, session: String, user: String) {
        self.echo = echo
        self.session = session
        self.user = user
    }

    func record(_ event: DomainEvent) {
        echo.record(event)
        write(event.name, event.fields)
    }

    /// Records a screen transition as the simulator does, with the whole navigation stack.
    func record(_ transition: NavigationTransition) {
        steps += 1
        if let screen = transition.screen { lastScreen = screen.name }
        write("screen", [
            EventField("transition", .string(transition.kind.rawValue)),
            EventField("screen", transition.screen.map { .string($0.description) } ?? .null),
            EventField("stack", .string(transition.state.description)),
        ])
    }

    func write(_ type: String, _ fields: [EventField]) {
        events.append(LoggedEvent(timestamp: Self.now(), type: type, session: session, user: user, fields: fields))
    }

    /// Adds `session_ended` with the screen the session ended on, its length and its steps.
    func end() {
        write("session_ended", [
            EventField("outcome", .string("none")), EventField("intent", .null), EventField("screen", .string(lastScreen)),
            EventField("durationMs", .int(Int(Date().timeIntervalSince(started) * 1000))), EventField("steps", .int(steps)),
        ])
    }

    /// An attribute as an event value (object keys sorted, whole numbers as integers).
    static func eventValue(_ value: AttributeValue) -> EventValue {
        switch value {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .number(let number): number == number.rounded() && abs(number) < 1e15 ? .int(Int(number)) : .double(number)
        case .string(let text): .string(text)
        case .array(let items): .array(items.map(eventValue))
        case .object(let fields): .object(fields.sorted { $0.key < $1.key }.map { EventField($0.key, eventValue($0.value)) })
        }
    }

    static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
}

/// Writes a terminal session's events, after a run record, to a file or an event store.
enum TerminalLogWriter {
    /// Appends to the JSON Lines file `log` or stores into the store it names, leaving what was
    /// there untouched when it cannot.
    static func write(_ events: [LoggedEvent], app: String, seed: UInt64, to log: String, _ context: AppContext) async throws {
        let record = LoggedEvent(timestamp: events.first?.timestamp ?? TerminalSessionLog.now(), type: "run", session: "",
                                 user: "", fields: [
                                     EventField("version", .string(RemixVersion.text)), EventField("app", .string(app)),
                                     EventField("seed", .string(String(seed))), EventField("users", .int(1)),
                                     EventField("shard", .string("1/1")), EventField("mode", .string("terminal")),
                                 ])
        if !StoreURL.isStoreURL(log), let problem = LogTarget.problem(path: log, replacing: false) { throw AppError(problem) }
        do {
            if StoreURL.isStoreURL(log) {
                try await store([record] + events, into: try StoreURL(parsing: log), context)
            } else {
                let file = try JSONLinesFile(path: log)
                try file.append([record] + events)
                try file.close()
                context.notify(.message("logged \(CountText.grouped(events.count)) events to \(log)"))
            }
        } catch {
            throw AppError("could not write the session's events to \(StoreURL.isStoreURL(log) ? "the event store" : log): \(error)")
        }
    }

    /// Stores the run record and `events` as a run of their own.
    private static func store(_ events: [LoggedEvent], into url: StoreURL, _ context: AppContext) async throws {
        let run = "terminal-" + (events.dropFirst().first?.session ?? "session")
        let warnings = RetryWarnings()
        let sink = StoreBlockSink(url: url, run: run, shard: 1, shards: 1, resume: false, retrySeconds: 30, onRetry: warnings.keep)
        do {
            try await sink.begin(run: events[0])
            try await sink.write(block: 0, lines: [], events: Array(events.dropFirst()), users: 1)
            await sink.finish()
        } catch {
            await sink.close()
            warnings.say(context)
            throw error
        }
        warnings.say(context)
        context.notify(.message("logged \(CountText.grouped(events.count - 1)) events into \(url.redacted) as \(run)"))
    }
}
