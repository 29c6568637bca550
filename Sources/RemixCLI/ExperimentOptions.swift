import ArgumentParser
import Foundation
import RemixExperiments
import RemixKit

/// Options shared by commands that evaluate experiments for a session.
struct SessionAttributeOptions: ParsableArguments {
    @Option(help: "Session attributes as a JSON object, e.g. '{\"id\":\"u1\",\"platform\":\"tablet\",\"appVersion\":\"2.1\"}'.")
    var attributes: String = "{}"

    @Option(help: "The time the session happens, for experiment schedules (RFC 3339 or YYYY-MM-DD; default: now).")
    var at: String?

    /// The parsed attributes; a bad value is reported and exits 1.
    func parsedAttributes() throws -> [String: AttributeValue] {
        guard let value = try? AttributeValue.parse(json: attributes), case .object(let object) = value else {
            printError("--attributes must be a JSON object, e.g. '{\"id\":\"u1\",\"country\":\"GB\"}' (got \(attributes))")
            throw ExitCode(1)
        }
        return object
    }

    /// The session time; a bad value is reported and exits 1.
    func date() throws -> Date {
        guard let at else { return Date() }
        guard let date = DateParsing.parse(at) else {
            printError("--at must be a date like 2026-12-01 or 2026-12-01T09:00:00Z (got \(at))")
            throw ExitCode(1)
        }
        return date
    }
}

/// Loads and validates the experiments in `paths`; errors are printed and exit 1.
func loadExperiments(paths: [String], registry: FeatureRegistry) throws -> ExperimentSet {
    let validation = ExperimentValidation.run(paths: paths, registry: registry)
    for problem in validation.diagnostics { printError(problem.description, prefix: false) }
    if validation.errorCount > 0 {
        printError("the experiments have \(validation.errorCount) error(s); fix them (see 'remix validate')")
        throw ExitCode(1)
    }
    return validation.experiments
}
