import ArgumentParser

/// The `remix` command: a thin shell of subcommands over the Remix libraries.
public struct RemixCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "remix",
        abstract: "Run apps built from Remix features, and experiment with which features fill their slots.",
        subcommands: [FeaturesCommand.self, ValidateCommand.self, AssignCommand.self, RunCommand.self, SimulateCommand.self, AnalyzeCommand.self,
                      ExportCommand.self, ImportCommand.self])

    public init() {}
}
