import ArgumentParser
import RemixApp
import RemixExperiments
import RemixFormats
import RemixKit

/// `remix validate`: check experiment files against each other and the registered features.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check experiment files: syntax, types, apps, slots, features, parameters, overlaps and metrics.",
        discussion: """
            Prints every problem as 'file:line:column: error|warning: message' and exits 1 if there \
            is any error. A folder's metrics.yaml is checked too, and so is every metric an \
            experiment names: a name with a '-' must be a key of metrics.yaml (event types have none). \
            The folders' population files (*population.yaml) are checked against their apps too.
            """)

    @Argument(help: "Experiment files or folders (default: experiments/).")
    var paths: [String] = []

    @Flag(help: "Also print each namespace's slices: which experiment takes which range, and what is free.")
    var namespaces = false

    @OptionGroup var plugins: PluginOptions

    func run() async throws {
        var validation = Validate()
        (validation.paths, validation.plugins) = (paths, plugins.paths)
        let report = try await perform(validation.run)
        for problem in report.diagnostics { printError(problem.description, prefix: false) }
        if namespaces {
            let map = NamespaceMap(report.experiments.definitions)
            printOut(map.lines.isEmpty ? "no experiment uses a namespace" : "namespaces:\n" + map.lines.map { "  " + JSONText.visible($0) }.joined(separator: "\n"))
        }
        printOut(report.summary)
        // The problems are said above, each on its line; the summary counts them.
        if report.errorCount > 0 { throw ExitCode(1) }
    }
}
