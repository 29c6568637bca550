import Foundation
import RemixFormats
import RemixExperiments
import RemixFiles
import RemixKit
import RemixYAML

/// `remix assign`: the variation an experiment gives a session, and why — decided as the session's
/// slot is filled in `remix run` and `simulate` (``ExperimentSlotChooser/fill(app:slot:defaultFeature:)``):
/// the slot's rules file and the experiments before this one come first.
package struct Assign {
    /// An experiment file, or the key of an experiment in `experiments`.
    package var experiment: String
    /// The folder of experiment files (and saved groups).
    package var experiments = "experiments"
    /// The session's attributes and time.
    package var session = SessionAttributes()
    /// Plugins to load besides the built-in modules.
    package var plugins: [String] = []
    /// Force the session into this variation (key or index).
    package var force: String?
    /// The sticky-bucket store (``StickyBucketOption``); sticky bucketing is on only with one.
    package var sticky: String?

    /// The assignment of `experiment`.
    package init(experiment: String) {
        self.experiment = experiment
    }

    /// The decision, the file of the experiment it is of, and how the slot was filled.
    package struct Outcome {
        package var decision: ExperimentDecision
        package var file: String
        /// The slot's filling for the session: its feature and the rule that chose it.
        package var slot: SlotFill
    }

    /// Evaluates the experiment's slot for the session.
    package func run(_ context: AppContext) async throws -> Outcome {
        let registry = try Modules.load(plugins: plugins, context)
        let isFile = experiment.hasSuffix(".yaml") || experiment.hasSuffix(".yml") || experiment.contains("/")
        // A file named alone is read with the files of its slot beside it (its folder's YAML files).
        let fileFolder = PathText.folder(of: experiment)
        let read: OutputCheck.Input = .init(isFile ? "a file beside the experiment file" : "a file of the experiments folder",
                                            isFile ? (fileFolder.isEmpty ? "." : fileFolder) : experiments)
        try Outputs.refuseSticky(sticky, inputs: [read] + Modules.inputs(plugins, context), outputs: [])
        var set = try Definitions.experiments(paths: [isFile ? experiment : experiments], registry: registry)
        let found = isFile ? set.definitions.first { $0.file == experiment } : set.definition(key: experiment)
        guard let found else {
            throw AppError("no experiment '\(experiment)' in \(experiments)/"
                           + NameSuggestion.hint(for: experiment, among: set.definitions.map(\.key), noun: "experiment"))
        }
        // A file named alone is decided with its slot's rules file and experiments beside it.
        if isFile { set = try Definitions.experiments(paths: Self.slotFiles(of: found), registry: registry) }
        let definition = set.definitions.first { $0.file == found.file } ?? found
        let forced = try force.map { [definition.key: try Self.variationIndex($0, in: definition)] } ?? [:]
        let attributes = try session.attributes()
        let store = try sticky.map(StickyBucketOption.store)
        var buckets: StickyBuckets?
        if let store {
            let identifiers = AssignmentContext(attributes: attributes).stickyBucketIdentifiers(attributeNames: set.stickyBucketAttributes)
            buckets = StickyBuckets(try await store.documents(for: identifiers))
        }
        let app = try registry.app(named: definition.app)
        guard let slot = app.slot(named: definition.slot) else { throw AppError("app '\(app.name)' has no slot '\(definition.slot)'") }
        let chooser = ExperimentSlotChooser(experiments: set, attributes: attributes, now: try session.date(), events: EventRecorder(),
                                            forcedVariations: forced, stickyBuckets: buckets)
        guard let fill = chooser.fill(app: app.name, slot: slot.name, defaultFeature: slot.defaultFeature),
              let decision = fill.decisions.first(where: { $0.experiment == definition.key }) else {
            throw AppError("experiment '\(definition.key)' is not among the rules of \(app.name)/\(slot.name)")
        }
        if let store, let updated = chooser.stickyBuckets { try await store.save(updated.changedDocuments) }
        for warning in RegexBudget.takeWarnings(of: set.regexPatterns) { context.notify(.message(warning)) }
        return Outcome(decision: decision, file: definition.file, slot: fill)
    }

    /// The files that decide `definition`'s slot in its folder: its saved groups, the slot's rules
    /// files and the other experiments on the slot (a file of the folder that cannot be read is left out).
    private static func slotFiles(of definition: ExperimentDefinition) -> [String] {
        let folder = PathText.folder(of: definition.file)
        let (beside, _) = ExperimentSet.load(paths: [folder.isEmpty ? "." : folder])
        let rules = beside.slotRules.filter { $0.app == definition.app && $0.slot == definition.slot }.map(\.file)
        let others = beside.definitions(app: definition.app, slot: definition.slot).filter { $0.key != definition.key }.map(\.file)
        return [definition.file] + rules + others
    }

    private static func variationIndex(_ value: String, in definition: ExperimentDefinition) throws -> Int {
        if let index = definition.variations.firstIndex(where: { $0.key == value }) { return index }
        if let index = Int(value), definition.variations.indices.contains(index) { return index }
        throw AppError("--force: experiment '\(definition.key)' has no variation '\(value)'"
                       + NameSuggestion.hint(for: value, among: definition.variations.map(\.key), noun: "variation"))
    }
}
