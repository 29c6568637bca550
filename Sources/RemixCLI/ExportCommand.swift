import ArgumentParser
import Foundation
import RemixExperiments
import RemixFiles
import RemixInterop

/// `remix export`: experiments in other tools' formats.
struct ExportCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export experiments in another tool's format.",
        subcommands: [ExportGrowthBookCommand.self])
}

/// `remix export growthbook`: the experiments as a GrowthBook SDK payload.
struct ExportGrowthBookCommand: ParsableCommand {
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
            with 'force' becomes a force rule. Each such mapping is reported on standard error. See \
            docs/growthbook.md.
            """)

    @Argument(help: "The experiments folder (or files).")
    var folder: String = "experiments"

    @Option(help: "Only this app's slots (default: every registered app).")
    var app: String?

    @Option(help: "Write the payload to this file instead of standard output.")
    var output: String?

    @Option(help: "The time the payload is built for, for schedules (RFC 3339 or YYYY-MM-DD; default: now).")
    var at: String?

    @OptionGroup var plugins: PluginOptions

    func run() throws {
        var date = Date()
        if let at {
            guard let parsed = DateParsing.parse(at) else {
                printError("--at must be a date like 2026-12-01 or 2026-12-01T09:00:00Z (got \(at))")
                throw ExitCode(1)
            }
            date = parsed
        }
        try refuseOutputsOverInputs(inputs: [.init("a file of the experiments folder", folder)] + pluginInputs(plugins.paths),
                                    outputs: output.map { [.init("--output", $0)] } ?? [])
        let registry = try loadRegistry(plugins: plugins.paths)
        let set = try loadExperiments(paths: [folder], registry: registry)
        let export: GrowthBookExport
        do {
            export = try GrowthBookExport.make(set, registry: registry, app: app, at: date)
        } catch {
            printError(error)
            throw ExitCode(1)
        }
        for note in export.notes { printError("note: \(note)") }
        guard let output else {
            writeOut(export.json)
            return
        }
        // Written beside the file and renamed over it: an interrupted export leaves it as it was.
        let staged = StagedOutput.file(output)
        do {
            try export.json.write(toFile: staged.path, atomically: false, encoding: .utf8)
        } catch {
            staged.discard()
            printError("cannot write \(output): \(error.localizedDescription)")
            throw ExitCode(1)
        }
        do {
            try staged.commit()
        } catch {
            printError(error.description)
            throw ExitCode(1)
        }
    }
}
