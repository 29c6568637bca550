import ArgumentParser
import RemixApp

/// `remix export`: experiments in other tools' formats.
struct ExportCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export experiments in another tool's format.",
        subcommands: [ExportGrowthBookCommand.self])
}

/// `remix export growthbook`: the experiments as a GrowthBook SDK payload.
struct ExportGrowthBookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "growthbook",
        abstract: "Write the experiments as the SDK payload GrowthBook's SDKs load.",
        discussion: """
            One feature per app slot, keyed <app>.<slot>, whose value names the feature that fills the \
            slot: {"feature": NAME, "params": {…}}. Its default is the slot's default feature, and each \
            experiment on the slot is a rule, in key order, so an SDK picks the same filler as 'remix \
            assign' and 'remix run'. Saved groups that conditions use go to 'savedGroups'. Drafts, \
            inactive and stopped experiments (which assign nobody) and those outside their schedule at \
            --at are left out, as GrowthBook applies schedules when it builds a payload; an experiment \
            with 'force' becomes a force rule. An experiment with phases is exported in the phase in \
            force at --at (its coverage and weights, and 'phase' as GrowthBook writes it), or in its \
            latest phase without --at. Each such mapping is reported on standard error. See \
            docs/growthbook.md.
            """)

    @Argument(help: "The experiments folder (or files).")
    var folder: String = "experiments"

    @Option(help: "Only this app's slots (default: every registered app).")
    var app: String?

    @Option(help: "Write the payload to this file instead of standard output.")
    var output: String?

    @Option(help: ArgumentHelp("The time the payload is built for, for schedules and phases (RFC 3339 or YYYY-MM-DD).",
                               discussion: "Default: now, and each experiment's latest phase."))
    var at: String?

    @Option(name: .customLong("bandit-log"),
            help: ArgumentHelp("A log whose latest bandit_update of each bandit gives its weights.",
                               discussion: "Default: a bandit's equal starting weights. See docs/bandits.md."))
    var banditLog: String?

    @OptionGroup var plugins: PluginOptions

    func run() async throws {
        var export = ExportGrowthBook()
        (export.folder, export.app, export.output, export.at, export.plugins) = (folder, app, output, at, plugins.paths)
        export.banditLog = banditLog
        if let json = try await perform(export.run) { writeOut(json) }
    }
}
