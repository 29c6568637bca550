import Foundation
import RemixSimulation

/// Keeps a fitted population within the population file's limits (docs/simulation.md), so that
/// `remix simulate` runs the file `remix fit` writes whatever the log: a time past a day, days
/// between visits past 366, more than 100 visits or users' first sessions more than 366 days apart
/// are kept at the limit, and a note (one per kind of value) says which personas and from what.
enum FittedLimits {
    /// Keeps `population`'s values within the limits, adding a note to its unknowns for each kind
    /// of value kept.
    static func keep(_ population: inout FittedPopulation) {
        var kept: [String: [(persona: String, from: String)]] = [:]
        let day = Population.maximumActionSeconds, days = 366.0
        for index in population.personas.indices {
            let name = population.personas[index].name
            if let from = keep(&population.personas[index].think, within: day) { kept["thinkSeconds", default: []].append((name, from)) }
            if var typing = population.personas[index].typing, let from = keep(&typing, within: day) {
                population.personas[index].typing = typing
                kept["typingSecondsPerCharacter", default: []].append((name, from))
            }
            if let from = keep(&population.personas[index].daysBetweenVisits, within: days) {
                kept["daysBetweenVisits", default: []].append((name, from))
            }
            let visits = population.personas[index].visits
            if visits.count > Population.maximumVisits {
                let beyond = visits[(Population.maximumVisits - 1)...].reduce(0, +)
                population.personas[index].visits = Array(visits.prefix(Population.maximumVisits - 1)) + [beyond]
                kept["visits", default: []].append((name, "up to \(visits.count)"))
            }
        }
        var notes: [String] = []
        let limits = ["thinkSeconds": "one day (86 400 s)", "typingSecondsPerCharacter": "one day (86 400 s)",
                      "daysBetweenVisits": "366 days", "visits": "\(Population.maximumVisits) sessions a user"]
        for (key, personas) in kept.sorted(by: { $0.key < $1.key }) {
            let which = personas.map { "\($0.persona) \($0.from)" }.joined(separator: ", ")
            notes.append("\(key): the log shows more than a population file may say (\(which)); kept at the limit, "
                         + "\(limits[key] ?? "")")
        }
        if population.sessionGapSeconds > Population.maximumSessionGapSeconds {
            notes.append("sessionGapSeconds: users' first sessions are \(FittedPopulationWriter.number(population.sessionGapSeconds)) s "
                         + "apart on average, more than a population file may say; kept at the limit, 366 days")
            population.sessionGapSeconds = Population.maximumSessionGapSeconds
        }
        population.unknowns += notes
    }

    /// Keeps `time` at most `limit`; returns what it was when it was more.
    private static func keep(_ time: inout FittedPopulation.Time, within limit: Double) -> String? {
        switch time {
        case .uniform(var range):
            guard let from = keep(&range, within: limit) else { return nil }
            time = .uniform(range)
            return from
        case .logNormal(let median, let p90):
            guard p90 > limit else { return nil }
            // The median stays below the 90th percentile, as the format needs.
            time = .logNormal(median: min(median, limit / 2), p90: limit)
            return "(median \(FittedPopulationWriter.number(median)), p90 \(FittedPopulationWriter.number(p90)))"
        }
    }

    /// Keeps `range` at most `limit`; returns what it was when it was more.
    private static func keep(_ range: inout FittedPopulation.Range, within limit: Double) -> String? {
        guard range.max > limit else { return nil }
        let from = "([\(FittedPopulationWriter.number(range.min)), \(FittedPopulationWriter.number(range.max))])"
        range = FittedPopulation.Range(min: min(range.min, limit), max: limit)
        return from
    }
}
