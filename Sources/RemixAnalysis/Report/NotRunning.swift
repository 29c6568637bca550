import Foundation
import RemixExperiments

/// An experiment of the experiment files that is not in a log (or had no exposure in a run), and why.
package struct NotRunning: Sendable, Equatable, CustomStringConvertible {
    package var key: String
    package var reason: String

    package init(key: String, reason: String) {
        self.key = key
        self.reason = reason
    }

    /// `KEY: reason`, as JSON's `notRunning` lists it.
    package var description: String { "\(key): \(reason)" }

    /// Why `definition` does not run at `date` in a log or run of `apps`: its status, `active:
    /// false`, a first phase or schedule that does not cover `date`, or another app (`app
    /// marketplace, not calculator`); nil when nothing in its file keeps it out (`apps` empty: the
    /// apps are not known).
    package static func reason(_ definition: ExperimentDefinition, at date: Date, apps: Set<String>) -> String? {
        if definition.experiment.status != .running { return "status \(definition.experiment.status.rawValue)" }
        if !definition.isLive { return "inactive (active: false)" }
        if !apps.isEmpty, !apps.contains(definition.app) {
            return "app \(definition.app), not \(apps.sorted().joined(separator: " or "))"
        }
        let format = { (date: Date) in date.formatted(.iso8601) }
        if let first = definition.phases.first, date < first.start, definition.schedule?.contains(date) ?? true {
            return "its first phase starts \(format(first.start))"
        }
        guard let schedule = definition.schedule, !schedule.contains(date) else { return nil }
        if let start = schedule.start, date < start { return "scheduled from \(format(start))" }
        return "its schedule ended \(schedule.end.map(format) ?? "")"
    }
}
