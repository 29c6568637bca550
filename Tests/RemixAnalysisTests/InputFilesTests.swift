import Foundation
import RemixCLITestSupport
import RemixTestSupport
import Testing

/// Every command finds the files it is not given by one rule: the experiment's app's population
/// first, in the experiments folder then `./experiments`, an error listing the paths tried, and the
/// metrics shipped with `remix` when neither folder has a metrics.yaml.
@Suite struct InputFilesTests {
    static var shipped: String { Repository.root.appendingPathComponent("experiments").path }

    @Test func planSimulateFindsThePopulationOfTheExperimentsApp() async throws {
        let result = await RemixInProcess.run(["plan", "--simulate", "--experiment", "calculator-entry", "--sizes", "40", "--runs", "10"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("population experiments/calculator.population.yaml)"), "\(result.stdout)")
    }

    @Test func aMissingPopulationIsAnErrorListingThePathsTried() throws {
        let folder = try TemporaryFolder()
        try folder.write("exp/calculator-entry.yaml", try String(contentsOfFile: Self.shipped + "/calculator-entry.yaml", encoding: .utf8))
        let tried = "tried exp/calculator.population.yaml, exp/population.yaml, experiments/calculator.population.yaml, "
            + "experiments/population.yaml; give --population FILE"
        for arguments in [["plan", "--simulate", "--experiment", "calculator-entry", "--experiments", "exp", "--runs", "10"],
                          ["check", "aa", "--experiment", "calculator-entry", "--experiments", "exp"],
                          ["simulate", "--app", "calculator", "--experiments", "exp"]] {
            let result = try RemixProcess.run(arguments, in: folder.url)
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("remix: no population file for app 'calculator': \(tried)"), "\(arguments): \(result.stderr)")
        }
    }

    @Test func aFolderWithoutMetricsUsesTheShippedOnesAndSaysSo() throws {
        let folder = try TemporaryFolder()
        for name in ["insertion-flow.yaml", "saved-groups.yaml", "population.yaml"] {
            try folder.write("new/\(name)", try String(contentsOfFile: Self.shipped + "/\(name)", encoding: .utf8))
        }
        let note = "remix: note: new/metrics.yaml and experiments/metrics.yaml do not exist; the metrics are those shipped with remix ("
        let validated = try RemixProcess.run(["validate", "new"], in: folder.url)
        #expect(validated.status == 0 && validated.stdout == "1 experiment, 0 errors, 0 warnings\n", "\(validated.stderr)")
        #expect(validated.stderr.hasPrefix(note) && validated.stderr.contains("copy that file to new/metrics.yaml"), "\(validated.stderr)")
        let simulated = try RemixProcess.run(["simulate", "--experiments", "new", "--users", "200", "--jobs", "1"], in: folder.url)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        #expect(simulated.messages.components(separatedBy: note).count == 2, "said once: \(simulated.stderr)")
        #expect(simulated.stdout.contains("insertion-flow: primary advert_published"), "\(simulated.stdout)")
        // ./experiments is the next place, and its metrics file is said.
        try folder.write("experiments/metrics.yaml", try String(contentsOfFile: Self.shipped + "/metrics.yaml", encoding: .utf8))
        let beside = try RemixProcess.run(["validate", "new"], in: folder.url)
        #expect(beside.status == 0 && beside.stderr == "remix: note: new/metrics.yaml does not exist; the metrics are those of "
                + "experiments/metrics.yaml\n", "\(beside.stderr)")
    }

    /// The metrics an installed `remix` falls back to are the repository's, byte for byte.
    @Test func theShippedMetricsAreTheExperimentsFolders() throws {
        let root = Repository.root
        let bundled = try Data(contentsOf: root.appendingPathComponent("Sources/RemixBuiltIns/Resources/metrics.yaml"))
        #expect(bundled == (try Data(contentsOf: root.appendingPathComponent("experiments/metrics.yaml"))),
                "copy experiments/metrics.yaml to Sources/RemixBuiltIns/Resources/metrics.yaml")
    }
}
