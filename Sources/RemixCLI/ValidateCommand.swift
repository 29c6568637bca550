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

    @OptionGroup var plugins: PluginOptions

    func run() throws {
        let registry = try loadRegistry(plugins: plugins.paths)
        let report = ExperimentValidation.run(paths: paths.isEmpty ? ["experiments"] : paths, registry: registry)
        for problem in report.diagnostics { printError(problem.description, prefix: false) }
        print(report.summary)
        if report.errorCount > 0 { throw ExitCode(1) }
    }
}
