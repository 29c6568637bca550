import Foundation
import RemixBuiltIns
import RemixExperiments
import RemixHost
import RemixSimulation
import RemixTestSupport
import Testing

/// What a simulation log holds: the run record, whole sessions in order, exposures.
@Suite struct LogStructureTests {
    @Test func theRunRecordListsThePopulationAndExperimentFilesWithHashes() async throws {
        let folder = try TemporaryFolder()
        let log = folder.path("run.jsonl")
        let result = await Remix.run(["simulate", "--sessions", "200", "--seed", "42", "--shard", "2/2", "--jobs", "1",
                                      "--log", log])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = try readLog(log)
        let run = try #require(lines.first)
        #expect(run.type == "run")
        #expect(run.session == "" && run.string("user") == "")
        #expect(run.ts == "2026-11-23T09:00:00.000Z")
        #expect(run.string("version") == SimulationRunner.version)
        #expect(run.string("app") == "marketplace")
        #expect(run.string("seed") == "42")
        #expect((run["users"] as? NSNumber)?.intValue == 200)
        #expect(run.string("shard") == "2/2")
        #expect((run["userIndices"] as? [NSNumber])?.map(\.intValue) == [100, 200])
        let sources = try #require(run["sources"] as? [[String: String]])
        let expectedFiles = [("population", "experiments/population.yaml"),
                             ("experiment", "experiments/calculator-entry.yaml"),
                             ("experiment", "experiments/groupbrowser-navigation.yaml"),
                             ("experiment", "experiments/insertion-flow.yaml"),
                             ("experiment", "experiments/tablet-auto-message.yaml"),
                             ("experiment", "experiments/uk-manual-first.yaml")]
        #expect(sources.map { [$0["role"] ?? "", $0["path"] ?? ""] } == expectedFiles.map { [$0.0, $0.1] })
        for source in sources {
            let bytes = try Data(contentsOf: Fixture.root.appendingPathComponent(source["path"] ?? ""))
            #expect(source["hash"] == fnv1a64([UInt8](bytes)), "hash of \(source["path"] ?? "")")
        }
        // Key order of the run record is fixed.
        #expect(run.text.hasPrefix(#"{"ts":"2026-11-23T09:00:00.000Z","type":"run","session":"","user":"","version":"#))
        #expect(lines.dropFirst().first?.session == "s42-100")
    }

    @Test func runSourceHashesAreFNV1a64() {
        #expect(RunSource(role: "r", path: "p", bytes: []).hash == "fnv1a64:cbf29ce484222325")
        #expect(RunSource(role: "r", path: "p", bytes: Array("a".utf8)).hash == "fnv1a64:af63dc4c8601ec8c")
        #expect(RunSource(role: "r", path: "p", bytes: Array("foobar".utf8)).hash == "fnv1a64:85944171f73967e8")
        #expect(fnv1a64(Array("foobar".utf8)) == "fnv1a64:85944171f73967e8")
    }

    @Test func everySessionIsWholeOrderedAndStamped() throws {
        let folder = try TemporaryFolder()
        let log = folder.path("events.jsonl")
        let summary = try Fixture.run(sessions: 600, seed: 9, jobs: 2, to: log)
        let lines = try readLog(log)
        #expect(lines.count == summary.events)
        #expect(lines.first?.type == "run")
        #expect(lines.dropFirst().allSatisfy { $0.type != "run" })
        let grouped = sessions(lines)
        #expect(grouped.count == 600, "each session's lines are contiguous")
        #expect(grouped.map(\.id) == (0..<600).map { "s9-\($0)" })
        var outcomes: [String: Int] = [:]
        var screens: [String: Int] = [:]
        for (index, session) in grouped.enumerated() {
            let first = session.lines[0], last = session.lines[session.lines.count - 1]
            #expect(first.type == "session_started", "\(session.id) starts with \(first.type)")
            #expect(last.type == "session_ended", "\(session.id) ends with \(last.type)")
            #expect(session.lines.filter { $0.type == "session_started" || $0.type == "session_ended" }.count == 2)
            let user = "u9-\(index)"
            #expect(session.lines.allSatisfy { $0.string("user") == user })
            #expect((first["attributes"] as? [String: String])?["id"] == user)
            // RFC 3339 with milliseconds in UTC sorts as text, so non-decreasing text is non-decreasing time.
            let stamps = session.lines.map(\.ts)
            #expect(stamps == stamps.sorted(), "\(session.id) goes back in time")
            #expect(stamps.allSatisfy { $0.count == 24 && $0.hasSuffix("Z") })
            // Sessions start sessionGapSeconds (2 s) apart from the population's start.
            let start = Date(timeIntervalSince1970: 1_795_424_400 + Double(index) * 2)
            #expect(first.ts == Self.format(start))
            let duration = (last["durationMs"] as? NSNumber)?.doubleValue ?? -1
            #expect(last.ts == Self.format(start.addingTimeInterval(duration / 1000)), "durationMs of \(session.id)")
            outcomes[last.string("outcome") ?? "?", default: 0] += 1
            screens[last.string("screen") ?? "?", default: 0] += 1
        }
        #expect(screens == summary.endScreens)
        #expect(outcomes["none"] == summary.sessionsWithoutIntent)
        #expect(Set(outcomes.keys).isSubset(of: IntentOutcome.allCases.map(\.rawValue) + ["none"]))
        #expect(summary.sessions == 600)
    }

