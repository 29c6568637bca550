import Foundation

/// What a simulation run produced.
public struct SimulationSummary: Sendable {
    /// Exposed and converted sessions of one variation.
    public struct VariationCount: Sendable, Equatable {
        public var exposed = 0
        public var converted = 0
    }

    /// Sessions simulated.
    public var sessions = 0
    /// Events written (run record included).
    public var events = 0
    /// Sessions per outcome.
    public var outcomes: [SessionOutcome: Int] = [:]
    /// experiment → variation → counts.
    public var variations: [String: [String: VariationCount]] = [:]
    /// Wall-clock seconds.
    public var elapsedSeconds = 0.0

    mutating func merge(_ other: SimulationSummary) {
        sessions += other.sessions
        events += other.events
        for (outcome, count) in other.outcomes { outcomes[outcome, default: 0] += count }
        for (experiment, counts) in other.variations {
            for (variation, count) in counts {
                variations[experiment, default: [:]][variation, default: VariationCount()].exposed += count.exposed
                variations[experiment, default: [:]][variation, default: VariationCount()].converted += count.converted
            }
        }
    }

    /// The summary as aligned text lines, variations in the order the experiment files list them.
    public var text: String { text(variationOrder: [:]) }

    /// The summary as aligned text lines; `variationOrder` gives each experiment's variation keys in
    /// file order (the analysis report's order), and variations it does not list come after, by name.
    public func text(variationOrder: [String: [String]]) -> String {
        var lines = [
            "sessions   \(sessions)",
            "events     \(events)",
            "outcomes   " + SessionOutcome.allCases.map { "\($0.rawValue) \(outcomes[$0] ?? 0)" }.joined(separator: ", "),
        ]
        for experiment in variations.keys.sorted() {
            lines.append("experiment \(experiment)")
            let order = variationOrder[experiment] ?? []
            let rank = { (key: String) in order.firstIndex(of: key) ?? order.count }
            for (variation, count) in variations[experiment, default: [:]].sorted(by: { (rank($0.key), $0.key) < (rank($1.key), $1.key) }) {
                let rate = count.exposed == 0 ? 0 : Double(count.converted) / Double(count.exposed) * 100
                lines.append("  \(variation): exposed \(count.exposed), converted \(count.converted) "
                             + "(\(String(format: "%.1f", rate))%)")
            }
        }
        let rate = elapsedSeconds > 0 ? Double(sessions) / elapsedSeconds : 0
        lines.append("elapsed    \(String(format: "%.2f", elapsedSeconds)) s (\(Int(rate)) sessions/s, "
                     + "\(Int(elapsedSeconds > 0 ? Double(events) / elapsedSeconds : 0)) events/s)")
        return lines.joined(separator: "\n")
    }
}
