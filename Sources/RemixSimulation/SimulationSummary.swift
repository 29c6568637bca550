import Foundation
import RemixExperiments
import RemixFormats
import RemixKit
import RemixYAML

/// What a simulation run produced: users and sessions, what became of each intent and where
/// sessions ended, exposures per variation, speed.
package struct SimulationSummary: Sendable {
    /// Exposed sessions of one variation (a returning user's each count; the analysis report
    /// counts users), and those whose last intent was achieved.
    package struct VariationCount: Sendable, Equatable {
        package var exposed = 0
        package var achieved = 0
    }

    /// What became of one intent over the run.
    package struct IntentCount: Sendable, Equatable {
        /// Times it was tried.
        package var tried = 0
        /// Tries per outcome.
        package var outcomes: [IntentOutcome: Int] = [:]
        /// outcome → screen → tries that ended so there (every outcome but achieved).
        package var screens: [IntentOutcome: [String: Int]] = [:]
    }

    /// Users simulated.
    package var users = 0
    /// The sticky-bucket documents the run changed (sticky bucketing on), in user order: what
    /// `simulate` appends to the store at the end.
    package var stickyDocuments: [StickyBucketDocument] = []
    /// Sessions simulated (a returning user makes several).
    package var sessions = 0
    /// Events written (run record included).
    package var events = 0
    /// Sessions whose persona drew no intent.
    package var sessionsWithoutIntent = 0
    /// Intent name → what became of it.
    package var intents: [String: IntentCount] = [:]
    /// Screen name → sessions that ended on it.
    package var endScreens: [String: Int] = [:]
    /// The names of every screen a simulated user saw in front.
    package var screensSeen: Set<String> = []
    /// experiment → variation → counts.
    package var variations: [String: [String: VariationCount]] = [:]
    /// Wall-clock seconds.
    package var elapsedSeconds = 0.0
    /// What the run's controllers say of themselves at its end: an experiment stopped at the limit
    /// of decisions (``ControllerLimit``).
    package var controllerNotes: [String] = []

    mutating func merge(_ other: SimulationSummary) {
        stickyDocuments += other.stickyDocuments
        users += other.users
        sessions += other.sessions
        events += other.events
        sessionsWithoutIntent += other.sessionsWithoutIntent
        for (name, count) in other.intents {
            var mine = intents[name, default: IntentCount()]
            mine.tried += count.tried
            mine.outcomes.merge(count.outcomes, uniquingKeysWith: +)
            for (outcome, screens) in count.screens { mine.screens[outcome, default: [:]].merge(screens, uniquingKeysWith: +) }
            intents[name] = mine
        }
        endScreens.merge(other.endScreens, uniquingKeysWith: +)
        screensSeen.formUnion(other.screensSeen)
        for (experiment, counts) in other.variations {
            for (variation, count) in counts {
                variations[experiment, default: [:]][variation, default: VariationCount()].exposed += count.exposed
                variations[experiment, default: [:]][variation, default: VariationCount()].achieved += count.achieved
            }
        }
    }

    /// Abandon chances above 0 that name a screen no session showed, with the nearest screen that
    /// was shown (a misspelt screen name would otherwise silently never apply). A chance of 0 changes
    /// nothing wherever it applies: a fitted population writes one for each screen its log never
    /// saw a step on.
    package func unusedAbandonScreens(_ population: Population) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        for persona in population.personas {
            for (screen, location) in persona.abandonLocations.sorted(by: { $0.value < $1.value })
            where !screensSeen.contains(screen) && persona.abandon[screen] != 0 {
                let hint = NameSuggestion.nearest(to: screen, among: screensSeen.sorted()).map { " (did you mean '\($0)'?)" } ?? ""
                problems.append(Diagnostic(location, .warning, "persona '\(persona.name)' may abandon on screen '\(screen)', "
                                           + "but no session showed a screen of that name\(hint); screens shown: "
                                           + screensSeen.sorted().joined(separator: ", ")))
            }
        }
        return problems
    }

    /// Sessions that ended stuck, by screen (an intent the app could not serve there).
    package var stuckScreens: [String: Int] {
        intents.values.reduce(into: [:]) { total, count in total.merge(count.screens[.stuck] ?? [:], uniquingKeysWith: +) }
    }

    /// The summary as aligned text lines, variations in the order the experiment files list them.
    package var text: String { text(variationOrder: [:]) }

    /// The summary as text; `variationOrder` gives each experiment's variation keys in file order
    /// (the analysis report's order), `intentOrder` the population's intents in file order;
    /// `notRunning` the experiments no session was exposed to, as `KEY (why)`; lines longer than
    /// `width` are wrapped, their continuation under the text after the label column.
    package func text(variationOrder: [String: [String]], intentOrder: [String] = [], notRunning: [String] = [],
                      width: Int? = nil) -> String {
        let grouped = CountText.grouped
        var lines = ["users      \(grouped(users)) (\(grouped(sessions)) sessions)", "events     \(grouped(events))"]
        let names = intentOrder.filter { intents[$0] != nil } + intents.keys.filter { !intentOrder.contains($0) }.sorted()
        for (position, name) in names.enumerated() {
            let count = intents[name, default: IntentCount()]
            let outcomes = IntentOutcome.allCases.map { outcome in
                let n = count.outcomes[outcome] ?? 0
                return outcome == .achieved ? "achieved \(grouped(n)) (\(Self.percent(n, of: count.tried)))" : "\(outcome.rawValue) \(grouped(n))"
            }
            lines.append((position == 0 ? "intents    " : "           ") + "\(name): tried \(grouped(count.tried)) — "
                         + outcomes.joined(separator: ", "))
            for outcome in [IntentOutcome.abandoned, .error] {
                guard let screens = count.screens[outcome], !screens.isEmpty else { continue }
                lines.append("             \(outcome.rawValue) on: "
                             + Self.ranked(screens).map { "\($0.key) \(grouped($0.value))" }.joined(separator: ", "))
            }
        }
        if sessionsWithoutIntent > 0 || names.isEmpty {
            lines.append((names.isEmpty ? "intents    " : "           ") + "(none): \(grouped(sessionsWithoutIntent)) sessions drew no intent")
        }
        lines.append("ended on   " + Self.ranked(endScreens).prefix(5)
            .map { "\($0.key) \(Self.percent($0.value, of: sessions))" }.joined(separator: ", "))
        for (screen, count) in Self.ranked(stuckScreens) {
            lines.append("stuck      on screen \(screen): \(grouped(count)) sessions (nothing there advanced the intent; see docs/simulation.md)")
        }
        for experiment in variations.keys.sorted() {
            lines.append("experiment \(experiment)")
            let order = variationOrder[experiment] ?? []
            let rank = { (key: String) in order.firstIndex(of: key) ?? order.count }
            for (variation, count) in variations[experiment, default: [:]].sorted(by: { (rank($0.key), $0.key) < (rank($1.key), $1.key) }) {
                lines.append("  \(variation): \(grouped(count.exposed)) exposed sessions, intent achieved in \(grouped(count.achieved)) "
                             + "(\(Self.percent(count.achieved, of: count.exposed)))")
            }
        }
        lines += notRunning.map { "not running: \($0)" }
        lines += controllerNotes.map { "stopped    \($0)" }
        let rate = elapsedSeconds > 0 ? Double(sessions) / elapsedSeconds : 0
        lines.append("elapsed    \(String(format: "%.2f", elapsedSeconds)) s (\(grouped(Int(rate))) sessions/s, "
                     + "\(grouped(Int(elapsedSeconds > 0 ? Double(events) / elapsedSeconds : 0))) events/s)")
        // Names from the experiment and population files (and screens): control characters shown escaped.
        let shown = lines.map(JSONText.visible)
        guard let width else { return shown.joined(separator: "\n") }
        return shown.flatMap { line in
            // A labelled line (`intents    …`) continues under its text, an indented one two further in.
            let labelled = line.first != " " && line.prefix(Self.labelWidth).hasSuffix(" ")
            return TextLayout.wrap(line, width: width, indent: labelled ? Self.labelWidth + 2 : nil)
        }.joined(separator: "\n")
    }

    /// The label column's width (`intents    `).
    private static let labelWidth = 11

    private static func percent(_ part: Int, of whole: Int) -> String {
        String(format: "%.1f%%", whole == 0 ? 0 : Double(part) / Double(whole) * 100)
    }

    /// Most first, then by name.
    private static func ranked(_ counts: [String: Int]) -> [(key: String, value: Int)] {
        counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
    }
}
