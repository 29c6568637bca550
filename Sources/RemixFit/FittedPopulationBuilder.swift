import Foundation

/// Puts a fit's parts together into a ``FittedPopulation``: intents named and valued, each
/// mixture class made a persona with its typing speed, and the notes on what the log cannot show.
struct FittedPopulationBuilder {
    let structure: FitStructure
    let collector: FitCollector
    let mixture: PersonaMixture
    let responsibilities: [Float]
    let app: String

    func build(firstStarts: [Int64], personaChoice: String, sources: [String]) -> FittedPopulation {
        let intents = fittedIntents()
        let personas = mixture.personas.enumerated().map { persona($0.element, index: $0.offset, intents: intents) }
            .sorted { $0.weight > $1.weight }
            .enumerated().map { offset, persona in
                var named = persona
                named.name = "persona \(offset + 1)"
                return named
            }
        let start = firstStarts.first ?? 0
        let gap = firstStarts.count > 1 ? Double(firstStarts[firstStarts.count - 1] - start) / 1000 / Double(firstStarts.count - 1) : 0
        var population = FittedPopulation(
            app: app, startMilliseconds: start, sessionGapSeconds: gap,
            // By name: a store keeps no order of an event's members, so first-seen order would
            // depend on where the log was read from.
            attributes: collector.attributes.sorted { $0.name < $1.name }.map { attribute in
                (attribute.name, attribute.counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                    .map { ($0.key, $0.value) })
            },
            services: collector.services.fitted().services, intents: intents, personas: personas,
            shownScreens: structure.shownScreens, users: collector.table.count,
            sessions: structure.sessions, personaChoice: personaChoice, unknowns: unknowns(intents), sources: sources,
            bytesPerUser: collector.table.bytesPerUser)
        FittedLimits.keep(&population)
        return population
    }

    /// The chance of surviving the steps counted on each screen, with each screen's chance to give
    /// up averaged over the personas by their steps there.
    private func survival(_ steps: [Int]) -> Double {
        var chance = 1.0
        for (screen, count) in steps.enumerated() where count > 0 {
            let weights = mixture.personas.map { $0.steps.indices.contains(screen) ? $0.steps[screen] : 0 }
            let total = weights.reduce(0, +)
            guard total > 0 else { continue }
            let hazard = zip(mixture.personas, weights).reduce(0.0) { $0 + $1.0.abandon[screen] * $1.1 } / total
            chance *= pow(1 - hazard, Double(count))
        }
        return chance
    }

    private func fittedIntents() -> [FittedPopulation.Intent] {
        var names = Set<String>()
        return structure.intents.enumerated().map { index, intent in
            var name = intent.success ?? intent.keys.sorted().first.map { "open-\($0)" } ?? "use"
            while !names.insert(name).inserted { name += "-2" }
            let values = collector.values.values(index, survival: survival)
            return FittedPopulation.Intent(
                name: name, start: intent.start, success: intent.success,
                values: values.values.map { ($0.texts, $0.path, $0.weight, $0.successes) },
                attempts: collector.attempts[index], successes: collector.successes[index], valuesLeftOut: values.leftOut)
        }
    }

    private func persona(_ fitted: PersonaMixture.Persona, index: Int, intents: [FittedPopulation.Intent]) -> FittedPopulation.Persona {
        func error(_ p: Double, _ n: Double) -> Double { n > 0 ? (p * (1 - p) / n).squareRoot() : 0.5 }
        return FittedPopulation.Persona(
            name: "", weight: fitted.weight, users: fitted.users,
            intents: intents.indices.map { i in
                (intents[i].name, fitted.intentChances[i], error(fitted.intentChances[i], fitted.opportunities[i]))
            },
            // The rare screens' share (the empty name) is not written: it goes into `default`.
            abandon: structure.screens.indices.filter { !structure.screens[$0].isEmpty }.map { s in
                (structure.screens[s], fitted.abandon[s], error(fitted.abandon[s], fitted.steps[s]), fitted.steps[s])
            },
            defaultAbandon: zip(fitted.abandon, fitted.steps).reduce(0) { $0 + $1.0 * $1.1 } / max(fitted.steps.reduce(0, +), 1),
            think: .fitted(mean: fitted.thinkMean, sd: fitted.thinkSD, logMean: fitted.thinkLogMean, logSD: fitted.thinkLogSD,
                           floor: 0.05),
            typing: typing(class: index, thinkMean: fitted.thinkMean, thinkSD: fitted.thinkSD),
            retryAfterError: fitted.retryAfterError, typos: fitted.typos, visits: fitted.visits,
            daysBetweenVisits: .uniform(mean: fitted.gapMean, sd: fitted.gapSD, floor: 0))
    }

