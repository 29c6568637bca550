import ArgumentParser
import RemixHost

/// The `remix` command: a thin shell of subcommands over the Remix libraries.
public struct RemixCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "remix",
        abstract: "Run apps built from Remix features, and experiment with which features fill their slots.",
        version: RemixVersion.number,
        subcommands: [FeaturesCommand.self, ValidateCommand.self, AssignCommand.self, RunCommand.self, SimulateCommand.self, AnalyzeCommand.self,
                      ExportCommand.self, ImportCommand.self, LogCommand.self, PlanCommand.self, CheckCommand.self, RoutesCommand.self, FitCommand.self, CompareCommand.self, PredictCommand.self])

    public init() {}

    /// Without a subcommand: bad input, as in every other command group (``CommandGroup``).
    public func run() throws {
        throw ValidationError("name a subcommand (see 'remix --help')")
    }

    /// Parses the command line and runs the command, like `main()`, except that every bad input —
    /// an unknown option, a value that does not parse, a failed validation — exits 1, as the
    /// commands' own input errors do, with ArgumentParser's message and usage on standard error.
    public static func runMain(_ arguments: [String]? = nil) async -> Never {
        do {
            var command = try parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            Self.exit()
        } catch {
            if exitCode(for: error) == .validationFailure {
                printErrorLines(fullMessage(for: error))
                Self.exit(withError: ExitCode(1))
            }
            Self.exit(withError: error)
        }
    }
}
