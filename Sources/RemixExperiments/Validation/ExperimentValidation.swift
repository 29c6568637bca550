import RemixKit
import RemixYAML

/// Loads and validates experiment files in one go: what `remix validate` and every command that
/// runs experiments do first.
package struct ExperimentValidation {
    /// The experiments that could be read.
    package let experiments: ExperimentSet
    /// Every problem, parse and validation alike, sorted by position.
    package let diagnostics: [Diagnostic]
    /// The problems of files that could not be read at all (YAML that does not parse): when there
    /// is any, they are the only diagnostics, since the rest would be their cascade.
    package let unreadableFiles: [Diagnostic]

    /// The number of errors.
    package var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }
    /// The number of warnings.
    package var warningCount: Int { diagnostics.count - errorCount }

    /// One line: how many experiments, errors and warnings.
    package var summary: String {
        let count = experiments.definitions.count
        return "\(count) experiment\(count == 1 ? "" : "s"), \(errorCount) error\(errorCount == 1 ? "" : "s"), "
            + "\(warningCount) warning\(warningCount == 1 ? "" : "s")"
    }

    /// The same with `more` problems (found by another layer, e.g. metric keys) among them.
    package func adding(_ more: [Diagnostic]) -> ExperimentValidation {
        ExperimentValidation(experiments: experiments, diagnostics: (diagnostics + more).sorted { $0.location < $1.location },
                             unreadableFiles: unreadableFiles)
    }

    /// The same stopped at files that could not be read at all (`unreadable`, found by another
    /// layer, e.g. a metrics file, and its own): those problems alone.
    package func stopped(at unreadable: [Diagnostic]) -> ExperimentValidation {
        let all = (unreadableFiles + unreadable).sorted { $0.location < $1.location }
        return ExperimentValidation(experiments: experiments, diagnostics: all, unreadableFiles: all)
    }

    /// Reads `paths` and validates what they hold against `registry`; a file that cannot be read
    /// at all stops there, reported alone.
    package static func run(paths: [String], registry: FeatureRegistry) -> ExperimentValidation {
        let (experiments, parseProblems) = ExperimentSet.load(paths: paths)
        let unreadable = ExperimentSet.unreadableFiles(paths: paths).sorted { $0.location < $1.location }
        guard unreadable.isEmpty else {
            return ExperimentValidation(experiments: experiments, diagnostics: unreadable, unreadableFiles: unreadable)
        }
        let problems = parseProblems + ExperimentValidator(registry: registry).validate(experiments)
        return ExperimentValidation(experiments: experiments, diagnostics: problems.sorted { $0.location < $1.location },
                                    unreadableFiles: [])
    }
}
