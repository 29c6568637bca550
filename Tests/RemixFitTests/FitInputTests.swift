import Foundation
import RemixAnalysis
import RemixBuiltIns
import RemixCLITestSupport
import RemixExperiments
import RemixFit
import RemixTestSupport
import Testing

/// What the fit reads: any Remix log — without the simulation-only fields, and a person's own
/// terminal sessions (`remix run --log`), where it says its intervals are wide.
@Suite struct FitInputTests {
    /// The fields only a simulated log has (the persona, the intent and its outcome) removed.
    static func strippingSimulationFields(_ text: String) -> String {
        text.replacing(#/,"(persona|intent|outcome)":("[^"]*"|null)/#, with: "")
    }

    @Test func theSimulationOnlyFieldsAreNeverNeeded() throws {
        let folder = try TemporaryFolder()
        let experiments = try Fixture.insertionExperiment(["manual", "auto"], in: folder, name: "two")
        let population = try Fixture.population(try String(contentsOfFile: Repository.experiments + "/population.yaml", encoding: .utf8))
        try FileManager.default.createDirectory(atPath: folder.path("full"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.path("stripped"), withIntermediateDirectories: true)
        let full = folder.path("full/log.jsonl"), stripped = folder.path("stripped/log.jsonl")
        try Fixture.simulate(population, users: 3000, seed: 5, experiments: experiments, to: full)
        let text = try String(contentsOfFile: full, encoding: .utf8)
        let bare = Self.strippingSimulationFields(text)
        #expect(!bare.contains(#""persona""#) && !bare.contains(#""outcome""#) && !bare.contains(#""intent""#))
        #expect(bare.count < text.count - 3000 * 20, "the fields were there to strip")
        try bare.write(toFile: stripped, atomically: false, encoding: .utf8)
        let fromFull = try Fixture.fit([full]).text
        let fromStripped = try Fixture.fit([stripped]).text
        #expect(fromFull.replacingOccurrences(of: full, with: "LOG") == fromStripped.replacingOccurrences(of: stripped, with: "LOG"))
    }

    /// A few sessions a person typed through `remix run --log`: the fit learns from them and says
    /// that so few users make wide intervals, in the file and on standard error.
    @Test func aPersonsTerminalSessionsFitAndSayTheirIntervalsAreWide() async throws {
        let folder = try TemporaryFolder()
        let log = folder.path("mine.jsonl")
        let sessions = [
            ("ana", "1\nb\n2\nb\nq\n"),
            ("ana", "5\n1\n2\n1\nRed bike\n2\nq\n"),
            ("ben", "5\n2\n1\nOld car\n2\n1\nb\nq\n"),
            ("ben", "6\nq\n"),
            ("cy", "5\nb\nq\n"),
        ]
        for (user, input) in sessions {
            let result = await RemixInProcess.run(["run", "--experiments", Repository.experiments, "--user", user, "--log", log], input: input)
            #expect(result.status == 0, "\(result.stderr)")
        }
        let fitted = try Fixture.fit([log], personas: .fixed(1))
        #expect(fitted.population.personas.count == 1)
        #expect(fitted.text.contains("only 3 users: the ± beside each value are wide"), "\(fitted.text)")

        let output = folder.path("mine.population.yaml")
        let command = await RemixInProcess.run(["fit", log, "--output", output])
        #expect(command.status == 0, "\(command.stderr)")
        #expect(command.stderr.contains("remix: note: only 3 users: the ± beside each value are wide"), "\(command.stderr)")
        let check = await RemixInProcess.run(["simulate", "--population", output, "--users", "50", "--no-report",
                                          "--log", folder.path("rehearsal.jsonl")])
        #expect(check.status == 0, "the fitted file runs as it is: \(check.stderr)")
    }
}

/// `remix predict`'s library: each variation's metrics with an interval from the replicates, and
/// the screens the fitted log never showed named.
@Suite struct PredictionTests {
    @Test func aPredictionGivesIntervalsAndNamesScreensTheLogNeverShowed() throws {
        let folder = try TemporaryFolder()
        let none = folder.path("no-experiments")
        try FileManager.default.createDirectory(atPath: none, withIntermediateDirectories: true)
        let two = try Fixture.insertionExperiment(["manual", "auto"], in: folder, name: "two")
        let population = try Fixture.population(try String(contentsOfFile: Repository.experiments + "/population.yaml", encoding: .utf8))
        // Without an experiment every session gets the slot's default flow (manual), so the log
        // never shows AutoGroupInsertion's toast.
        try Fixture.simulate(population, users: 3000, seed: 5, experiments: none, to: folder.path("log.jsonl"))
        let fitted = try Fixture.fit([folder.path("log.jsonl")], replicates: 4)
        #expect(!fitted.result.population.shownScreens.contains("toast"))
        let replicates = try fitted.result.replicates.map { try Fixture.population(FittedPopulationWriter.text($0)) }
        let (set, _) = ExperimentSet.load(paths: [two])
        let prediction = try PopulationPrediction.run(population: fitted.population, replicates: replicates, experiments: set,
                                                      catalog: MetricCatalog(), registry: try BuiltInModules.registry(), users: 3000,
                                                      seed: 7, jobs: 2, folder: folder.location)
        for variation in ["manual", "auto"] {
            let figure = try #require(prediction.figures.first { $0.variation == variation && $0.metric == "advert_published" })
            #expect(figure.low < figure.value && figure.value < figure.high, "\(variation): \(figure)")
            #expect(figure.high - figure.low < 0.2, "\(variation): \(figure)")
        }
        #expect(prediction.unseenScreens.contains("toast"), "\(prediction.unseenScreens)")
        let text = PredictionText.table(prediction)
        #expect(text.contains("4 replicates, 3,000 users each") && text.contains("toast"), "\(text)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.location).sorted() == ["log.jsonl", "no-experiments", "two"],
                "the prediction's logs are removed")
    }
}
