import Foundation
import RemixExperiments
import RemixKit
import RemixYAML

/// Decides the files an import writes and checks them, with the experiments and saved groups
/// already in the output folder, exactly as `remix validate` would.
struct ImportPlanner {
    let options: GrowthBookImport.Options
    let registry: FeatureRegistry
    let featureKey: String
    /// The payload's `savedGroups`.
    let payloadGroups: [String: AttributeValue]

    func plan(_ experiments: [(ImportedExperiment, index: Int)], rules: [ImportedRule],
              notes: [String]) throws(InteropError) -> GrowthBookImport {
        var notes = notes
        var problems: [String] = []
        let folder = options.outputFolder
        let manager = FileManager.default
        let existing = manager.fileExists(atPath: folder)
            ? ExperimentSet.load(paths: [folder]).0 : ExperimentSet(definitions: [])
        var files: [GrowthBookImport.PlannedFile] = []
        var definitions: [ExperimentDefinition] = []
        for (experiment, index) in experiments {
            let path = (folder as NSString).appendingPathComponent("\(experiment.key).yaml")
            let exists = manager.fileExists(atPath: path)
            if let other = existing.definition(key: experiment.key), other.file != path {
                problems.append("experiment '\(experiment.key)' is already defined in \(other.file); remove that file or "
                                + "change the rule's tracking key")
            } else if exists, !options.overwrite {
                problems.append("\(path) already exists; pass --overwrite to replace it")
            }
            let origin = "Imported from \(options.payloadFile) (GrowthBook feature '\(featureKey)', rule \(index)) "
                + "by 'remix import growthbook'."
            let text = ExperimentFileWriter.text(experiment, origin: origin)
            let (definition, parseProblems) = ExperimentFileParser.parse(text, file: path)
            problems += parseProblems.filter { $0.severity == .error }.map { "cannot express the rule: \($0)" }
            if let definition { definitions.append(definition) }
            files.append(.init(path: path, text: text, replaces: exists))
        }
        var slotRules = existing.slotRules.filter { $0.app != options.app || $0.slot != options.slot }
        let keepsOrder = Self.needsRulesFile(rules, definitions)
        if keepsOrder, let file = rulesFile(rules, existing: existing, &problems) {
            let (parsed, parseProblems) = SlotRules.parse(file.text, file: file.path)
            problems += parseProblems.filter { $0.severity == .error }.map { "cannot express the rules: \($0)" }
            if let parsed { slotRules.append(parsed) }
            files.append(file)
        } else if !keepsOrder {
            slotRules += existing.slotRules.filter { $0.app == options.app && $0.slot == options.slot }
        }
        let newPaths = Set(files.map(\.path))
        var groups = existing.savedGroups
        let forced = rules.compactMap { if case .force(let rule) = $0 { rule.condition } else { nil } }
        let added = savedGroups(used: experiments.compactMap(\.0.condition) + forced, existing: existing.savedGroups, &problems)
        groups.merge(added) { _, new in new }
        let groupsPath = (folder as NSString).appendingPathComponent(ExperimentSet.savedGroupsFile)
        if !added.isEmpty {
            files.append(savedGroupsFile(groupsPath, adding: added))
        }
        if !problems.isEmpty {
            throw InteropError(file: options.payloadFile, problems: problems, conclusion: "nothing was written")
        }
        let kept = existing.definitions.filter { !newPaths.contains($0.file) }
        let diagnostics = ExperimentValidator(registry: registry)
            .validate(ExperimentSet(definitions: kept + definitions, savedGroups: groups, slotRules: slotRules))
            .filter { diagnostic in
                newPaths.contains(diagnostic.location.file) || newPaths.contains { diagnostic.message.contains($0) }
            }
        let errors = diagnostics.filter { $0.severity == .error }
        if !errors.isEmpty {
            throw InteropError(
                file: options.payloadFile,
                problems: ["the experiment files it gives would not validate:"] + errors.map { "  \($0)" },
                conclusion: overlapHint(errors) + "nothing was written")
        }
        notes += diagnostics.map { "\($0)" }
        return GrowthBookImport(featureKey: featureKey, experiments: experiments.map(\.0), rules: keepsOrder ? rules : [],
                                files: files, notes: notes)
    }

