import Foundation
import RemixBuiltIns
import RemixTestSupport
import RemixExperiments
import RemixHost
import RemixSimulation
import Testing

/// Personas and service behaviour really change what simulated users do.
@Suite struct PersonaTests {
    /// A population with one persona and the given behaviour.
    static func yaml(failureRate: Double, retry: Double, abandon: Double = 0, startInsertion: Double = 1,
                     values: String? = nil) -> String {
        """
        app: marketplace
        start: 2026-11-23T09:00:00Z
        attributes:
          platform: {phone: 0.5, tablet: 0.5}
          appVersion: {"2.1.0": 1}
          country: {GB: 0.5, DE: 0.5}
        services:
          publishFailureRate: \(failureRate)
          recommendationLatencySeconds: [1, 2]
        intents:
          publish:
            start: {press: primary}
            success: advert_published
            check: {row: title, detail: path, otherwise: advert_misfiled}
            values:
        \(values ?? """
              - {title: "Mountain bike, 29 inch wheels", path: [Bicycles, Off road bikes, Mountain bikes]}
              - {title: "Racing bike, Shimano 105", path: [Bicycles, Racers]}
              - {title: "Fiat Panda 2014, low mileage", path: [Cars]}
              - {title: "Toyota Yaris hybrid", path: [Cars]}
        """)
        personas:
          - name: determined
            weight: 1
            intents: {publish: \(startInsertion)}
            abandon: {groups: \(abandon), title: \(abandon), item: \(abandon)}
            thinkSeconds: [0.5, 1.5]
            typingSecondsPerCharacter: 0.1
            retryAfterError: \(retry)
        """
    }

    struct Run {
        let summary: SimulationSummary
        let lines: [LogLine]
        var published: Int { outcome(.achieved) }
        func outcome(_ outcome: IntentOutcome) -> Int { summary.intents["publish"]?.outcomes[outcome] ?? 0 }
    }

    static func run(_ yaml: String, sessions: Int = 300, experiments: ExperimentSet? = nil) throws -> Run {
        let folder = try TemporaryFolder()
        let log = folder.path("events.jsonl")
        let summary = try Fixture.run(sessions: sessions, seed: 21, jobs: 2, population: try Fixture.population(yaml: yaml),
                                      experiments: experiments, to: log)
        return Run(summary: summary, lines: try readLog(log))
    }

    @Test func aPersonaThatNeverGivesUpConvertsInEverySession() throws {
        let run = try Self.run(Self.yaml(failureRate: 0, retry: 1))
        #expect(run.summary.sessions == 300)
        #expect(run.published == 300, "outcomes: \(run.summary.intents)")
        let ended = run.lines.filter { $0.type == "session_ended" }
        #expect(ended.count == 300)
        #expect(ended.allSatisfy { $0.string("outcome") == "achieved" && $0.string("intent") == "publish" })
        #expect(run.lines.filter { $0.type == "advert_published" }.count == 300)
        #expect(run.lines.filter { $0.type == "publish_failed" }.isEmpty)
        #expect(run.lines.filter { $0.type == "insertion_cancelled" }.isEmpty)
    }

    @Test func failuresWithoutRetryLowerConversions() throws {
        let baseline = try Self.run(Self.yaml(failureRate: 0, retry: 1))
        let failing = try Self.run(Self.yaml(failureRate: 0.5, retry: 0))
        #expect(failing.published < baseline.published)
        // Roughly half fail once and then give up.
        #expect(failing.published > 90 && failing.published < 210, "published \(failing.published)")
        #expect(failing.outcome(.error) > 90)
        #expect(failing.published + failing.outcome(.error) == 300, "\(failing.summary.intents)")
        #expect(failing.summary.intents["publish"]?.screens[.error]?.keys.sorted() == ["title"])
        #expect(failing.lines.contains { $0.type == "publish_failed" })
        // Retrying after a failure wins some of them back.
        let retrying = try Self.run(Self.yaml(failureRate: 0.5, retry: 1))
        #expect(retrying.published > failing.published)
    }

