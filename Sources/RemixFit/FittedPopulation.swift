import Foundation
import RemixSimulation

/// A population learned from a log, with where each value comes from: what `remix fit` writes as a
/// population file (``FittedPopulationWriter``) that `remix simulate` runs as it is.
public struct FittedPopulation: Sendable {
    /// A uniform range of seconds, `[min, max]`.
    public struct Range: Sendable, Equatable {
        public var min: Double
        public var max: Double

        /// The uniform range with this mean and standard deviation, kept at `floor` or above.
        static func uniform(mean: Double, sd: Double, floor: Double) -> Range {
            // A range that would reach below `floor` narrows around the mean rather than being
            // cut: cutting only its low end would raise the mean the simulation reproduces.
            let half = Swift.min(3.0.squareRoot() * sd, Swift.max(mean - floor, 0))
            return Range(min: Swift.max(mean - half, floor), max: Swift.max(mean + half, floor))
        }
    }

    /// A time: uniform in a range, or log-normal (skewed) with a median and a 90th percentile.
    public enum Time: Sendable, Equatable {
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
    public struct Intent: Sendable {
        public var name: String
        public var start: Population.StartAction?
        public var success: String?
        /// Each value, weighed by how often users meant it, with the successes it is seen in.
        public var values: [(texts: [String: [String]], path: [String], weight: Double, successes: Double)]
        public var attempts: Int
        public var successes: Int
    }

    /// One persona: a class of users.
    public struct Persona: Sendable {
        public var name: String
        public var weight: Double
        /// Users it stands for.
        public var users: Double
        public var intents: [(name: String, chance: Double, standardError: Double)]
        /// Per screen: chance to give up per step, its standard error, and the steps it comes from.
        public var abandon: [(screen: String, chance: Double, standardError: Double, steps: Double)]
        /// The chance for screens the log never showed (a new flow's): the mean over the steps seen.
        public var defaultAbandon: Double
        public var think: Time
        public var typing: Range?
        public var retryAfterError: Double
        /// Chance that typed text has a slip.
        public var typos: Double
        /// Sessions per user: chance of 1, 2, … sessions.
        public var visits: [Double]
        public var daysBetweenVisits: Range
    }

    public var app: String
    /// The earliest session start in the log (ms since the epoch), and the mean gap between users' first sessions.
    public var startMilliseconds: Int64
    public var sessionGapSeconds: Double
    public var attributes: [(name: String, values: [(value: String, users: Int)])]
    public var services: [(name: String, text: String, note: String)]
    public var intents: [Intent]
    public var personas: [Persona]
    /// Every screen the log showed (those without steps, such as toasts, get no chance to give up).
    public var shownScreens: [String]
    /// Users and sessions the fit read.
    public var users: Int
    public var sessions: Int
    /// How many personas, and how they were chosen.
    public var personaChoice: String
    /// What the log cannot show, each said once (written at the top of the file and on stderr).
    public var unknowns: [String]
    /// Where the population came from (the logs' names).
    public var sources: [String]
    /// The bytes the fit held for each user's numbers (the persona mixture's input).
    public var bytesPerUser = 0
}
