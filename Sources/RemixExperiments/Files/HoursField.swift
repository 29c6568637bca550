import RemixKit
import RemixYAML

extension ExperimentFileParser {
    /// The shortest interval a bandit or a rollout may have: one minute. Shorter ones would make
    /// the controller decide (and log) once per few sessions, or — at `1e-300` — loop forever.
    static let fewestHours = 1.0 / 60
    /// The longest: a year of 366 days.
    static let mostHours = 24.0 * 366

    /// Reads `key` of `fields` as a number of hours between one minute and a year; any other
    /// value (non-finite too) is an error at its position.
    static func hours(_ key: String, of fields: YAMLMapping, in what: String) throws(Diagnostic) -> Double {
        let written = try fields.required(key, in: what)
        let hours = try written.double(key)
        guard hours.isFinite, hours >= fewestHours, hours <= mostHours else {
            throw Diagnostic(written.location, .error, "\(key) must be at least one minute (1/60 hour = 0.0167) "
                             + "and at most a year (8784 hours), not \(NumberText.short(hours))")
        }
        return hours
    }
}
