import Foundation
import RemixKit
import RemixYAML

/// The experiments a host runs: every experiment file of a folder (or the files named), sorted by
/// key, plus the saved groups that conditions can refer to with `$inGroup`.
public struct ExperimentSet: Sendable {
    /// The file name that holds saved groups instead of an experiment.
    public static let savedGroupsFile = "saved-groups.yaml"
    /// Files ending so hold a simulation population, not an experiment, and are skipped.
    public static let populationSuffix = "population.yaml"

    /// The experiments, sorted by key.
    public let definitions: [ExperimentDefinition]
    /// Saved groups: name → list of attribute values.
    public let savedGroups: [String: AttributeValue]
    /// The experiments on each `app/slot`, in key order.
    private let bySlot: [String: [ExperimentDefinition]]

    /// Makes a set.
    public init(definitions: [ExperimentDefinition], savedGroups: [String: AttributeValue] = [:]) {
        self.definitions = definitions.sorted { $0.key < $1.key }
        self.savedGroups = savedGroups
        bySlot = Dictionary(grouping: self.definitions) { "\($0.app)/\($0.slot)" }
    }

    /// The experiments that fill `slot` of `app`, in key order.
    public func definitions(app: String, slot: String) -> [ExperimentDefinition] {
        bySlot["\(app)/\(slot)"] ?? []
    }

    /// The experiment with that key.
    public func definition(key: String) -> ExperimentDefinition? { definitions.first { $0.key == key } }

    /// Reads `paths` (files, or folders whose `*.yaml` files are read). Problems of every file are
    /// returned together; a file with a problem that prevents reading it is left out of the set.
    public static func load(paths: [String]) -> (ExperimentSet, [Diagnostic]) {
        var problems: [Diagnostic] = []
        var definitions: [ExperimentDefinition] = []
        var savedGroups: [String: AttributeValue] = [:]
        for file in expand(paths, problems: &problems) {
            let text: String
            do {
                text = try String(contentsOfFile: file, encoding: .utf8)
            } catch {
                problems.append(Diagnostic(SourceLocation(file: file, line: 1, column: 1), .error,
                                           "cannot read the file: \(error.localizedDescription)"))
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
            let (definition, fileProblems) = ExperimentFileParser.parse(text, file: file)
            problems += fileProblems
            if let definition { definitions.append(definition) }
        }
        return (ExperimentSet(definitions: definitions, savedGroups: savedGroups), problems)
    }

    private static func expand(_ paths: [String], problems: inout [Diagnostic]) -> [String] {
        var files: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                problems.append(Diagnostic(SourceLocation(file: path, line: 1, column: 1), .error,
                                           "no such file or folder"))
                continue
            }
            guard isDirectory.boolValue else {
                // A file named alone still sees the saved groups beside it.
                let beside = ((path as NSString).deletingLastPathComponent as NSString)
                    .appendingPathComponent(savedGroupsFile)
                if !files.contains(beside), (path as NSString).lastPathComponent != savedGroupsFile,
                   manager.fileExists(atPath: beside) {
                    files.insert(beside, at: 0)
                }
                files.append(path)
                continue
            }
            let names = (try? manager.contentsOfDirectory(atPath: path)) ?? []
            files += names.filter { ($0.hasSuffix(".yaml") || $0.hasSuffix(".yml")) && !$0.hasSuffix(populationSuffix) }
                .sorted()
                .map { (path as NSString).appendingPathComponent($0) }.filter { !files.contains($0) }
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
