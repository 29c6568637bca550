import Foundation
import RemixKit

/// Personas as a mixture of latent classes of users, fitted by expectation–maximisation over the
/// users' feature vectors. Each class has what a persona has — intent chances, a chance to give up
/// per step on each screen, a chance to retry after an error, thinking time, sessions per user and
/// days between them — and a user's likelihood under a class is the chance of their counts under
/// the simulated user's rules. Every term is linear in the counts once the class is fixed, so an
/// iteration is one pass of dot products over the users.
struct PersonaMixture {
    /// One class: a persona.
    struct Persona {
        var weight: Double
        var intentChances: [Double]
        var abandon: [Double]
        var retryAfterError: Double
        /// Chance that typed text has a slip, from screens that refuse one.
        var typos = 0.0
        var thinkMean: Double
        var thinkSD: Double
        /// Mean and standard deviation of the logarithm of thinking time (for a log-normal reading).
        var thinkLogMean = 0.0
        var thinkLogSD = 1.0
        /// Chance of each number of sessions per user (index 0 is one session).
        var visits: [Double]
        var gapMean: Double
        var gapSD: Double
        /// Users the class stands for (the sum of their responsibilities).
        var users: Double = 0
        /// Steps on each screen the class's hazards come from.
        var steps: [Double] = []
        /// Sessions in which each intent's turn came (tried or not), its chances' sample sizes.
        var opportunities: [Double] = []
    }

    let layout: FeatureLayout
    var personas: [Persona]
    /// How many times each user counts (a bootstrap resample); nil: once each.
    var userWeights: [Float]? = nil
    /// Log-likelihood of the users under the fitted mixture.
    var logLikelihood = -Double.infinity
    /// Free parameters, for BIC.
    var parameterCount: Int {
        personas.count * (layout.intents + layout.screens + 1 + 2 + (personas.first?.visits.count ?? 1) - 1 + 2) + personas.count - 1
    }

    /// BIC = −2 log L + parameters × log(users): lower is better.
    func bic(users: Int) -> Double { -2 * logLikelihood + Double(parameterCount) * log(Double(max(users, 2))) }

    /// The smallest and largest chance a fitted probability may take, so no log is infinite.
    static let floor = 1e-4

    /// Fits `classes` personas to `table` from `restarts` seeded starts: each runs a few passes,
    /// and the one with the best likelihood then runs to convergence (short-run starts: the
    /// others would rarely overtake it and cost most of the time).
    static func fit(_ table: UserFeatureTable, classes: Int, seed: UInt64, restarts: Int = 3, iterations: Int = 200,
                    userWeights: [Float]? = nil) -> (mixture: PersonaMixture, responsibilities: [Float]) {
        var best: (mixture: PersonaMixture, responsibilities: [Float])?
        for restart in 0..<(classes == 1 ? 1 : restarts) {
            var random = SeededGenerator(seed: seed &+ UInt64(restart) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(classes))
            var responsibilities = randomResponsibilities(users: table.count, classes: classes, &random)
            var mixture = PersonaMixture(layout: table.layout, personas: [], userWeights: userWeights)
            // No early stop here: a start near the symmetric point gains little for a few passes
            // before its classes part.
            mixture.iterate(table, &responsibilities, iterations: min(iterations, Self.shortRun), untilConverged: false)
            if best == nil || mixture.logLikelihood > best!.mixture.logLikelihood { best = (mixture, responsibilities) }
        }
        var (mixture, responsibilities) = best!
        mixture.iterate(table, &responsibilities, iterations: iterations - min(iterations, Self.shortRun))
        return (mixture, responsibilities)
    }

    /// Passes each start runs before the best one is kept.
    static let shortRun = 15

    /// Refines `start`'s classes on `table` (all users, or a bootstrap resample of them): EM from the
    /// responsibilities those classes give, which converges in a few passes when `start` was fitted
    /// on a sample of the same users.
    static func refine(_ start: PersonaMixture, on table: UserFeatureTable, iterations: Int = 200,
                       userWeights: [Float]? = nil) -> (mixture: PersonaMixture, responsibilities: [Float]) {
        var mixture = start
        mixture.userWeights = userWeights
        var responsibilities = [Float](repeating: 0, count: table.count * start.personas.count)
        _ = mixture.expect(table, &responsibilities)
        mixture.iterate(table, &responsibilities, iterations: iterations)
        return (mixture, responsibilities)
    }

    /// Responsibilities where each user leans to one class at random.
    private static func randomResponsibilities(users: Int, classes: Int, _ random: inout SeededGenerator) -> [Float] {
        var responsibilities = [Float](repeating: 0, count: users * classes)
        for user in 0..<users {
            var total: Float = 0
            for c in 0..<classes {
                let value = Float(Double(random.next() >> 11) * 0x1.0p-53) + 0.05
                responsibilities[user * classes + c] = value
                total += value
            }
            for c in 0..<classes { responsibilities[user * classes + c] /= total }
        }
        return responsibilities
    }

    /// EM passes until a pass gains less than 1/20 000 of a nat per user (or `iterations`): far
    /// below what the choice of persona count or any fitted value depends on.
    private mutating func iterate(_ table: UserFeatureTable, _ responsibilities: inout [Float], iterations: Int,
                                  untilConverged: Bool = true) {
        let classes = responsibilities.count / max(table.count, 1)
        let mostVisits = max(1, (0..<table.count).reduce(0) { max($0, Int(table[$1, table.layout.sessions])) })
        var previous = -Double.infinity
        for _ in 0..<iterations {
            personas = maximise(table, responsibilities, classes: classes, mostVisits: mostVisits)
            logLikelihood = expect(table, &responsibilities)
            if untilConverged, logLikelihood - previous < 5e-5 * Double(table.count) { break }
            previous = logLikelihood
        }
    }
}
