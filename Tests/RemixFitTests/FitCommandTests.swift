import Foundation
import RemixCLITestSupport
import RemixFit
import RemixTestSupport
import Testing

/// `remix fit`, `predict` and `compare` as a user runs them: the app read from the log, outputs
/// checked before any work, the replicates replaced whole and checked against their fit, metric
/// names checked.
@Suite struct FitCommandTests {
    /// A log of `users` users of `app`'s shipped population, with no experiment.
    static func log(app: String = "marketplace", users: Int, seed: UInt64 = 5, in folder: TemporaryFolder,
                    name: String = "log.jsonl") throws -> String {
        let none = folder.path("no-experiments")
        try FileManager.default.createDirectory(atPath: none, withIntermediateDirectories: true)
        let file = app == "marketplace" ? "population.yaml" : "\(app).population.yaml"
        let population = try Fixture.population(try String(contentsOfFile: Repository.experiments + "/" + file, encoding: .utf8))
        let log = folder.path(name)
        try Fixture.simulate(population, users: users, seed: seed, experiments: none, to: log)
        return log
    }

    @Test func theAppIsTheOneTheLogNames() async throws {
        let folder = try TemporaryFolder()
        let calculator = try Self.log(app: "calculator", users: 300, in: folder, name: "calculator.jsonl")
        let fitted = folder.path("calculator.population.yaml")
        let fit = await RemixInProcess.run(["fit", calculator, "--personas", "1", "--output", fitted])
        #expect(fit.status == 0, "\(fit.stderr)")
        #expect(try String(contentsOfFile: fitted, encoding: .utf8).contains("\napp: \"calculator\"\n"))

        let marketplace = try Self.log(users: 300, in: folder, name: "marketplace.jsonl")
        let wrong = folder.path("wrong.population.yaml")
        let refused = await RemixInProcess.run(["fit", marketplace, "--app", "calculator", "--output", wrong])
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("remix: ") && refused.stderr.contains("marketplace") && refused.stderr.contains("--app calculator"),
                "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: wrong))
    }

    @Test func anOutputInAFolderThatIsNotThereIsRefusedBeforeAnyWork() async throws {
        let folder = try TemporaryFolder()
        let log = try Self.log(users: 50, in: folder)
        let fit = await RemixInProcess.run(["fit", log, "--output", folder.path("nodir/f.yaml")])
        #expect(fit.status == 1)
        #expect(fit.stderr == "remix: --output \(folder.path("nodir/f.yaml")): the folder \(folder.path("nodir")) does not exist; "
                + "create it first\n", "\(fit.stderr)")
        let compare = await RemixInProcess.run(["compare", log, log, "--experiments", folder.path("no-experiments"),
                                                "--output", folder.path("nodir/c.txt")])
        #expect(compare.status == 1)
        #expect(compare.stderr == "remix: --output \(folder.path("nodir/c.txt")): the folder \(folder.path("nodir")) does not exist; "
                + "create it first\n", "\(compare.stderr)")
    }

    /// A refit replaces the replicates' folder whole, and `predict` uses only replicates of the
    /// fit beside them.
    @Test func replicatesAreReplacedWholeAndCheckedAgainstTheirFit() async throws {
        let folder = try TemporaryFolder()
        let first = try Self.log(users: 200, seed: 1, in: folder, name: "first.jsonl")
        let second = try Self.log(users: 200, seed: 2, in: folder, name: "second.jsonl")
        let fitted = folder.path("fitted.population.yaml"), replicates = folder.path("fitted.population.replicates")
        for (log, count) in [(first, "4"), (second, "2")] {
            let fit = await RemixInProcess.run(["fit", log, "--personas", "1", "--replicates", count, "--output", fitted])
            #expect(fit.status == 0, "\(fit.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: replicates).sorted() == ["1.population.yaml", "2.population.yaml"])

        // A replicate of another fit slipped in beside them.
        let other = folder.path("other.population.yaml")
        let fit = await RemixInProcess.run(["fit", first, "--personas", "1", "--replicates", "3", "--output", other])
        #expect(fit.status == 0, "\(fit.stderr)")
        try FileManager.default.copyItem(atPath: folder.path("other.population.replicates/3.population.yaml"),
                                         toPath: replicates + "/3.population.yaml")
        let experiments = try Fixture.insertionExperiment(["manual", "auto"], in: folder, name: "two")
        let predict = await RemixInProcess.run(["predict", fitted, "--experiments", experiments, "--users", "50"])
        #expect(predict.status == 1, "\(predict.stdout)")
        #expect(predict.stderr.contains("remix: ") && predict.stderr.contains("3.population.yaml"), "\(predict.stderr)")
    }

    @Test func aMisspelledMetricIsRefusedByPredictAndCompare() async throws {
        let folder = try TemporaryFolder()
        let log = try Self.log(users: 200, in: folder)
        let fitted = folder.path("fitted.population.yaml")
        let fit = await RemixInProcess.run(["fit", log, "--personas", "1", "--replicates", "2", "--output", fitted])
        #expect(fit.status == 0, "\(fit.stderr)")
        let experiments = try Fixture.insertionExperiment(["manual", "auto"], in: folder, name: "typo")
        let file = experiments + "/insertion-flow.yaml"
        try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(of: "primary: advert_published", with: "primary: advert_publishd")
            .write(toFile: file, atomically: false, encoding: .utf8)
        for arguments in [["predict", fitted, "--experiments", experiments, "--users", "50"],
                          ["compare", log, log, "--experiments", experiments]] {
            let result = await RemixInProcess.run(arguments)
            #expect(result.status == 1, "\(arguments[0]): \(result.stdout)")
            #expect(result.stderr.contains("unknown metric 'advert_publishd'") && result.stderr.contains("did you mean 'advert_published'?"),
                    "\(arguments[0]): \(result.stderr)")
        }
    }
}