    /// Whether the feature's order must be kept in a slot rules file: it has force rules, or two
    /// of its experiments can include the same session (the first rule then wins, as in GrowthBook).
    static func needsRulesFile(_ rules: [ImportedRule], _ definitions: [ExperimentDefinition]) -> Bool {
        if rules.contains(where: { if case .force = $0 { true } else { false } }) { return true }
        let live = definitions.filter(\.isLive)
        let check = SlotOverlapCheck()
        return NamespaceSlices(live, check: check).unseparatedPairs().contains { a, b in !check.exclusive(live[a], live[b]) }
    }

    /// The slot rules file `<app>.<slot>.rules.yaml` holding `rules`; nil with a problem when the
    /// slot's rules are in another file, or the file is there and `--overwrite` is not given.
    private func rulesFile(_ rules: [ImportedRule], existing: ExperimentSet,
                           _ problems: inout [String]) -> GrowthBookImport.PlannedFile? {
        let path = (options.outputFolder as NSString).appendingPathComponent("\(options.app).\(options.slot)\(SlotRules.suffix)")
        let exists = FileManager.default.fileExists(atPath: path)
        if let other = existing.slotRules.first(where: { $0.app == options.app && $0.slot == options.slot && $0.file != path }) {
            problems.append("the rules of \(options.app)/\(options.slot) are in \(other.file) already; remove that file (or "
                            + "put the feature's rules into it by hand)")
            return nil
        }
        if exists, !options.overwrite {
            problems.append("\(path) already exists; pass --overwrite to replace it")
            return nil
        }
        let origin = "Imported from \(options.payloadFile) (GrowthBook feature '\(featureKey)') by 'remix import growthbook': "
            + "its rules in order, the first that applies filling the slot."
        return .init(path: path, text: SlotRulesFileWriter.text(rules, app: options.app, slot: options.slot, origin: origin),
                     replaces: exists)
    }

    /// The saved groups the conditions use that the folder does not have yet, from the payload.
    private func savedGroups(used conditions: [AttributeValue], existing: [String: AttributeValue],
                             _ problems: inout [String]) -> [String: AttributeValue] {
        var added: [String: AttributeValue] = [:]
        for name in GrowthBookExport.usedGroups(in: conditions).sorted() {
            guard let values = payloadGroupValues(name) else {
                problems.append(payloadGroups[name] == nil
                                ? "a condition uses the saved group '\(name)', which the payload's savedGroups do not hold"
                                : "the saved group '\(name)' is not a list of values; Remix's saved groups are lists")
                continue
            }
            if let known = existing[name] {
                if known != values {
                    problems.append("the saved group '\(name)' of \(options.outputFolder)/\(ExperimentSet.savedGroupsFile) "
                                    + "holds other values than the payload's; make them agree first")
                }
                continue
            }
            added[name] = values
        }
        return added
    }

    /// A payload saved group's values: a plain list, or a `{"type": "list", "values": […]}` group.
    private func payloadGroupValues(_ name: String) -> AttributeValue? {
        switch payloadGroups[name] {
        case .array(let values)?: return .array(values)
        case .object(let fields)? where fields["type"] == "list":
            if case .array(let values)? = fields["values"] { return .array(values) }
            return nil
        default: return nil
        }
    }

    /// The saved groups file with `added` appended (its comments kept), or a new one.
    private func savedGroupsFile(_ path: String, adding added: [String: AttributeValue]) -> GrowthBookImport.PlannedFile {
        let lines = ["# Imported from \(options.payloadFile) by 'remix import growthbook'."]
            + ExperimentFileWriter.savedGroupLines(added)
        guard let old = try? String(contentsOfFile: path, encoding: .utf8) else {
            let header = "# Saved groups for `$inGroup` / `$notInGroup` conditions: name → the attribute values in the group."
            return .init(path: path, text: ([header] + lines).joined(separator: "\n") + "\n", replaces: false)
        }
        let separator = old.isEmpty || old.hasSuffix("\n") ? "" : "\n"
        return .init(path: path, text: old + separator + lines.joined(separator: "\n") + "\n", replaces: true)
    }

    private func overlapHint(_ errors: [Diagnostic]) -> String {
        guard errors.contains(where: { $0.message.contains("can assign the same session") }) else { return "" }
        return "GrowthBook lets the first rule that includes a session win; Remix needs the experiments on one slot "
            + "to be mutually exclusive unless its rules file lists them in order: put the rules in one namespace with "
            + "disjoint ranges in GrowthBook, or list the folder's experiments in the slot's rules file; "
    }
}