    /// Seconds per character on text screens, from dwell = one think + characters × a per-character
    /// time: the slope of dwell on characters (or, where the texts' lengths hardly vary, the mean
    /// dwell less a think over the mean length), and the spread left once the think's is taken out.
    private func typing(class c: Int, thinkMean: Double, thinkSD: Double) -> FittedPopulation.Range? {
        let table = collector.table
        let column = table.layout.typing
        let classes = mixture.personas.count
        var sums = [Double](repeating: 0, count: 6)
        for user in 0..<table.count {
            let weight = Double(responsibilities[user * classes + c]) * Double(mixture.userWeights?[user] ?? 1)
            guard weight > 1e-6, table[user, column] > 0 else { continue }
            for k in 0..<6 { sums[k] += weight * Double(table[user, column + k]) }
        }
        let n = sums[0]
        guard n > 0.5 else { return nil }
        let dwell = sums[1] / n, characters = sums[3] / n, squares = sums[4] / n
        let spread = squares - characters * characters
        let slope = spread > 0.05 * characters * characters ? (sums[5] / n - dwell * characters) / spread
            : (dwell - thinkMean) / max(characters, 1)
        let mean = max(slope, 0.001)
        let intercept = thinkMean
        let residual = (sums[2] + n * intercept * intercept + mean * mean * sums[4] - 2 * intercept * sums[1]
                        - 2 * mean * sums[5] + 2 * intercept * mean * sums[3]) / n
        let variance = max(residual - thinkSD * thinkSD, 0) / max(squares, 1)
        return .uniform(mean: mean, sd: variance.squareRoot(), floor: 0.001)
    }

    /// Fewer users than this and the fit says its intervals are wide.
    static let fewUsers = 1_000

    private func unknowns(_ intents: [FittedPopulation.Intent]) -> [String] {
        var notes: [String] = []
        if collector.table.count < Self.fewUsers {
            let users = collector.table.count
            notes.append("only \(users) user\(users == 1 ? "" : "s"): the ± beside each value are wide, and so are the intervals of "
                         + "what this fit predicts (remix fit --replicates says how wide); a log of \(FittedPopulationWriter.grouped(Self.fewUsers)) "
                         + "users or more pins them down")
        }
        if structure.slipScreens.isEmpty {
            notes.append("typos: the log has no keystroke events and no screen refused a slip, so slips cannot be told from what "
                         + "was meant; left at 0 (a slip that went through shows as an entered value)")
        } else {
            notes.append("typos: from the slips that \(structure.slipScreens.sorted().joined(separator: ", ")) refused (the user typed "
                         + "again); a text that is a slip of a more frequent one is counted as that one")
        }
        notes += collector.services.fitted().unknowns
        for (index, intent) in structure.intents.enumerated() where !collector.values.unrecorded[index].isEmpty {
            let purposes = collector.values.unrecorded[index].sorted().joined(separator: ", ")
            notes.append("values of \(intent.success ?? "an intent"): no event records what users typed into \(purposes) fields")
        }
        for intent in intents where intent.valuesLeftOut > 0 {
            notes.append("values of \(intent.name): the \(FittedPopulationWriter.grouped(IntentValueTally.mostValues)) users meant most often "
                         + "are written; rarer ones, from \(FittedPopulationWriter.number(intent.valuesLeftOut)) successes, are left out")
        }
        notes += unexplainedNotes()
        if !structure.rareScreens.isEmpty {
            notes.append("\(FittedPopulationWriter.grouped(structure.rareScreens.count)) screens users stepped on rarely (fewer steps than the "
                         + "\(FitStructure.mostScreens - 1) named) are not named; their steps go into each persona's default chance to give up")
        }
        if structure.unlistedShownScreens > 0 {
            notes.append("\(FittedPopulationWriter.grouped(structure.unlistedShownScreens)) screens shown in few sessions and never stepped "
                         + "on are not named; they get each persona's default chance to give up")
        }
        return notes
    }

    /// One note per first screen no action of the app's first screen shows, or — past a few — one
    /// for all of them, naming the most frequent.
    private func unexplainedNotes() -> [String] {
        let keys = structure.unexplained.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        guard keys.count > 3 else {
            return keys.sorted { $0.key < $1.key }.map { key, count in
                "\(count) attempts began by showing '\(key)', which no action of the app's first screen shows; left out"
            }
        }
        let attempts = keys.reduce(0) { $0 + $1.value }
        let examples = keys.prefix(3).map { "'\($0.key)' \(FittedPopulationWriter.grouped($0.value))" }.joined(separator: ", ")
        return ["\(FittedPopulationWriter.grouped(attempts)) attempts began by showing one of \(FittedPopulationWriter.grouped(keys.count)) "
                + "screens that no action of the app's first screen shows (most often \(examples)); left out"]
    }
}
