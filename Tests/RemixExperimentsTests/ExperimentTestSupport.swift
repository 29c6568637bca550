import Foundation
import RemixBuiltIns
import RemixExperiments
import RemixHost
import RemixKit
import RemixTestSupport
import RemixYAML
import Testing

/// A fresh temporary folder of experiment files for one test; removed when released.
final class ExperimentFolder {
    private let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    var url: URL { folder.url }
    var path: String { folder.location }

    /// Writes `text` to `name` in the folder (replacing it) and returns the file's path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String { try folder.write(name, text) }

    /// Loads every file of the folder.
    func load() -> (ExperimentSet, [Diagnostic]) { ExperimentSet.load(paths: [path]) }

    /// Loads and validates the folder against the built-in features.
    func validate() throws -> ExperimentValidation {
        ExperimentValidation.run(paths: [path], registry: try BuiltInModules.registry())
    }

    /// `diagnostics` as the CLI prints them, with this folder's path left out.
    func rendered(_ diagnostics: [Diagnostic]) -> [String] {
        diagnostics.map { $0.description.replacingOccurrences(of: path + "/", with: "") }
    }
}

enum Fixture {
    /// The package root.
    static var repoRoot: URL { Repository.root }
    static var shippedExperiments: String { repoRoot.appendingPathComponent("experiments").path }

    /// A valid experiment on marketplace/insertion: `key` on line 1, app 2, slot 3, hashVersion 4,
    /// variations 5 (manual on 6, auto on 7); `extra` starts on line 8.
    static func experiment(_ key: String, app: String = "marketplace", slot: String = "insertion",
                           variations: [String] = ["{key: manual, feature: ManualGroupInsertion}",
                                                   "{key: auto, feature: AutoGroupInsertion}"],
                           _ extra: String = "") -> String {
        """
        key: \(key)
        app: \(app)
        slot: \(slot)
        hashVersion: 2
        variations:
        \(variations.map { "  - \($0)" }.joined(separator: "\n"))
        \(extra)
        """
    }

    /// Parses `text` as `file` and requires that it has no problem.
    static func definition(_ text: String, file: String = "exp.yaml",
                           sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> ExperimentDefinition {
        let (definition, problems) = ExperimentFileParser.parse(text, file: file)
        #expect(problems.isEmpty, "unexpected problems: \(problems)", sourceLocation: sourceLocation)
        return try #require(definition, sourceLocation: sourceLocation)
    }

    /// The first id `user-0`, `user-1`, … for which `accept` holds (ids are searched, not guessed,
    /// so the tests follow the real hash).
    static func userID(limit: Int = 2000, where accept: (String) -> Bool,
                       sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> String {
        let found = (0..<limit).lazy.map { "user-\($0)" }.first(where: accept)
        return try #require(found, "no id among user-0…user-\(limit - 1) qualifies", sourceLocation: sourceLocation)
    }
}

/// Expects exactly one diagnostic at `location` (`file:line:column`, file relative to `folder`
/// when given) with `severity` whose message contains `fragment`.
func expectDiagnostic(
    _ diagnostics: [Diagnostic], at location: String, _ fragment: String, in folder: ExperimentFolder? = nil,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    expectDiagnostic(diagnostics, at: location, .error, fragment, in: folder, sourceLocation: sourceLocation)
}

func expectDiagnostic(
    _ diagnostics: [Diagnostic], at location: String, _ severity: Severity, _ fragment: String,
    in folder: ExperimentFolder? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let prefix = location + ": \(severity.rawValue): "
    let lines = folder.map { $0.rendered(diagnostics) } ?? diagnostics.map(\.description)
    let matching = lines.filter { $0.hasPrefix(prefix) && $0.contains(fragment) }
    #expect(matching.count == 1, "expected one '\(prefix)…\(fragment)…' in:\n\(lines.joined(separator: "\n"))",
            sourceLocation: sourceLocation)
}

/// Records events for assertions.
extension EventRecorder {
    var exposures: [DomainEvent] { events.filter { $0.name == ExposureEvent.name } }
}