    @Test func raisingThePublishFailureRateLowersConversions() throws {
        let counts = try [0.0, 0.2, 0.5, 0.8, 1.0].map { rate in
            try Self.run(Self.yaml(failureRate: rate, retry: 0.5), sessions: 200).published
        }
        #expect(counts[0] == 200)
        for (higher, lower) in zip(counts, counts.dropFirst()) {
            #expect(lower < higher, "conversions by failure rate: \(counts)")
        }
        #expect(counts.last == 0, "nothing publishes when every publish fails")
    }

    @Test func abandonChancesLowerConversions() throws {
        let patient = try Self.run(Self.yaml(failureRate: 0, retry: 1), sessions: 200)
        let impatient = try Self.run(Self.yaml(failureRate: 0, retry: 1, abandon: 0.3), sessions: 200)
        #expect(impatient.published < patient.published)
        #expect(impatient.outcome(.abandoned) > 0)
        #expect(Set(impatient.summary.intents["publish"]?.screens[.abandoned]?.keys ?? [:].keys) == ["groups", "title"])
        let never = try Self.run(Self.yaml(failureRate: 0, retry: 1, startInsertion: 0), sessions: 200)
        #expect(never.published == 0)
        #expect(never.summary.sessionsWithoutIntent == 200)
        #expect(never.lines.filter { $0.type == "session_ended" }.allSatisfy { $0.string("outcome") == "none" })
        #expect(!never.lines.contains { $0.type == "insertion_started" || $0.type == "exposure" })
    }

    /// An experiments folder with one experiment on the insertion slot forcing `force`.
    static func forcing(_ force: Int, in folder: TemporaryFolder) throws -> ExperimentSet {
        try folder.write("experiments/forced.yaml", """
            key: forced-flow
            app: marketplace
            slot: insertion
            status: running
            variations:
              - {key: auto, feature: AutoGroupInsertion}
              - {key: manual, feature: ManualGroupInsertion}
            force: \(force)
            """)
        return try Fixture.experiments([folder.path("experiments")], registry: try BuiltInModules.registry())
    }

    static let carbonRacer = #"      - {title: "Carbon road racer", path: [Bicycles, Racers]}"#

    @Test func autoGroupInsertionMisfilesCarbonRoadRacerUnderCars() throws {
        let folder = try TemporaryFolder()
        let run = try Self.run(Self.yaml(failureRate: 0, retry: 1, values: Self.carbonRacer), sessions: 200,
                               experiments: try Self.forcing(0, in: folder))
        #expect(run.published == 200)
        let exposures = run.lines.filter { $0.type == "exposure" }
        #expect(exposures.count == 200)
        #expect(exposures.allSatisfy { $0.string("variation") == "auto" && $0.string("feature") == "AutoGroupInsertion" })
        #expect(run.lines.filter { $0.type == "group_recommended" }.count >= 200)
        let misfiled = run.lines.filter { $0.type == "advert_misfiled" }
        #expect(misfiled.count == 200, "one advert_misfiled per published session")
        #expect(misfiled.allSatisfy { $0.string("shownIn") == "Cars" && $0.string("intended") == "Racers" })
        // The misfiling is noticed back on the list, just before the session ends.
        for session in sessions(run.lines) {
            let types = session.lines.map(\.type)
            #expect(types.suffix(2) == ["advert_misfiled", "session_ended"], "\(session.id): \(types.suffix(3))")
        }
    }

    @Test func manualInsertionFilesCarbonRoadRacerWhereTheUserMeantIt() throws {
        let folder = try TemporaryFolder()
        let run = try Self.run(Self.yaml(failureRate: 0, retry: 1, values: Self.carbonRacer), sessions: 200,
                               experiments: try Self.forcing(1, in: folder))
        #expect(run.published == 200)
        #expect(run.lines.filter { $0.type == "exposure" }.allSatisfy { $0.string("variation") == "manual" })
        #expect(!run.lines.contains { $0.type == "advert_misfiled" })
        #expect(!run.lines.contains { $0.type == "group_recommended" })
    }
}
