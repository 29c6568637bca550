import Foundation
import RemixKit
import RemixYAML

/// Who the simulated users are, what they come to do and how the app's services behave: the
/// contents of a population file. Nothing in it is specific to an app: intents name field
/// purposes, row values, button roles and domain events, which every app's screens declare.
package struct Population: Sendable {
    /// The longest time one action may take (think, typing a character, a service's latency):
    /// one day. Larger values are refused when the file is read.
    package static let maximumActionSeconds: Double = 86_400
    /// The longest gap between the starts of consecutive users' first sessions: 366 days.
    package static let maximumSessionGapSeconds: Double = 366 * 86_400
    /// The most sessions one user makes.
    package static let maximumVisits = 100

    /// A time in seconds on the virtual clock: uniform in `[min, max]`, or log-normal (skewed, as
    /// people's times are) with a median and a 90th percentile.
    package struct Seconds: Sendable, Equatable {
        /// How samples spread.
        package enum Shape: Sendable, Equatable {
            /// Uniform in `[min, max]`.
            case uniform
            /// Log-normal: half the samples below `median`, nine in ten below `p90` (kept within
            /// `[min, max]`, which bound the samples).
            case logNormal(median: Double, p90: Double)
        }

        package var min: Double
        package var max: Double
        package var shape: Shape = .uniform

        /// Makes a range (a single value when `min == max`).
        package init(min: Double, max: Double) {
            self.min = min
            self.max = max
        }

        /// A log-normal time with this median and 90th percentile, its samples kept at most `limit`.
        package init(median: Double, p90: Double, limit: Double) {
            min = 0
            // Bounds for the run's checks: where 1 sample in 10⁴ would lie, within the limit.
            max = Swift.min(limit, median * exp(3.719 * Self.sigma(median: median, p90: p90)))
            shape = .logNormal(median: median, p90: p90)
        }

        /// The log-normal's σ: ln(p90 / median) over the standard normal's 90th percentile.
        static func sigma(median: Double, p90: Double) -> Double { log(p90 / median) / 1.2815515655446004 }

        /// A sample in milliseconds.
        func sampleMilliseconds(_ random: inout SeededGenerator) -> Int64 {
            switch shape {
            case .uniform:
                if min == max { return Int64((min * 1000).rounded()) }
                let unit = Double(random.next() >> 11) * 0x1.0p-53
                return Int64(((min + (max - min) * unit) * 1000).rounded())
            case .logNormal(let median, let p90):
                // Box–Muller: two uniform draws make one standard normal.
                let u1 = (Double(random.next() >> 11) + 1) * 0x1.0p-53
                let u2 = Double(random.next() >> 11) * 0x1.0p-53
                let z = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
                let seconds = Swift.min(Swift.max(median * exp(Self.sigma(median: median, p90: p90) * z), min), max)
                return Int64((seconds * 1000).rounded())
            }
        }
    }

    /// A weighted choice among values.
    package struct Distribution: Sendable, Equatable {
        package var values: [String]
        package var weights: [Double] { didSet { draw = WeightedDraw(weights) } }
        /// The weights prepared for drawing (every user draws each attribute).
        private var draw: WeightedDraw

        package init(values: [String], weights: [Double]) {
            self.values = values
            self.weights = weights
            draw = WeightedDraw(weights)
        }

        /// Picks a value's index.
        func sampleIndex(_ random: inout SeededGenerator) -> Int {
            draw.pick(&random)
        }

        /// Picks a value.
        func sample(_ random: inout SeededGenerator) -> String {
            values.isEmpty ? "" : values[sampleIndex(&random)]
        }
    }

    /// What a user comes to do, as data: how it begins, what it fills and picks, and how the user
    /// knows it worked.
    package struct Intent: Sendable {
        /// The intent's name, used by personas and in the summary.
        package var name: String
        /// How it begins on the app's first screen; nil: it begins there without an action (the
        /// first screen already serves it, e.g. a calculator's entry form).
        package var start: StartAction?
        /// The domain event that means the intent is achieved; nil: achieved once the user is back
        /// on the first screen after beginning (e.g. looking at an item, filtering).
        package var success: Located<String>?
        /// Whether rows the intent's path does not name are picked by chance (e.g. filtering by
        /// any group); otherwise the row closest to the path is picked.
        package var chooseAny: Bool
        /// What the user means, one set drawn per attempt by weight.
        package var values: [IntentValues]
        /// What the user looks for after success.
        package var check: SuccessCheck?
        /// Where the intent is written.
        package var location: SourceLocation
    }

    /// How an intent begins on the first screen.
    package enum StartAction: Sendable, Equatable {
        /// Press a button with this role or id.
        case press(ButtonTarget)
        /// Select a row of this kind, picked by chance (any kind when nil).
        case select(ItemKind?)
    }

    /// A button as a population names it: by role (`primary`, `submit`, …) or by id.
    package enum ButtonTarget: Sendable, Equatable, CustomStringConvertible {
        case role(ButtonRole)
        case id(String)

        /// Reads a role name, or else an id.
        init(_ text: String) {
            self = ButtonRole(rawValue: text).map(ButtonTarget.role) ?? .id(text)
        }

        func matches(_ button: ScreenButton) -> Bool {
            switch self {
            case .role(let role): button.role == role
            case .id(let id): button.id == id
            }
        }

        package var description: String {
            switch self {
            case .role(let role): role.rawValue
            case .id(let id): id
            }
        }
    }

    /// One thing a user may mean by an intent: texts by field purpose and a path of row values.
    package struct IntentValues: Sendable, Equatable {
        /// Field purpose → the texts to type into fields of that purpose, in screen order.
        package var texts: [String: [String]]
        /// Row values to pick, from the top level down (e.g. group titles).
        package var path: [String]
        /// How often this set is drawn, relative to the others.
        package var weight: Double
    }

    /// After success: the row titled with one of the intent's texts should show another value in
    /// its detail; when it does not, the user notices and `event` is logged.
    package struct SuccessCheck: Sendable, Equatable {
        /// The purpose whose (first) text is the row's title.
        package var row: String
        /// The purpose whose (first) text the row's detail should be; `path` means the path's last step.
        package var detail: String
        /// The event logged when the detail differs, with fields `shownIn` and `intended`.
        package var event: Located<String>
    }

    /// A kind of user: what they come to do and how they behave on the way.
    package struct Persona: Sendable {
        package var name: String
        package var weight: Double
        /// Intents in the order tried, each by its chance (indices into ``Population/intents``).
        package var intents: [(intent: Int, chance: Double)]
        /// Chance to give up on each step of a screen, by screen name.
        package var abandon: [String: Double]
        /// Where each screen name of `abandon` is written.
        package var abandonLocations: [String: SourceLocation]
        /// Chance to give up on screens `abandon` does not name.
        package var abandonElsewhere: Double
        /// Time between two actions.
        package var think: Seconds
        /// Time per typed character.
        package var typingPerCharacter: Seconds
        /// Chance that a typed text has a slip (one stray letter).
        package var typos: Double
        /// Chance to try again after an error (the screen did not move on and no success).
        package var retryAfterError: Double
        /// Buttons pressed to go forward on a complete screen, in order of preference.
        package var prefer: [ButtonTarget]
        /// Sessions per user, drawn uniformly (or by ``visitWeights``).
        package var visits: ClosedRange<Int>
        /// The chance of each number of sessions from `visits.lowerBound` up (nil: uniform).
        package var visitWeights: [Double]? = nil
        /// Days between a user's sessions.
        package var daysBetweenVisits: Seconds
        /// Routes some sessions arrive through (a link), each with its share of the sessions; the
        /// rest start at the app's first screen.
        package var arrivals: [Arrival] = []
    }

    /// A way into the app other than its first screen: a navigation state opened as a link would.
    package struct Arrival: Sendable {
        package var route: Route
        /// The share of the persona's sessions that arrive this way.
        package var share: Double
        package var location: SourceLocation
    }

    /// The app simulated by default.
    package var app: String
    /// When the first user's first session starts, in milliseconds since the epoch.
    package var startMilliseconds: Int64
    /// Virtual time between the first sessions of consecutive users.
    package var sessionGapMilliseconds: Int64
    /// Session attributes: name → distribution (the `id` attribute is the simulated user's id).
    package var attributes: [(name: String, distribution: Distribution)]
    /// What users come to do.
    package var intents: [Intent]
    /// The kinds of users.
    package var personas: [Persona]
    /// Service behaviour by parameter name (declared by the app), with where each is written.
    package var services: [(name: String, value: ClosedRange<Double>, location: SourceLocation)]
    /// Where the file's `app` is written.
    package var appLocation: SourceLocation
    /// How features change what users do (see ``Effect``).
    package var effects: [Effect] = []
}

