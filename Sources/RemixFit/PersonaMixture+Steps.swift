import Foundation

extension PersonaMixture {
    /// The classes' parameters from the users' responsibilities (the M step), in one pass over the
    /// users' packed numbers. Ambiguous counts — a session that ended after the user left a screen
    /// of an intent without success event, a give-up after an error — are split by the chance of
    /// each reading under the class as it was.
    func maximise(_ table: UserFeatureTable, _ responsibilities: [Float], classes: Int, mostVisits: Int) -> [Persona] {
        let width = layout.width
        var sums = [Double](repeating: 0, count: width * classes)
        var visits = [Double](repeating: 0, count: mostVisits * classes)
        var users = [Double](repeating: 0, count: classes)
        var everyone = 0.0
        var weights = [Double](repeating: 0, count: classes)
        for user in 0..<table.count {
            let copies = Double(userWeights?[user] ?? 1)
            everyone += copies
            for c in 0..<classes {
                weights[c] = Double(responsibilities[user * classes + c]) * copies
                users[c] += weights[c]
            }
            let sessions = table.withPairs(user) { columns, values in
                for index in columns.indices {
                    let base = Int(columns[index]) * classes, value = Double(values[index])
                    for c in 0..<classes { sums[base + c] += weights[c] * value }
                }
                // Pairs are in column order, and the session count is column 0.
                return columns.isEmpty || columns[0] != UInt16(layout.sessions) ? 0 : Int(values[0])
            }
            guard sessions >= 1 else { continue }
            let base = (min(sessions, mostVisits) - 1) * classes
            for c in 0..<classes { visits[base + c] += weights[c] }
        }
        return (0..<classes).map { c in
            let classSums = (0..<width).map { sums[$0 * classes + c] }
            let classVisits = (0..<mostVisits).map { visits[$0 * classes + c] }
            return persona(c, sums: classSums, visits: classVisits, users: users[c], everyone: everyone)
        }
    }

    /// Class `c`'s parameters from its weighted sums.
    private func persona(_ c: Int, sums: [Double], visits: [Double], users: Double, everyone: Double) -> Persona {
        let old = personas.indices.contains(c) ? personas[c] : nil
        var persona = Persona(
            weight: users / max(everyone, 1),
            intentChances: old?.intentChances ?? Array(repeating: 0.5, count: layout.intents),
            abandon: old?.abandon ?? Array(repeating: 0.05, count: layout.screens),
            retryAfterError: old?.retryAfterError ?? 0.5,
            thinkMean: 0, thinkSD: 1,
            visits: visits.map { ($0 + 1e-3) / (users + 1e-3 * Double(visits.count)) },
            gapMean: 1, gapSD: 1, users: users)
        // A few rounds: the splits depend on the chances they estimate.
        for _ in 0..<3 { persona.updateChances(sums, layout: layout) }
        persona.typos = sums[layout.slips] > 0 ? min(max((sums[layout.slips + 1] + 0.01) / (sums[layout.slips] + 0.02), 0), 1 - Self.floor) : 0
        (persona.thinkMean, persona.thinkSD) = Self.moments(sums, at: layout.think, fallback: (1, 0.5))
        (persona.thinkLogMean, persona.thinkLogSD) = Self.moments([sums[layout.think], sums[layout.think + 3], sums[layout.think + 4]],
                                                                  at: 0, fallback: (0, 0.5))
        (persona.gapMean, persona.gapSD) = Self.moments(sums, at: layout.gaps, fallback: (1, 1))
        return persona
    }

    /// Mean and standard deviation from the weighted (count, sum, sum of squares) at `column`.
    static func moments(_ sums: [Double], at column: Int, fallback: (Double, Double)) -> (Double, Double) {
        let count = sums[column]
        guard count > 1e-9 else { return fallback }
        let mean = sums[column + 1] / count
        let variance = max(sums[column + 2] / count - mean * mean, 0)
        return (mean, max(sqrt(variance), max(0.01 * abs(mean), 1e-3)))
    }

    /// The users' responsibilities under the current classes (the E step); the log-likelihood.
    func expect(_ table: UserFeatureTable, _ responsibilities: inout [Float]) -> Double {
        let classes = personas.count
        // Coefficients column by column, so one pass over a user's pairs scores every class.
        var coefficients = [Double](repeating: 0, count: layout.width * classes)
        for (c, persona) in personas.enumerated() {
            for (column, weight) in persona.coefficients(layout: layout).enumerated() { coefficients[column * classes + c] = weight }
        }
        let constants = personas.map { log(max($0.weight, 1e-12)) }
        let visitTerms = personas.map { $0.visits.map { log(max($0, 1e-12)) } }
        var total = 0.0
        var scores = [Double](repeating: 0, count: classes)
        for user in 0..<table.count {
            for c in 0..<classes { scores[c] = constants[c] }
            let sessions = table.withPairs(user) { columns, values in
                var sessions = 1
                for index in columns.indices {
                    let column = Int(columns[index]), value = Double(values[index])
                    if column == layout.sessions { sessions = max(1, Int(value)) }
                    let base = column * classes
                    for c in 0..<classes { scores[c] += value * coefficients[base + c] }
                }
                return sessions
            }
            var best = -Double.infinity
            for c in 0..<classes {
                scores[c] += visitTerms[c][min(sessions, visitTerms[c].count) - 1]
                best = max(best, scores[c])
            }
            var sum = 0.0
            for c in 0..<classes {
                scores[c] = exp(scores[c] - best)
                sum += scores[c]
            }
            total += Double(userWeights?[user] ?? 1) * (best + log(sum))
            for c in 0..<classes { responsibilities[user * classes + c] = Float(scores[c] / sum) }
        }
        return total
    }
}

