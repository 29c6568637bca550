import Foundation
import RemixBuiltIns
import RemixHost
import RemixKit
import RemixSimulation
import RemixTestSupport
import Testing

/// Events are declared: every event a simulated run of each app writes is declared by a feature,
/// the host or the simulated users, and a metric naming an event nobody emits fails validation.
@Suite struct DeclaredEventsTests {
    @Test(arguments: ["marketplace", "groupbrowser", "calculator"])
    func everyLoggedEventIsDeclared(app: String) async throws {
        let folder = try TemporaryFolder()
        let log = folder.path("events.jsonl")
        let result = await Remix.run(["simulate", "--app", app, "--sessions", "300", "--no-report", "--log", log])
        #expect(result.status == 0, "\(result.stderr)")
        let observed = try Fixture.population().observedEvents
        let declared = Set(try BuiltInModules.registry().declaredEvents.map(\.name) + observed)
        let logged = Set(try readLog(log).map(\.type))
        #expect(logged.subtracting(declared).isEmpty, "undeclared: \(logged.subtracting(declared).sorted())")
        #expect(logged.count > 5, "the run logged its domain events: \(logged.sorted())")
    }

    @Test func featuresListsWhatEachFeatureEmits() async throws {
        let result = await Remix.run(["features"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("      emits advert_published (advert, group, title)"))
        #expect(result.stdout.contains("      emits sum_analysed (sum, prime, number, expression)"))
        // Apps list the service behaviour a population may set.
        #expect(result.stdout.contains("    service publishFailureRate: chance = 0 — Chance that one publish attempt fails"))
        #expect(result.stdout.contains("    service recommendationLatencySeconds: seconds = 2 — "))
    }

    /// An experiments folder of its own with insertion-flow (whose metric `misfiled-per-published`
    /// counts `advert_misfiled`, which only the shipped population's `check` logs) and the metrics
    /// file, and no population file.
    static func folderWithoutPopulation(_ folder: TemporaryFolder) throws -> String {
        let experiments = folder.path("experiments")
        try FileManager.default.createDirectory(atPath: experiments, withIntermediateDirectories: true)
        for name in ["insertion-flow.yaml", "metrics.yaml"] {
            try FileManager.default.copyItem(atPath: Fixture.experimentsPath + "/" + name, toPath: experiments + "/" + name)
        }
        return experiments
    }

    /// `validate` counts what the population `simulate` would run the folder with logs (here the
    /// shipped one, which the folder falls back to), as `simulate` does: no "no feature emits".
    @Test func validateCountsTheEventsOfThePopulationSimulateWouldUse() async throws {
        let folder = try TemporaryFolder()
        let experiments = try Self.folderWithoutPopulation(folder)
        let result = await Remix.run(["validate", experiments])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout == "1 experiment, 0 errors, 0 warnings\n")
    }

    /// A population without the `check` that logs an event (a fitted one has none) runs, and the
    /// warning names the population as the event's source, not a missing feature.
    @Test func aPopulationWithoutTheCheckIsNamedAsWhyTheMetricCountsNothing() async throws {
        let folder = try TemporaryFolder()
        let experiments = try Self.folderWithoutPopulation(folder)
        let shipped = try String(contentsOfFile: Fixture.populationPath, encoding: .utf8)
        let check = "    check: {row: title, detail: path, otherwise: advert_misfiled}   # shown in the wrong group?\n"
        #expect(shipped.contains(check))
        let population = try folder.write("fitted/population.yaml", shipped.replacingOccurrences(of: check, with: ""))
        let result = await Remix.run(["simulate", "--population", population, "--experiments", experiments, "--users", "20",
                                      "--no-report", "--log", folder.path("e.jsonl")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("no registered feature emits"), "\(result.stderr)")
        #expect(result.messages.contains("\(experiments)/insertion-flow.yaml:21:51: warning: metric 'misfiled-per-published' counts "
                                       + "the event 'advert_misfiled', which only a population's check logs (experiments/population.yaml), "
                                       + "and this run's population \(population) has no check that logs it: the metric counts nothing "
                                       + "in this run"), "\(result.stderr)")
    }

    @Test func aMisspeltMetricEventFailsValidationWithTheNearestEvent() async throws {
        let folder = try TemporaryFolder()
        let experiments = folder.path("experiments")
        try FileManager.default.copyItem(atPath: Fixture.experimentsPath, toPath: experiments)
        let file = experiments + "/insertion-flow.yaml"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try text.replacingOccurrences(of: "primary: advert_published", with: "primary: advert_publish")
            .write(toFile: file, atomically: false, encoding: .utf8)
        let result = await Remix.run(["validate", experiments])
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: unknown metric 'advert_publish': not a key of \(experiments)/metrics.yaml "
                                       + "and not an event any registered feature emits; did you mean 'advert_published'?"),
                "\(result.stderr)")
        // The error stands where the name is written, not at `metrics:`.
        let lines = try String(contentsOfFile: file, encoding: .utf8).components(separatedBy: "\n")
        let line = try #require(lines.firstIndex { $0.contains("primary: advert_publish") })
        let column = try #require(lines[line].range(of: "advert_publish")).lowerBound.utf16Offset(in: lines[line]) + 1
        #expect(result.stderr.contains("\(file):\(line + 1):\(column): error: unknown metric 'advert_publish'"), "\(result.stderr)")
    }
}
