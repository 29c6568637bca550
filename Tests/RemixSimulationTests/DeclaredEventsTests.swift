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