extension PersonaMixture.Persona {
    /// Intent chances, give-up chances and the retry chance from weighted counts, with the
    /// ambiguous counts split by the current chances.
    mutating func updateChances(_ sums: [Double], layout: FeatureLayout) {
        let floor = PersonaMixture.floor
        var tried = (0..<layout.intents).map { sums[layout.tried($0)] }
        var skipped = (0..<layout.intents).map { sums[layout.skipped($0)] }
        var survived = (0..<layout.screens).map { sums[layout.survived($0)] + sums[layout.retried($0)] }
        var abandoned = (0..<layout.screens).map { sums[layout.abandoned($0)] }
        var retries = (0..<layout.screens).reduce(0.0) { $0 + sums[layout.retried($1)] }
        var declines = 0.0
        for screen in 0..<layout.screens {
            let gaveUp = sums[layout.gaveUpAfterError(screen)]
            guard gaveUp > 0 else { continue }
            let h = abandon[screen]
            let quit = h / max(h + (1 - h) * (1 - retryAfterError), 1e-12)
            abandoned[screen] += gaveUp * quit
            survived[screen] += gaveUp * (1 - quit)
            declines += gaveUp * (1 - quit)
        }
        for intent in 0..<layout.intents {
            let rest = noFurtherIntent(after: intent)
            for screen in 0..<layout.screens {
                let left = sums[layout.leftThenEnded(intent: intent, screen: screen)]
                guard left > 0 else { continue }
                let h = abandon[screen]
                let quit = h / max(h + (1 - h) * rest, 1e-12)
                abandoned[screen] += left * quit
                survived[screen] += left * (1 - quit)
                for later in (intent + 1)..<layout.intents { skipped[later] += left * (1 - quit) }
            }
        }
        opportunities = zip(tried, skipped).map { $0 + $1 }
        tried = tried.map { $0 + 0.5 }
        skipped = skipped.map { $0 + 0.5 }
        intentChances = zip(tried, skipped).map { min(max($0 / ($0 + $1), floor), 1 - floor) }
        abandon = zip(abandoned, survived).map { a, s in a + s > 0 ? min(max(a / (a + s), 0), 1 - floor) : 0 }
        steps = zip(abandoned, survived).map { $0 + $1 }
        retries += 0.5
        declines += 0.5
        retryAfterError = min(max(retries / (retries + declines), floor), 1 - floor)
    }

    /// The chance that none of the intents after `intent` was drawn.
    func noFurtherIntent(after intent: Int) -> Double {
        intentChances.indices.filter { $0 > intent }.reduce(1.0) { $0 * (1 - intentChances[$1]) }
    }

    /// The log-likelihood's coefficient on each feature column.
    func coefficients(layout: FeatureLayout) -> [Double] {
        let floor = PersonaMixture.floor
        var weights = [Double](repeating: 0, count: layout.width)
        for intent in 0..<layout.intents {
            weights[layout.tried(intent)] = log(intentChances[intent])
            weights[layout.skipped(intent)] = log(1 - intentChances[intent])
        }
        for screen in 0..<layout.screens {
            let h = min(max(abandon[screen], floor), 1 - floor)
            weights[layout.survived(screen)] = log(1 - h)
            weights[layout.abandoned(screen)] = log(h)
            weights[layout.retried(screen)] = log((1 - h) * retryAfterError)
            weights[layout.gaveUpAfterError(screen)] = log(h + (1 - h) * (1 - retryAfterError))
            for intent in 0..<layout.intents {
                weights[layout.leftThenEnded(intent: intent, screen: screen)] = log(h + (1 - h) * noFurtherIntent(after: intent))
            }
        }
        let slip = min(max(typos, floor), 1 - floor)
        weights[layout.slips] = log(1 - slip)
        weights[layout.slips + 1] = log(slip) - log(1 - slip)
        Self.gaussian(&weights, at: layout.think, mean: thinkMean, sd: thinkSD)
        Self.gaussian(&weights, at: layout.gaps, mean: gapMean, sd: gapSD)
        return weights
    }

    /// A normal log-density over the (count, sum, sum of squares) at `column`, as coefficients.
    private static func gaussian(_ weights: inout [Double], at column: Int, mean: Double, sd: Double) {
        let variance = sd * sd
        weights[column] = -0.5 * mean * mean / variance - log(sd) - 0.5 * log(2 * Double.pi)
        weights[column + 1] = mean / variance
        weights[column + 2] = -0.5 / variance
    }
}
