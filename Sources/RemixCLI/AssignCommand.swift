import ArgumentParser
import RemixApp
import RemixExperiments

/// `remix assign`: which variation an experiment gives a session, and why.
struct AssignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assign",
        abstract: "Show the variation an experiment assigns to a session with given attributes, and why.",
        discussion: """
            The experiment is decided as its slot is filled in 'remix run' and 'remix simulate': the rules of the \
            slot's rules file and the experiments before it come first, and a session one of them includes is \
            not in this experiment (rule slotTaken). See docs/experiments.md.
            """)

    @Argument(help: "An experiment file, or the key of an experiment in the experiments folder.")
    var experiment: String

    @Option(help: "The folder of experiment files (and saved groups).")
    var experiments: String = "experiments"

    @OptionGroup var session: SessionAttributeOptions

    @OptionGroup var plugins: PluginOptions

    @Option(parsing: .unconditional, help: "Force the session into this variation (key or index), as QA forcing does.")
    var force: String?

    @Option(help: ArgumentHelp("Sticky bucketing: keep users' variations in this store (a JSON Lines file, or a postgres:// URL).",
                               valueName: "file|url"))
    var sticky: String?

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() async throws {
        var assignment = Assign(experiment: experiment)
        (assignment.experiments, assignment.session, assignment.plugins, assignment.force) = (experiments, session.values, plugins.paths, force)
        assignment.sticky = sticky
        let outcome = try await perform(assignment.run)
        printOut(json ? DecisionReport.json(outcome.decision, slot: outcome.slot)
                      : DecisionReport.text(outcome.decision, file: outcome.file, slot: outcome.slot))
    }
}
