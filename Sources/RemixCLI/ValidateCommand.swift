import ArgumentParser
import RemixExperiments
import RemixKit

/// `remix validate`: check experiment files against each other and the registered features.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check experiment files: syntax, types, apps, slots, features, parameters and overlaps.",
        discussion: """
            Prints every problem as 'file:line:column: error|warning: message' and exits 1 if there \
            is any error.
            """)

    @Argument(help: "Experiment files or folders (default: experiments/).")
    var paths: [String] = []

    @Flag(help: "Also print each namespace's slices: which experiment takes which range, and what is free.")
    var namespaces = false

    @OptionGroup var plugins: PluginOptions

    func run() throws {
        let registry = try loadRegistry(plugins: plugins.paths)
        let report = ExperimentValidation.run(paths: paths.isEmpty ? ["experiments"] : paths, registry: registry)
        for problem in report.diagnostics { printError(problem.description, prefix: false) }
        if namespaces {
            let map = NamespaceMap(report.experiments.definitions)
            print(map.lines.isEmpty ? "no experiment uses a namespace" : "namespaces:\n" + map.lines.map { "  " + $0 }.joined(separator: "\n"))
        }
        print(report.summary)
        if report.errorCount > 0 { throw ExitCode(1) }
    }
}
