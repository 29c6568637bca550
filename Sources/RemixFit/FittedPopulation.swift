import Foundation
import RemixSimulation

/// A population learned from a log, with where each value comes from: what `remix fit` writes as a
/// population file (``FittedPopulationWriter``) that `remix simulate` runs as it is.
package struct FittedPopulation: Sendable {
    /// A uniform range of seconds, `[min, max]`.
    package struct Range: Sendable, Equatable {
        package var min: Double
        package var max: Double

        /// The uniform range with this mean and standard deviation, kept at `floor` or above.
        static func uniform(mean: Double, sd: Double, floor: Double) -> Range {
            // A range that would reach below `floor` narrows around the mean rather than being
            // cut: cutting only its low end would raise the mean the simulation reproduces.
            let half = Swift.min(3.0.squareRoot() * sd, Swift.max(mean - floor, 0))
            return Range(min: Swift.max(mean - half, floor), max: Swift.max(mean + half, floor))
        }
    }

    /// A time: uniform in a range, or log-normal (skewed) with a median and a 90th percentile.
    package enum Time: Sendable, Equatable {
        case uniform(Range)
        case logNormal(median: Double, p90: Double)

        /// The family that fits samples with this mean and standard deviation and this mean and
        /// standard deviation of their logarithm: the one whose moment-matched form predicts the
        /// observed mean logarithm more closely (a uniform range's mean log is higher than a
        /// skewed time's of the same mean and spread).
        static func fitted(mean: Double, sd: Double, logMean: Double, logSD: Double, floor: Double) -> Time {
            let uniform = Range.uniform(mean: mean, sd: sd, floor: floor)
            let logNormal = Time.logNormal(median: exp(logMean), p90: exp(logMean + 1.2815515655446004 * max(logSD, 1e-3)))
            guard uniform.min > 0, uniform.max > uniform.min else { return uniform.max > 0 && logSD > 0.05 ? logNormal : .uniform(uniform) }
            let a = uniform.min, b = uniform.max
            let uniformLogMean = (b * log(b) - a * log(a)) / (b - a) - 1
            let spread = log(1 + sd * sd / (mean * mean))
            let logNormalLogMean = log(mean) - spread / 2
            return abs(uniformLogMean - logMean) <= abs(logNormalLogMean - logMean) ? .uniform(uniform) : logNormal
        }
    }

    /// An intent as the log shows it.
    package struct Intent: Sendable {
        package var name: String
        package var start: Population.StartAction?
        package var success: String?
        /// Each value, weighed by how often users meant it, with the successes it is seen in.
        package var values: [(texts: [String: [String]], path: [String], weight: Double, successes: Double)]
        package var attempts: Int
        package var successes: Int
        /// Successes whose values are left out, past the most an intent keeps.
        package var valuesLeftOut = 0.0
    }

    /// One persona: a class of users.
    package struct Persona: Sendable {
        package var name: String
        package var weight: Double
        /// Users it stands for.
        package var users: Double
        package var intents: [(name: String, chance: Double, standardError: Double)]
        /// Per screen: chance to give up per step, its standard error, and the steps it comes from.
        package var abandon: [(screen: String, chance: Double, standardError: Double, steps: Double)]
        /// The chance for screens the log never showed (a new flow's): the mean over the steps seen.
        package var defaultAbandon: Double
        package var think: Time
        package var typing: Range?
        package var retryAfterError: Double
        /// Chance that typed text has a slip.
        package var typos: Double
        /// Sessions per user: chance of 1, 2, … sessions.
        package var visits: [Double]
        package var daysBetweenVisits: Range
    }

    package var app: String
    /// The earliest session start in the log (ms since the epoch), and the mean gap between users' first sessions.
    package var startMilliseconds: Int64
    package var sessionGapSeconds: Double
    package var attributes: [(name: String, values: [(value: String, users: Int)])]
    package var services: [(name: String, text: String, note: String)]
    package var intents: [Intent]
    package var personas: [Persona]
    /// Every screen the log showed (those without steps, such as toasts, get no chance to give up).
    package var shownScreens: [String]
    /// Users and sessions the fit read.
    package var users: Int
    package var sessions: Int
    /// How many personas, and how they were chosen.
    package var personaChoice: String
    /// What the log cannot show, each said once (written at the top of the file and on stderr).
    package var unknowns: [String]
    /// Where the population came from (the logs' names).
    package var sources: [String]
    /// The bytes the fit held for each user's numbers (the persona mixture's input).
    package var bytesPerUser = 0
}
