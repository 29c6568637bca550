import RemixKit
import RemixYAML

/// Loads and validates experiment files in one go: what `remix validate` and every command that
/// runs experiments do first.
public struct ExperimentValidation {
    /// The experiments that could be read.
    public let experiments: ExperimentSet
    /// Every problem, parse and validation alike, sorted by position.
    public let diagnostics: [Diagnostic]

    /// The number of errors.
    public var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }
    /// The number of warnings.
    public var warningCount: Int { diagnostics.count - errorCount }

    /// One line: how many experiments, errors and warnings.
    public var summary: String {
        let count = experiments.definitions.count
        return "\(count) experiment\(count == 1 ? "" : "s"), \(errorCount) error\(errorCount == 1 ? "" : "s"), "
            + "\(warningCount) warning\(warningCount == 1 ? "" : "s")"
    }

    /// The same with `more` problems (found by another layer, e.g. metric keys) among them.
    public func adding(_ more: [Diagnostic]) -> ExperimentValidation {
        ExperimentValidation(experiments: experiments, diagnostics: (diagnostics + more).sorted { $0.location < $1.location })
    }

    /// Reads `paths` and validates what they hold against `registry`.
    public static func run(paths: [String], registry: FeatureRegistry) -> ExperimentValidation {
        let (experiments, parseProblems) = ExperimentSet.load(paths: paths)
        let problems = parseProblems + ExperimentValidator(registry: registry).validate(experiments)
        return ExperimentValidation(experiments: experiments, diagnostics: problems.sorted { $0.location < $1.location })
    }
}