/// A value with the place in a file it was read from.
package struct Located<Value: Sendable>: Sendable {
    package var value: Value
    package var location: SourceLocation
}

extension Located: Equatable where Value: Equatable {}

extension Population {
    /// The most sessions any persona makes per user.
    var mostVisits: Int { personas.map(\.visits.upperBound).max() ?? 1 }

    /// The events simulated users log themselves (success checks' events).
    package var observedEvents: [String] {
        intents.compactMap { $0.check?.event.value }
    }

    /// An upper bound, in seconds, of one session's virtual duration when it takes at most `steps`
    /// steps: each step thinks, may type the longest texts, may wait for the slowest service
    /// value, and may wait up to a minute more for a timed screen (a toast).
    func longestSessionSeconds(steps: Int) -> Double {
        let longestText = Double(intents.flatMap(\.values).map { $0.texts.values.joined().reduce(0) { $0 + $1.count } + 1 }.max() ?? 0)
        let slowestStep = personas.map { $0.think.max + $0.typingPerCharacter.max * longestText }.max() ?? 0
        let slowestService = services.map(\.value.upperBound).filter { $0 <= Population.maximumActionSeconds }.max() ?? 0
        return Double(steps) * (slowestStep + slowestService + 60)
    }

    /// An upper bound, in seconds, of the time from a user's first session to the end of their last.
    func longestUserSeconds(steps: Int) -> Double {
        let gaps = personas.map { Double($0.visits.upperBound - 1) * $0.daysBetweenVisits.max * 86_400 }.max() ?? 0
        return gaps + Double(mostVisits) * longestSessionSeconds(steps: steps)
    }
}
