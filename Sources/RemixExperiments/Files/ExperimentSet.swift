import Foundation
import RemixFormats
import RemixKit
import RemixYAML

/// The experiments a host runs: every experiment file of a folder (or the files named), sorted by
/// key, plus the saved groups that conditions can refer to with `$inGroup`.
package struct ExperimentSet: Sendable {
    /// The file name that holds saved groups instead of an experiment.
    package static let savedGroupsFile = "saved-groups.yaml"
    /// The file name that holds metric definitions (read by the analysis) instead of an experiment.
    package static let metricsFile = "metrics.yaml"
    /// Files ending so hold a simulation population, not an experiment, and are skipped.
    package static let populationSuffix = "population.yaml"

    /// The experiments, sorted by key.
    package let definitions: [ExperimentDefinition]
    /// Saved groups: name → list of attribute values.
    package let savedGroups: [String: AttributeValue]
    /// The experiments on each slot of each app, in key order (looked up for every session): a
    /// list, as the registered apps have few slots and comparing names costs less than hashing;
    /// `slotIndex` finds them when there are many (a set of files naming unknown apps), else it
    /// is empty.
    private let bySlot: [(app: String, slot: String, definitions: [ExperimentDefinition])]
    private let slotIndex: [String: [String: Int]]
    /// The slots' rules files (``SlotRules``), in file order.
    package let slotRules: [SlotRules]

    /// Makes a set.
    package init(definitions: [ExperimentDefinition], savedGroups: [String: AttributeValue] = [:], slotRules: [SlotRules] = []) {
        self.definitions = definitions.sorted { $0.key < $1.key }
        self.savedGroups = savedGroups
        self.slotRules = slotRules
        var bySlot: [(app: String, slot: String, definitions: [ExperimentDefinition])] = []
        var slotIndex: [String: [String: Int]] = [:]
        for definition in self.definitions {
            if let index = slotIndex[definition.app]?[definition.slot] {
                bySlot[index].definitions.append(definition)
            } else {
                slotIndex[definition.app, default: [:]][definition.slot] = bySlot.count
                bySlot.append((definition.app, definition.slot, [definition]))
            }
        }
        self.bySlot = bySlot
        self.slotIndex = bySlot.count > Self.listedSlots ? slotIndex : [:]
    }

    /// The rules of `slot` of `app`, when a rules file gives them (the first, if several do).
    /// The `$regex` and `$regexi` patterns of every condition in the set: the experiments' (their
    /// phases share them) and the slot rules files' force rules'.
    package var regexPatterns: Set<RegexBudget.Pattern> {
        var conditions = definitions.compactMap { $0.experiment.condition?.source }
        for rules in slotRules {
            for rule in rules.rules {
                if case .force(_, _, let rule, _) = rule, let condition = rule.condition { conditions.append(condition.source) }
            }
        }
        return conditions.reduce(into: Set()) { $0.formUnion(RegexBudget.patterns(in: $1)) }
    }

    package func rules(app: String, slot: String) -> SlotRules? {
        slotRules.isEmpty ? nil : slotRules.first { $0.app == app && $0.slot == slot }
    }

    /// The experiments that fill `slot` of `app`, in key order.
    package func definitions(app: String, slot: String) -> [ExperimentDefinition] {
        guard slotIndex.isEmpty else { return slotIndex[app]?[slot].map { bySlot[$0].definitions } ?? [] }
        return bySlot.first { $0.app == app && $0.slot == slot }?.definitions ?? []
    }

    /// Up to how many slots with experiments are searched in a list rather than a table.
    private static let listedSlots = 16

    /// The experiment with that key.
    package func definition(key: String) -> ExperimentDefinition? { definitions.first { $0.key == key } }

    /// Reads `paths` (files, or folders whose `*.yaml` files are read). Problems of every file are
    /// returned together; a file with a problem that prevents reading it is left out of the set.
    /// A path that does not exist is one of the problems (see ``pathProblem(_:)``).
    package static func load(paths: [String]) -> (ExperimentSet, [Diagnostic]) {
        var problems: [Diagnostic] = []
        var definitions: [ExperimentDefinition] = []
        var savedGroups: [String: AttributeValue] = [:]
        var slotRules: [SlotRules] = []
        for file in expand(paths, problems: &problems) where (file as NSString).lastPathComponent != metricsFile {
            let text: String
            do {
                text = try YAMLFile.read(file)
            } catch {
                problems.append(error)
                continue
            }
            if (file as NSString).lastPathComponent == savedGroupsFile {
                do {
                    savedGroups.merge(try parseSavedGroups(text, file: file)) { _, new in new }
                } catch {
                    problems.append(error)
                }
                continue
            }
            if file.hasSuffix(SlotRules.suffix) {
                let (rules, fileProblems) = SlotRules.parse(text, file: file)
                problems += fileProblems
                if let rules { slotRules.append(rules) }
                continue
            }
            let (definition, fileProblems) = ExperimentFileParser.parse(text, file: file)
            problems += fileProblems
            if let definition { definitions.append(definition) }
        }
        return (ExperimentSet(definitions: definitions, savedGroups: savedGroups, slotRules: slotRules), problems)
    }

    /// The files of `paths` that cannot be read at all: unreadable, or YAML that does not parse.
    /// What follows from a file left out (a saved group, an experiment or a metric that seems
    /// missing) is a cascade, so these are reported alone.
    package static func unreadableFiles(paths: [String]) -> [Diagnostic] {
        var ignored: [Diagnostic] = []
        return expand(paths, problems: &ignored).filter { ($0 as NSString).lastPathComponent != metricsFile }.compactMap { file in
            do throws(Diagnostic) {
                _ = try YAMLValue.parse(try YAMLFile.read(file), file: file)
                return nil
            } catch {
                return error
            }
        }
    }

    /// Why `path` cannot hold experiments — it does not exist, or is neither a file nor a folder
    /// (a symbolic link loop, …) — or nil when it is a file or a folder. Callers that must not go
    /// on without experiments check this first.
    package static func pathProblem(_ path: String) -> Diagnostic? {
        let start = SourceLocation(file: path, line: 1, column: 1)
        switch YAMLFile.kind(of: path) {
        case .file, .folder:
            return nil
        case .missing:
            return Diagnostic(start, .error, "no such file or folder; give the experiments folder "
                              + "(default: experiments) or an experiment file")
        case .unusable(let why):
            return Diagnostic(start, .error, "cannot read experiments here: \(why)")
        }
    }

    private static func expand(_ paths: [String], problems: inout [Diagnostic]) -> [String] {
        var files: [String] = []
        var seen: Set<String> = []
        func add(_ file: String, first: Bool = false) {
            guard seen.insert(file).inserted else { return }
            if first { files.insert(file, at: 0) } else { files.append(file) }
        }
        for path in paths {
            if let problem = pathProblem(path) {
                problems.append(problem)
                continue
            }
            guard YAMLFile.kind(of: path) == .folder else {
                // A file named alone still sees the saved groups beside it.
                let beside = (PathText.folder(of: path) as NSString)
                    .appendingPathComponent(savedGroupsFile)
                if (path as NSString).lastPathComponent != savedGroupsFile, YAMLFile.kind(of: beside) == .file {
                    add(beside, first: true)
                }
                add(path)
                continue
            }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: path)
            } catch {
                problems.append(Diagnostic(SourceLocation(file: path, line: 1, column: 1), .error,
                                           "cannot list this folder: permission denied or unreadable"))
                continue
            }
            for name in names.filter({ ($0.hasSuffix(".yaml") || $0.hasSuffix(".yml")) && !$0.hasSuffix(populationSuffix) })
                .sorted() {
                add((path as NSString).appendingPathComponent(name))
            }
        }
        return files
    }

    private static func parseSavedGroups(_ text: String, file: String) throws(Diagnostic) -> [String: AttributeValue] {
        var groups: [String: AttributeValue] = [:]
        for entry in try YAMLValue.parse(text, file: file).mapping("saved groups").entries {
            _ = try entry.value.sequence("saved group '\(entry.key)'")
            groups[entry.key] = try entry.value.attributeValue()
        }
        return groups
    }
}