    static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    @Test func exposuresAreOncePerSessionAndRunningExperimentOnTheSlot() throws {
        let folder = try TemporaryFolder()
        let log = folder.path("events.jsonl")
        let registry = try BuiltInModules.registry()
        let experiments = try Fixture.experiments(registry: registry)
        let summary = try Fixture.run(sessions: 800, seed: 4, jobs: 2, experiments: experiments, registry: registry, to: log)
        let onSlot = experiments.definitions(app: "marketplace", slot: "insertion").filter(\.isLive)
        #expect(Set(onSlot.map(\.key)) == ["insertion-flow", "tablet-auto-message", "uk-manual-first"])
        var inExperiment: [String: [String: Int]] = [:]
        for session in sessions(try readLog(log)) {
            let exposures = session.lines.filter { $0.type == "exposure" }
            let attributes = session.lines[0]["attributes"] as? [String: String] ?? [:]
            let inserted = session.lines.contains { $0.type == "insertion_started" }
            // The slot is used when an insertion starts: then every experiment on it is recorded once.
            #expect(exposures.isEmpty != inserted, "\(session.id): \(exposures.count) exposures, insertion \(inserted)")
            if inserted {
                let exposed: [String] = exposures.map { (exposure: LogLine) -> String in exposure.string("experiment") ?? "" }
                let keys: [String] = onSlot.map(\.key)
                #expect(exposed.sorted() == keys.sorted())
            }
            var winners = 0
            for exposure in exposures {
                #expect(exposure.string("app") == "marketplace" && exposure.string("slot") == "insertion")
                let key = try #require(exposure.string("experiment"))
                let definition = try #require(onSlot.first { $0.key == key }, "exposure for \(key)")
                guard (exposure["inExperiment"] as? NSNumber)?.boolValue == true else {
                    #expect(exposure["variation"] is NSNull && exposure["variationId"] is NSNull)
                    continue
                }
                winners += 1
                let variation = try #require(exposure.string("variation"))
                let id = try #require((exposure["variationId"] as? NSNumber)?.intValue)
                #expect(definition.variations[id].key == variation)
                #expect(exposure.string("feature") == definition.variations[id].feature)
                #expect((exposure["hashUsed"] as? NSNumber)?.boolValue == true)
                #expect(((exposure["bucket"] as? NSNumber)?.doubleValue).map { (0..<1).contains($0) } == true)
                inExperiment[key, default: [:]][variation, default: 0] += 1
                if key == "tablet-auto-message" {
                    #expect(attributes["platform"] == "tablet" && attributes["appVersion"] != "1.9.4")
                }
            }
            #expect(winners <= 1, "\(session.id) is in \(winners) experiments on one slot")
            // Exposure comes before the insertion it decides.
            if let exposure = session.lines.firstIndex(where: { $0.type == "exposure" }),
               let insertion = session.lines.firstIndex(where: { $0.type == "insertion_started" }) {
                #expect(exposure < insertion)
            }
        }
        // uk-manual-first is scheduled for December; the virtual clock is in November.
        #expect(inExperiment["uk-manual-first"] == nil)
        #expect((inExperiment["insertion-flow"]?.count ?? 0) == 3)
        #expect(!(inExperiment["tablet-auto-message"] ?? [:]).isEmpty)
        // The summary counts exactly the sessions that were in each variation.
        for (key, variations) in inExperiment {
            for (variation, count) in variations {
                #expect(summary.variations[key]?[variation]?.exposed == count, "\(key)/\(variation)")
            }
        }
        #expect(summary.variations["uk-manual-first"] == nil)
    }

    @Test func draftAndStoppedExperimentsNeverTakeTheSlot() throws {
        let folder = try TemporaryFolder()
        try folder.write("experiments/insertion-flow.yaml",
                         try String(contentsOfFile: Fixture.experimentsPath + "/insertion-flow.yaml", encoding: .utf8))
        for (key, status) in [("a-draft", "draft"), ("b-stopped", "stopped")] {
            // Sorted before insertion-flow, with no namespace: if live, they would take every session.
            try folder.write("experiments/\(key).yaml", """
                key: \(key)
                app: marketplace
                slot: insertion
                status: \(status)
                hashVersion: 2
                variations:
                  - {key: auto, feature: AutoGroupInsertion}
                  - {key: manual, feature: ManualGroupInsertion}
                """)
        }
        let registry = try BuiltInModules.registry()
        let experiments = try Fixture.experiments([folder.path("experiments")], registry: registry)
        #expect(experiments.definitions.map(\.key) == ["a-draft", "b-stopped", "insertion-flow"])
        let log = folder.path("events.jsonl")
        let summary = try Fixture.run(sessions: 300, seed: 8, experiments: experiments, registry: registry, to: log)
        let exposures = try readLog(log).filter { $0.type == "exposure" }
        let live = exposures.filter { ($0["inExperiment"] as? NSNumber)?.boolValue == true }
        #expect(!live.isEmpty)
        #expect(live.allSatisfy { $0.string("experiment") == "insertion-flow" })
        #expect(summary.variations.keys.sorted() == ["insertion-flow"])
        // Still at most one exposure per session and experiment.
        var seen = Set<String>()
        for exposure in exposures {
            #expect(seen.insert(exposure.session + "/" + (exposure.string("experiment") ?? "")).inserted)
        }
    }
}
