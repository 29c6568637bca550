import Foundation
import RemixAnalysis
import RemixKit

/// Learns a population from event logs (`remix fit`): surveys the app, reads the logs twice — once
/// for the intents and screens, once for each user's numbers — fits personas as a mixture of
/// classes, and says what the logs cannot show.
package enum PopulationFit {
    /// How many personas to fit.
    package enum PersonaCount: Sendable, Equatable {
        case fixed(Int)
        /// The count with the lowest BIC, from 1 up to ``mostPersonas``.
        case automatic
    }

    /// The most personas `--personas auto` tries.
    package static let mostPersonas = 6

    /// What to fit.
    package struct Options: Sendable {
        package var app: String
        package var personas: PersonaCount
        package var seed: UInt64
        /// Populations refitted on bootstrap resamples of the users, for predictions with intervals.
        package var replicates: Int

        package init(app: String, personas: PersonaCount = .automatic, seed: UInt64 = 1, replicates: Int = 0) {
            self.app = app
            self.personas = personas
            self.seed = seed
            self.replicates = replicates
        }
    }

    /// A fit: the population, and the same fitted again on each bootstrap resample of the users.
    package struct Result: Sendable {
        package var population: FittedPopulation
        package var replicates: [FittedPopulation]
    }

    /// Fits the population of `options.app` from the logs at `paths` (regular files, read twice).
    package static func fit(paths: [String], registry: FeatureRegistry, options: Options) throws -> Result {
        let app = try registry.app(named: options.app)
        let survey = try AppSurvey.survey(app: app, registry: registry)
        let segmenter = SessionSegmenter(survey: survey)
        var builder = FitStructureBuilder(survey: survey, serviceFailures: ServiceTally.failureEvents(app.serviceParameters))
        var logUsers = Set<String>()
        var firstStarts: [Int64] = []
        try read(paths) { trace in
            guard let segments = segmenter.segments(of: trace) else { return }
            builder.add(segments, of: trace)
            if trace.visit <= 1, logUsers.insert(trace.user).inserted { firstStarts.append(trace.start) }
        }
        logUsers = []
        let structure = builder.build()
        guard structure.sessions > 0 else { throw FitError.noSessions(paths: paths) }
        var collector = FitCollector(structure: structure, survey: survey, services: app.serviceParameters)
        try read(paths) { collector.add($0) }
        collector.packTable()
        let (mixture, responsibilities, choice) = choosePersonas(collector.table, options: options)
        let starts = firstStarts.sorted()
        let population = FittedPopulationBuilder(structure: structure, collector: collector, mixture: mixture,
                                                 responsibilities: responsibilities, app: app.name).build(
            firstStarts: starts, personaChoice: choice, sources: paths)
        var random = SeededGenerator(seed: options.seed ^ 0xB007_57AB)
        let replicates = (0..<options.replicates).map { index in
            let weights = resample(users: collector.table.count, &random)
            let refit = PersonaMixture.refine(mixture, on: collector.table, userWeights: weights)
            return FittedPopulationBuilder(structure: structure, collector: collector, mixture: refit.mixture,
                                           responsibilities: refit.responsibilities, app: app.name).build(
                firstStarts: starts, personaChoice: "\(mixture.personas.count), as the fit (replicate \(index + 1) of \(options.replicates))",
                sources: paths)
        }
        return Result(population: population, replicates: replicates)
    }

    /// How many times each of `users` users is drawn in a bootstrap resample of the same size.
    static func resample(users: Int, _ random: inout SeededGenerator) -> [Float] {
        var counts = [Float](repeating: 0, count: users)
        for _ in 0..<users { counts[Int(random.next() % UInt64(users))] += 1 }
        return counts
    }

    /// Reads the logs session by session.
    private static func read(_ paths: [String], _ take: @escaping (SessionTrace) -> Void) throws {
        let assembler = SessionAssembler(take)
        _ = try EventLineReader.read(paths: paths, visitor: assembler)
        assembler.finish()
    }

    /// Users the persona count is chosen on (and the classes first fitted on): a larger log's
    /// classes are then refined on every user, a few passes from that start.
    static let sampleUsers = 20_000

    /// The mixture for the persona count asked for; `automatic` tries 1, 2, … and keeps the count
    /// with the lowest BIC, stopping after two counts that did not lower it. On a log of more than
    /// ``sampleUsers`` users the counts are tried on a sample of that many.
    static func choosePersonas(_ table: UserFeatureTable, options: Options)
        -> (PersonaMixture, [Float], String) {
        var random = SeededGenerator(seed: options.seed ^ 0x5A3B_1E00)
        let sampled = table.count > sampleUsers
        let sample = sampled ? table.sample(sampleRows(users: table.count, &random)) : table
        let on = sampled ? " on a sample of \(FittedPopulationWriter.grouped(sampleUsers)) users" : ""
        var chosen: (mixture: PersonaMixture, responsibilities: [Float])
        var reason: String
        switch options.personas {
        case .fixed(let count):
            chosen = PersonaMixture.fit(sample, classes: count, seed: options.seed)
            reason = "\(count) as asked (--personas \(count))"
        case .automatic:
            chosen = PersonaMixture.fit(sample, classes: 1, seed: options.seed)
            var bics = [chosen.mixture.bic(users: sample.count)]
            var worse = 0
            for count in 2...mostPersonas where worse < 2 {
                let fitted = PersonaMixture.fit(sample, classes: count, seed: options.seed)
                let bic = fitted.mixture.bic(users: sample.count)
                bics.append(bic)
                if bic < chosen.mixture.bic(users: sample.count) {
                    chosen = fitted
                    worse = 0
                } else {
                    worse += 1
                }
            }
            let tried = bics.enumerated().map { "\($0.offset + 1): \(Int($0.element.rounded()))" }.joined(separator: ", ")
            reason = "\(chosen.mixture.personas.count) by the lowest BIC\(on) (personas: BIC — \(tried))"
        }
        if sampled { chosen = PersonaMixture.refine(chosen.mixture, on: table) }
        return (chosen.mixture, chosen.responsibilities, reason)
    }

    /// `sampleUsers` distinct rows of `users`, in order (a partial Fisher–Yates shuffle).
    static func sampleRows(users: Int, _ random: inout SeededGenerator) -> [Int] {
        var rows = Array(0..<users)
        for index in 0..<min(sampleUsers, users) {
            rows.swapAt(index, index + Int(random.next() % UInt64(users - index)))
        }
        return rows.prefix(sampleUsers).sorted()
    }
}

/// A log the fit cannot learn from.
package enum FitError: Error, CustomStringConvertible {
    case noSessions(paths: [String])

    package var description: String {
        switch self {
        case .noSessions(let paths):
            "\(paths.joined(separator: ", ")) holds no sessions (no session_started events); fit reads Remix event logs "
                + "(docs/events.md)"
        }
    }
}
