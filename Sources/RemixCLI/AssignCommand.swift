import ArgumentParser
import Foundation
import RemixExperiments
import RemixKit

/// `remix assign`: which variation an experiment gives a session, and why.
struct AssignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assign",
        abstract: "Show the variation an experiment assigns to a session with given attributes, and why.")

    @Argument(help: "An experiment file, or the key of an experiment in the experiments folder.")
    var experiment: String

    @Option(help: "The folder of experiment files (and saved groups).")
    var experiments: String = "experiments"

    @OptionGroup var session: SessionAttributeOptions

    @OptionGroup var plugins: PluginOptions

    @Option(parsing: .unconditional, help: "Force the session into this variation (key or index), as QA forcing does.")
    var force: String?

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() throws {
        let registry = try loadRegistry(plugins: plugins.paths)
        let isFile = experiment.hasSuffix(".yaml") || experiment.hasSuffix(".yml") || experiment.contains("/")
        let set = try loadExperiments(paths: [isFile ? experiment : experiments], registry: registry)
        let definition = isFile ? set.definitions.first { $0.file == experiment } : set.definition(key: experiment)
        guard let definition else {
            let known = set.definitions.map(\.key)
            printError("no experiment '\(experiment)' in \(experiments)/"
                       + NameSuggestion.hint(for: experiment, among: known, noun: "experiment"))
            throw ExitCode(1)
        }
        let forced = try force.map { try variationIndex($0, in: definition) }
        let decision = ExperimentEvaluator(savedGroups: set.savedGroups)
            .decide(definition, attributes: try session.parsedAttributes(), now: try session.date(), forcedVariation: forced)
        printOut(json ? DecisionReport.json(decision) : DecisionReport.text(decision, file: definition.file))
        for warning in RegexBudget.takeWarnings() { printError(warning) }
    }

    private func variationIndex(_ value: String, in definition: ExperimentDefinition) throws -> Int {
        if let index = definition.variations.firstIndex(where: { $0.key == value }) { return index }
        if let index = Int(value), definition.variations.indices.contains(index) { return index }
        printError("--force: experiment '\(definition.key)' has no variation '\(value)'"
                   + NameSuggestion.hint(for: value, among: definition.variations.map(\.key), noun: "variation"))
        throw ExitCode(1)
    }
}
