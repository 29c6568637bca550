import Foundation
import RemixLogReader

/// How the users of a log behave, per experiment variation and over all: how long sessions last,
/// how many steps they take, how often users come back and after how long, and how long they stay
/// on each screen — what the fidelity report (``FidelityReport``) sets side by side for a real log
/// and a simulated one. Memory holds one summary per user and fixed histograms, never the events.
package struct LogProfile: Sendable {
    /// A distribution kept as counts in logarithmic bins (1 % wide), enough for KS distances.
    package struct Histogram: Sendable, Equatable {
        /// Bins from `lowest` up, each 1 % wider than the last.
        private(set) var counts: [Int]
        package private(set) var total = 0
        package private(set) var sum = 0.0
        static let lowest = 0.001
        static let growth = log(1.01)
        static let bins = 2_200

        init() {
            counts = Array(repeating: 0, count: Self.bins)
        }

        mutating func add(_ value: Double) {
            let bin = value <= Self.lowest ? 0 : min(Self.bins - 1, Int(log(value / Self.lowest) / Self.growth) + 1)
            counts[bin] += 1
            total += 1
            sum += value
        }

        /// The mean of what was added.
        package var mean: Double { total > 0 ? sum / Double(total) : 0 }

        /// The largest distance between the two cumulative distributions (Kolmogorov–Smirnov).
        package func distance(to other: Histogram) -> Double {
            guard total > 0, other.total > 0 else { return total == other.total ? 0 : 1 }
            var a = 0, b = 0, largest = 0.0
            for bin in 0..<Self.bins {
                a += counts[bin]
                b += other.counts[bin]
                largest = max(largest, abs(Double(a) / Double(total) - Double(b) / Double(other.total)))
            }
            return largest
        }

        /// The value below which `share` of the samples lie (a bin's upper edge).
        package func quantile(_ share: Double) -> Double {
            guard total > 0 else { return 0 }
            var seen = 0
            for bin in 0..<Self.bins {
                seen += counts[bin]
                if Double(seen) >= share * Double(total) { return Self.lowest * exp(Double(bin) * Self.growth) }
            }
            return Self.lowest * exp(Double(Self.bins) * Self.growth)
        }
    }

    /// What is measured for one group of users (a variation, or everyone).
    package struct Group: Sendable {
        package var users = 0
        package var sessions = 0
        /// Session length in seconds (first event to `session_ended`).
        package var duration = Histogram()
        /// Screen changes per session.
        package var steps = Histogram()
        /// Days between the starts of a user's consecutive sessions.
        package var daysBetweenVisits = Histogram()
        /// Seconds from showing each screen (name without context) to the next screen change.
        package var dwell: [String: Histogram] = [:]
    }

    /// Everyone in the log.
    package var all = Group()
    /// Per experiment, per variation key.
    package var variations: [String: [String: Group]] = [:]

    /// Reads `paths` once. A user's sessions count toward a variation from the session in which
    /// they were first exposed to it on (as the analysis counts events after exposure).
    package static func read(paths: [String]) throws -> LogProfile {
        let reader = LogProfileReader()
        _ = try EventLineReader.read(paths: paths, visitor: reader)
        reader.finish()
        return reader.profile
    }
}

extension LogProfile.Group {
    mutating func add(_ session: ProfiledSession, newUser: Bool, gap: Double?) {
        if newUser { users += 1 }
        sessions += 1
        if let gap { daysBetweenVisits.add(abs(gap)) }
        let end = session.end ?? session.lastEvent ?? session.start
        duration.add(Double(end - session.start) / 1000)
        var shown: (name: String, time: Int64)?
        for screen in session.screens {
            if let shown { dwell[shown.name, default: LogProfile.Histogram()].add(Double(screen.time - shown.time) / 1000) }
            shown = screen
        }
        steps.add(Double(session.screens.count))
    }
}

