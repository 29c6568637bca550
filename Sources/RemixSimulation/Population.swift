import RemixKit

/// Who the simulated users are and how the services behave: the contents of a population file.
public struct Population: Sendable {
    /// The longest time one action may take (think, typing a character, a service's latency):
    /// one day. Larger values are refused when the file is read.
    public static let maximumActionSeconds: Double = 86_400
    /// The longest gap between the starts of consecutive sessions: 366 days.
    public static let maximumSessionGapSeconds: Double = 366 * 86_400

    /// A range of seconds on the virtual clock, sampled uniformly.
    public struct Seconds: Sendable, Equatable {
        public var min: Double
        public var max: Double

        /// Makes a range (a single value when `min == max`).
        public init(min: Double, max: Double) {
            self.min = min
            self.max = max
        }

        /// A sample in milliseconds.
        func sampleMilliseconds(_ random: inout SeededGenerator) -> Int64 {
            let unit = Double(random.next() >> 11) * 0x1.0p-53
            return Int64(((min + (max - min) * unit) * 1000).rounded())
        }
    }

    /// A weighted choice among values.
    public struct Distribution: Sendable, Equatable {
        public var values: [String]
        public var weights: [Double]

        /// Picks a value.
        func sample(_ random: inout SeededGenerator) -> String {
            let total = weights.reduce(0, +)
            var point = Double(random.next() >> 11) * 0x1.0p-53 * total
            for (value, weight) in zip(values, weights) {
                if point < weight { return value }
                point -= weight
            }
            return values.last ?? ""
        }
    }

    /// A kind of user: how likely they are to do each thing, and how fast.
    public struct Persona: Sendable, Equatable {
        public var name: String
        public var weight: Double
        /// Chance to tap "New advert".
        public var startInsertion: Double
        /// Chance to open an advert before anything else.
        public var browseFirst: Double
        /// Chance to filter the list before anything else.
        public var filterFirst: Double
        /// Chance to give up on each kind of screen (`adverts`, `groups`, `title`, `item`, …).
        public var abandon: [String: Double]
        /// Time between two actions.
        public var think: Seconds
        /// Time per typed character.
        public var typingPerCharacter: Seconds
        /// Chance to tap Next again after a failed publish.
        public var retryAfterFailure: Double
    }

    /// An advert a user means to publish, with the group it truly belongs to (as the path of group
    /// titles a person would tap through).
    public struct IntendedAdvert: Sendable, Equatable {
        public var title: String
        public var groupPath: [String]
    }

    /// How the app's services behave during the simulation.
    public struct Services: Sendable, Equatable {
        /// Chance that a publish fails on the service side.
        public var publishFailureRate: Double
        /// How long a group recommendation takes.
        public var recommendationLatency: Seconds
    }

    /// The app simulated by default.
    public var app: String
    /// When the first session starts, in milliseconds since the epoch.
    public var startMilliseconds: Int64
    /// Virtual time between the starts of consecutive sessions.
    public var sessionGapMilliseconds: Int64
    /// Session attributes: name → distribution (the `id` attribute is the simulated user's id).
    public var attributes: [(name: String, distribution: Distribution)]
    /// The kinds of users.
    public var personas: [Persona]
    /// What users mean to publish.
    public var adverts: [IntendedAdvert]
    /// Service behaviour.
    public var services: Services
}

extension Population {
    /// An upper bound, in seconds, of one session's virtual duration when it takes at most `steps`
    /// steps: each step thinks, may type the longest title, may wait for a recommendation, and
    /// may wait up to a minute more for a timed screen (a toast).
    func longestSessionSeconds(steps: Int) -> Double {
        let longestTitle = Double(adverts.map(\.title.count).max() ?? 0)
        let slowestStep = personas.map { $0.think.max + $0.typingPerCharacter.max * longestTitle }.max() ?? 0
        return Double(steps) * (slowestStep + services.recommendationLatency.max + 60)
    }
}
