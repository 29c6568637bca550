import ArgumentParser
import RemixApp
import RemixFiles
import RemixHost
import RemixKit

/// The `remix` command: a thin shell of subcommands over the use cases of RemixApp.
package struct RemixCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "remix",
        abstract: "Run apps built from Remix features, and experiment with which features fill their slots.",
        version: RemixVersion.number,
        subcommands: [FeaturesCommand.self, ValidateCommand.self, AssignCommand.self, RunCommand.self, SimulateCommand.self, AnalyzeCommand.self,
                      ExportCommand.self, ImportCommand.self, LogCommand.self, PlanCommand.self, CheckCommand.self, RoutesCommand.self, FitCommand.self, CompareCommand.self, PredictCommand.self])

    package init() {}

    /// Without a subcommand: bad input, as in every other command group (``CommandGroup``).
    package func run() async throws {
        throw ValidationError("name a subcommand (see 'remix --help')")
    }

    /// Parses `arguments` (without the program's name) and runs the command on ``Console/current``;
    /// returns the exit status. Every failure — an unknown option, a value that does not parse, a
    /// failed validation, a use case's error — is shown by ``report(_:)`` alone.
    package static func execute(_ arguments: [String]) async -> Int32 {
        let status = await run(arguments)
        // A stop signal's clean-up may be what ended the command (it closes the event log under
        // a run): the stop then exits, with its own status and note.
        StopSignals.shared.yieldToStop()
        return status
    }

    /// Parses `arguments` and runs the command: ``execute(_:)`` before it waits for a stop.
    private static func run(_ arguments: [String]) async -> Int32 {
        do {
            var command = try parseAsRoot(arguments)
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            return 0
        } catch {
            // ArgumentParser suggests near names of options, not of commands.
            if exitCode(for: error) == .validationFailure, let problem = unknownCommand(in: arguments) {
                printError(problem)
                return 1
            }
            return report(error)
        }
    }

    /// "unknown command 'log cpy'; did you mean 'log copy'? (known commands: …)" when a word of
    /// `arguments`, before any option or argument, names no subcommand of the group before it; nil
    /// when each names one (the failure is elsewhere). Only called once parsing has failed.
    static func unknownCommand(in arguments: [String]) -> String? {
        var subcommands = configuration.subcommands.map { $0.configuration }
        var path: [String] = []
        for word in arguments {
            guard !subcommands.isEmpty, !word.hasPrefix("-"), word != "help" else { return nil }
            guard let next = subcommands.first(where: { $0.commandName == word || $0.aliases.contains(word) }) else {
                let names = subcommands.compactMap { $0.commandName }.map { (path + [$0]).joined(separator: " ") }
                let typed = (path + [word]).joined(separator: " ")
                return "unknown command '\(typed)'" + NameSuggestion.hint(for: typed, among: names, noun: "command")
            }
            subcommands = next.subcommands.map { $0.configuration }
            path.append(word)
        }
        return nil
    }

    /// The one error printer: shows why a command failed, every message as `remix: …`, and returns
    /// the exit status — 1 for any bad input or failure, 0 for `--help` and `--version` (shown on
    /// standard output), or the status of an `ExitCode` (whose command said why itself).
    static func report(_ error: any Error) -> Int32 {
        switch error {
        case let error as AppError:
            for problem in error.problems { printError(problem, prefix: false) }
            for message in error.messages { printError(message) }
            return 1
        case let exit as ExitCode:
            return exit.rawValue
        default:
            switch exitCode(for: error) {
            case .success:
                writeOut(fullMessage(for: error) + "\n")
                return 0
            case .validationFailure:
                // ArgumentParser's "Error: …" and the usage after it.
                let lines = fullMessage(for: error).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                printError(lines.first.map { $0.hasPrefix("Error: ") ? String($0.dropFirst(7)) : $0 } ?? "")
                for line in lines.dropFirst() { printError(line, prefix: false) }
                return 1
            default:
                printError(String(describing: error))
                return 1
            }
        }
    }
}
