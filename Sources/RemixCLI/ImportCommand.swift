import ArgumentParser
import RemixApp

/// `remix import`: experiments from other tools' formats.
struct ImportCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import experiments from another tool's format.",
        subcommands: [ImportGrowthBookCommand.self])
}

/// `remix import growthbook`: a GrowthBook SDK payload's experiment rules as experiment files.
struct ImportGrowthBookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "growthbook",
        abstract: "Turn the rules of a GrowthBook SDK payload's feature into experiment files and a slot rules file.",
        discussion: """
            Reads the feature <app>.<slot> (or --feature, or the payload's only feature); each experiment \
            rule becomes <key>.yaml in --out. When the feature has force rules (overrides, rollouts) or \
            experiments that can include the same session, its rules in order go into <app>.<slot>.rules.yaml. \
            A variation's or force rule's value must name a registered feature that can fill the slot: its \
            name, or {"feature": NAME, "params": {…}}. Saved groups the conditions use are added to \
            saved-groups.yaml. The files are checked with the folder's other experiments, as 'remix validate' \
            does, and nothing is written unless they pass. Rules with no file form (contextual bandits, \
            prerequisites) fail the import unless --skip-unsupported leaves them out. See docs/growthbook.md.
            """)

    @Argument(help: "The payload file (JSON), e.g. saved from /api/features/<client key>.")
    var payload: String

    @Option(help: "The app whose slot the experiments fill.")
    var app: String

    @Option(help: "The slot they fill.")
    var slot: String

    @Option(help: "The payload feature to read (default: <app>.<slot>).")
    var feature: String?

    @Option(help: "The experiments folder to write to.")
    var out: String = "experiments"

    @Flag(help: "Replace experiment files that already exist.")
    var overwrite = false

    @Flag(help: "Leave out rules that experiment and rules files cannot express (contextual bandits, …) instead of failing.")
    var skipUnsupported = false

    @OptionGroup var plugins: PluginOptions

    func run() async throws {
        var importer = ImportGrowthBook(payload: payload, app: app, slot: slot)
        (importer.feature, importer.out, importer.overwrite, importer.skipUnsupported) = (feature, out, overwrite, skipUnsupported)
        importer.plugins = plugins.paths
        let plan = try await perform(importer.run)
        for file in plan.files { printOut("\(file.replaces ? "replaced" : "wrote") \(file.path)") }
        let rules = plan.rules.isEmpty ? "" : " and its \(plan.rules.count) rule\(plan.rules.count == 1 ? "" : "s") in order"
        printOut("\(plan.experiments.count) experiment\(plan.experiments.count == 1 ? "" : "s")\(rules) from feature "
                 + "'\(plan.featureKey)'; check them with 'remix validate \(out)'")
    }
}
