import Foundation
import RemixKit
import RemixLogReader

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
        /// The app whose sessions are fitted; nil: the one the logs' first `session_started` (or
        /// `run`) line names.
        package var app: String?
        package var personas: PersonaCount
        package var seed: UInt64
        /// Populations refitted on bootstrap resamples of the users, for predictions with intervals.
        package var replicates: Int

        package init(app: String?, personas: PersonaCount = .automatic, seed: UInt64 = 1, replicates: Int = 0) {
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
        /// What the reading left out or counted once (repeated lines and sessions, lines of
        /// sessions never started, sessions of other apps), said as warnings.
        package var warnings: [String] = []
    }

    /// Fits the population of `options.app` (else the logs' own app) from the logs at `paths`
    /// (regular files, read twice). Sessions of another app are left out; an app that none of the
    /// logs' sessions is of, or logs of several apps and no app given, are refused.
    package static func fit(paths: [String], registry: FeatureRegistry, options: Options) throws -> Result {
        let app = try registry.app(named: try appName(options.app, paths: paths))
        let survey = try AppSurvey.survey(app: app, registry: registry)
        let segmenter = SessionSegmenter(survey: survey)
        var builder = FitStructureBuilder(survey: survey, serviceFailures: ServiceTally.failureEvents(app.serviceParameters))
        var logUsers = Set<String>()
        var firstStarts: [Int64] = []
        var apps: [String: Int] = [:]
        let isFitted = { (trace: SessionTrace) in trace.app == nil || trace.app == app.name }
        let reading = try read(paths) { trace in
            apps[trace.app ?? app.name, default: 0] += 1
            guard isFitted(trace), let segments = segmenter.segments(of: trace) else { return }
            builder.add(segments, of: trace)
            if trace.visit <= 1, logUsers.insert(trace.user).inserted { firstStarts.append(trace.start) }
        }
        logUsers = []
        let warnings = try appWarnings(apps, fitted: app.name, given: options.app != nil) + reading.warnings(paths)
        let structure = builder.build()
        guard structure.sessions > 0 else { throw FitError.noSessions(paths: paths) }
        var collector = FitCollector(structure: structure, survey: survey, services: app.serviceParameters)
        _ = try read(paths) { trace in if isFitted(trace) { collector.add(trace) } }
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
        return Result(population: population, replicates: replicates, warnings: warnings)
    }

    /// The app to fit: `given`, else the one the logs name.
    private static func appName(_ given: String?, paths: [String]) throws -> String {
        if let given { return given }
        switch LogApp.find(in: paths) {
        case .named(let app): return app
        case .unnamed: throw FitError.noApp(paths: paths)
        case .noSessions: throw FitError.noSessions(paths: paths)
        }
    }

    /// The warning that sessions of other apps were left out, or the error that the logs hold no
    /// session of the app (`given`) or sessions of several apps (the app taken from the logs).
    private static func appWarnings(_ apps: [String: Int], fitted: String, given: Bool) throws -> [String] {
        let others = apps.filter { $0.key != fitted }
        guard !others.isEmpty else { return [] }
        let counts = apps.sorted { $0.key < $1.key }.map { "\($0.key) (\(FittedPopulationWriter.grouped($0.value)))" }
            .joined(separator: ", ")
        if apps[fitted] == nil {
            let only = others.count == 1 ? others.keys.first! : nil
            throw FitError.otherApp(app: fitted, sessions: counts, logApp: only)
        }
        guard given else { throw FitError.severalApps(sessions: counts) }
        let left = others.values.reduce(0, +)
        return ["\(FittedPopulationWriter.grouped(left)) session\(left == 1 ? "" : "s") of other apps were left out (sessions by app: "
                + "\(counts)); the fit is of \(fitted)'s"]
    }

    /// How many times each of `users` users is drawn in a bootstrap resample of the same size.
    static func resample(users: Int, _ random: inout SeededGenerator) -> [Float] {
        var counts = [Float](repeating: 0, count: users)
        for _ in 0..<users { counts[Int(random.next() % UInt64(users))] += 1 }
        return counts
    }

    /// Reads the logs session by session; returns what the reading left out or counted once.
    private static func read(_ paths: [String], _ take: @escaping (SessionTrace) -> Void) throws -> Reading {
        let assembler = SessionAssembler(take)
        _ = try EventLineReader.read(paths: paths, visitor: assembler)
        assembler.finish()
        return Reading(duplicateLines: assembler.duplicateLines, duplicateSessions: assembler.duplicateSessions,
                       orphanLines: assembler.orphanLines)
    }

    /// What a read of the logs left out or counted once.
    struct Reading {
        var duplicateLines: Int
        var duplicateSessions: Int
        var orphanLines: Int

        /// The warnings they make.
        func warnings(_ paths: [String]) -> [String] {
            var warnings: [String] = []
            let grouped = FittedPopulationWriter.grouped
            if duplicateLines > 0 {
                let sessions = duplicateSessions > 0
                    ? " (\(grouped(duplicateSessions)) whole session\(duplicateSessions == 1 ? "" : "s") among them)" : ""
                warnings.append("\(grouped(duplicateLines)) line\(duplicateLines == 1 ? " is" : "s are") in the logs more than once\(sessions) "
                                + "— a log named twice, copied into another, or lines repeated — and each was counted once")
            }
            if orphanLines > 0 {
                warnings.append("\(grouped(orphanLines)) line\(orphanLines == 1 ? "" : "s") of sessions whose session_started is not in "
                                + "\(paths.joined(separator: ", ")) (or that came after the session had ended) were left out")
            }
            return warnings
        }
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
    /// No `session_started` or `run` line names an app.
    case noApp(paths: [String])
    /// No session is of the app asked for; `logApp` is the logs' app when they are of one.
    case otherApp(app: String, sessions: String, logApp: String?)
    /// Sessions of several apps, and no app asked for.
    case severalApps(sessions: String)

    package var description: String {
        switch self {
        case .noSessions(let paths):
            "\(paths.joined(separator: ", ")) holds no sessions (no session_started events); fit reads Remix event logs "
                + "(docs/events.md)"
        case .noApp(let paths):
            "no session_started or run line of \(paths.joined(separator: ", ")) names its app; give the app with --app"
        case .otherApp(let app, let sessions, let logApp):
            "the logs hold no session of \(app) (sessions by app: \(sessions)), so --app \(app) would fit nothing; "
                + (logApp.map { "leave --app out to fit \($0), the logs' app" } ?? "give --app one of their apps")
        case .severalApps(let sessions):
            "the logs hold sessions of several apps (\(sessions)); give --app to fit one of them"
        }
    }
}
