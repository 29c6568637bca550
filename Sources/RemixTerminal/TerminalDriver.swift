import Foundation
import RemixHost
import RemixKit

/// How a terminal session ended.
package struct TerminalOutcome: Equatable, Sendable {
    /// Whether the user quit (as opposed to input ending).
    package var quit: Bool
    /// Messages about input that could not be acted on, in order.
    package var errors: [String]

    /// Makes an outcome.
    package init(quit: Bool, errors: [String]) {
        self.quit = quit
        self.errors = errors
    }
}

/// Plays a person at a terminal: shows the front screen's data and numbered actions, reads a
/// choice per line and acts on the app's views. Reads from any line source, so piped input
/// scripts a session; ends on `q` or at end of input.
package final class TerminalDriver {
    private let session: AppSession
    private let readLine: () -> String?
    private let write: (String) -> Void
    private var errors: [String] = []

    /// Makes a driver for a started or unstarted session.
    package init(session: AppSession, readLine: @escaping () -> String?, write: @escaping (String) -> Void) {
        self.session = session
        self.readLine = readLine
        self.write = write
    }

    /// Starts the app and runs until the user quits or input ends.
    /// Shows the screens and takes the person's choices until they quit or input ends; with
    /// `started`, the session was already started (and maybe taken somewhere by a route).
    package func run(started: Bool = false) -> TerminalOutcome {
        if !started { session.start() }
        while true {
            let window = session.window
            if window.isBlocked {
                write(ScreenRenderer.render(state: window.state, panels: window.panels))
                let waited = session.waitWhileBlocked()
                write("(\(formatted(waited)) pass)\n")
                if window.isBlocked { return TerminalOutcome(quit: false, errors: errors + ["the app is stuck waiting"]) }
                continue
            }
            let panels = window.panels
            let actions = TerminalAction.actions(for: panels)
            write(ScreenRenderer.render(state: window.state, panels: panels))
            for (number, action) in actions.enumerated() { write("  \(number + 1)) \(action.label)\n") }
            if window.canGoBack { write("  b) Back\n") }
            write("  q) Quit\n> ")
            guard let line = readLine() else {
                write("\n(end of input)\n")
                return TerminalOutcome(quit: false, errors: errors)
            }
            let choice = line.trimmingCharacters(in: .whitespaces)
            write(choice + "\n")
            switch choice.lowercased() {
            case "q", "quit":
                return TerminalOutcome(quit: true, errors: errors)
            case "b", "back":
                attempt { try window.goBack() }
            case "":
                continue
            default:
                guard let number = Int(choice), actions.indices.contains(number - 1) else {
                    let choices = (actions.isEmpty ? [] : ["a number from 1 to \(actions.count)"])
                        + (window.canGoBack ? ["b (back)"] : []) + ["q (quit)"]
                    report("unknown action '\(choice)': type \(choices.joined(separator: ", "))")
                    continue
                }
                guard perform(actions[number - 1], panels: panels) else {
                    write("\n(end of input)\n")
                    return TerminalOutcome(quit: false, errors: errors)
                }
            }
        }
    }

    /// Performs an action; returns false when input ended while reading its text.
    private func perform(_ action: TerminalAction, panels: [Panel]) -> Bool {
        switch action.kind {
        case .input(let input, let panel):
            attempt { try session.window.send(input, to: panels[panel]) }
        case .edit(let fieldID, let label, let panel):
            write("\(label)> ")
            guard let text = readLine() else { return false }
            write(text + "\n")
            attempt { try session.window.send(.edit(fieldID: fieldID, text: text), to: panels[panel]) }
        }
        return true
    }

    private func attempt(_ body: () throws -> Void) {
        do {
            try body()
        } catch {
            report(String(describing: error))
        }
    }

    private func report(_ message: String) {
        errors.append(message)
        write("! \(message)\n")
    }

    private func formatted(_ duration: Duration) -> String {
        let seconds = duration.seconds
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}

/// Echoes domain events to the terminal as they happen.
package final class TerminalEventEcho: EventSink {
    private let write: (String) -> Void

    /// Makes an echo writing through `write`.
    package init(write: @escaping (String) -> Void) {
        self.write = write
    }

    package func record(_ event: DomainEvent) {
        let fields = event.fields.map { field -> String in
            switch field.value {
            case .string(let value): "\(field.name)=\"\(value)\""
            case .int(let value): "\(field.name)=\(value)"
            case .double(let value): "\(field.name)=\(value)"
            case .bool(let value): "\(field.name)=\(value)"
            case .null: "\(field.name)=null"
            case .object, .array: "\(field.name)=…"
            }
        }
        write("  • \(([event.name] + fields).joined(separator: " "))\n")
    }
}
