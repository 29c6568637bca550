import Foundation
import RemixAnalysis
import RemixBuiltIns
import RemixExperiments
import RemixFit
import RemixTestSupport
import Testing

/// What the fit and the prediction write stays within what it means: a fitted file within the
/// population format's limits (so `simulate` runs it), a proportion's interval within 0–100 %.
@Suite struct FitBoundsTests {
    /// Users who come back 400 days later and think for three days first, and users who each open a
    /// screen of their own that no action of the app shows: a fitted file within the format's
    /// limits (`daysBetweenVisits` at most 366, times at most a day), whose notes say so once each.
    @Test func aFittedFileKeepsThePopulationFormatsLimits() throws {
        var log = HandLog()
        for user in 0..<200 {
            for visit in 1...2 {
                let session = "s\(user)-\(visit)", id = "u\(user)"
                var time = HandLog.start + Int64(user) * 60_000 + Int64(visit - 1) * 400 * 86_400_000
                log.started(session, id, at: time, visit: visit)
                log.screen(session, id, at: time, "show", "adverts", stack: "adverts")
                time += 3 * 86_400_000
                log.screen(session, id, at: time, "push", "item(Apollo Jewel)", stack: "adverts > item(Apollo Jewel)")
                time += 2000
                log.screen(session, id, at: time, "back", "item(Apollo Jewel)", stack: "adverts")
                log.ended(session, id, at: time + 1000)
            }
        }
        for user in 0..<3000 {
            let session = "x\(user)", id = "x\(user)", screen = "unknown\(user)"
            let time = HandLog.start + Int64(user) * 1000
            log.started(session, id, at: time)
            log.screen(session, id, at: time, "show", "adverts", stack: "adverts")
            log.screen(session, id, at: time + 1500, "push", screen, stack: "adverts > \(screen)")
            log.screen(session, id, at: time + 3000, "back", screen, stack: "adverts")
            log.ended(session, id, at: time + 4000)
        }
        let folder = try TemporaryFolder()
        let fitted = try Fixture.fit([try folder.write("far.jsonl", log.text)], personas: .fixed(1))
        let notes = fitted.text.split(separator: "\n").filter { $0.hasPrefix("#   - ") }
        #expect(notes.count < 10, "\(notes.prefix(12))")
        #expect(fitted.text.utf8.count < 100_000)
        let persona = try #require(fitted.population.personas.first)
        #expect(persona.daysBetweenVisits.max <= 366 && persona.think.max <= 86_400)
        #expect(notes.contains { $0.contains("366") }, "\(notes)")
    }

    /// Users who each type a number no one else types: the file keeps the values users meant most
    /// often, up to a thousand, and says how many successes the others come from.
    @Test func aFittedFileKeepsAThousandValuesAtMost() throws {
        var log = HandLog()
        for user in 0..<1200 {
            let session = "c\(user)", id = "c\(user)"
            let time = HandLog.start + Int64(user) * 10_000
            log.started(session, id, at: time, app: "calculator")
            log.screen(session, id, at: time, "show", "sum", stack: "sum")
            log.line(time + 2000, "sum_analysed", session, id, #","sum":\#(user + 1),"prime":false,"number":["\#(user)","1"]"#)
            log.screen(session, id, at: time + 2000, "present", "prime", stack: "sum ^ prime")
            log.ended(session, id, at: time + 3000)
        }
        let folder = try TemporaryFolder()
        let fitted = try Fixture.fit([try folder.write("numbers.jsonl", log.text)], app: "calculator", personas: .fixed(1))
        let values = fitted.text.split(separator: "\n").filter { $0.hasPrefix("      - {") }
        #expect(values.count == 1000)
        #expect(fitted.text.contains("#   - values of sum_analysed: the 1 000 users meant most often are written; rarer ones, from 200 "
                                     + "successes, are left out"), "\(fitted.text.prefix(1500))")
    }

    /// With a few users per simulation a conversion near 100 % varies much between replicates; its
    /// interval still lies within 0–100 %.
    @Test func aProportionsIntervalStaysWithinZeroAndOne() throws {
        let folder = try TemporaryFolder()
        let none = folder.path("no-experiments")
        try FileManager.default.createDirectory(atPath: none, withIntermediateDirectories: true)
        let two = try Fixture.insertionExperiment(["manual", "auto"], in: folder, name: "two")
        let population = try Fixture.population(try String(contentsOfFile: Repository.experiments + "/population.yaml", encoding: .utf8))
        try Fixture.simulate(population, users: 1000, seed: 5, experiments: two, to: folder.path("log.jsonl"))
        let fitted = try Fixture.fit([folder.path("log.jsonl")], personas: .fixed(1), replicates: 6)
        let replicates = try fitted.result.replicates.map { try Fixture.population(FittedPopulationWriter.text($0)) }
        let (set, _) = ExperimentSet.load(paths: [two])
        let prediction = try PopulationPrediction.run(population: fitted.population, replicates: replicates, experiments: set,
                                                      catalog: MetricCatalog(), registry: try BuiltInModules.registry(), users: 30,
                                                      seed: 7, jobs: 2, folder: none)
        let rates = prediction.figures.filter { $0.kind == "rate" }
        #expect(!rates.isEmpty)
        for figure in rates {
            #expect(figure.low >= 0 && figure.low <= figure.value && figure.value <= figure.high && figure.high <= 1, "\(figure)")
        }
    }
}
