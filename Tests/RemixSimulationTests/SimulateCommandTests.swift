import Foundation
import RemixFormats
import RemixKit
@testable import RemixSimulation
import RemixTestSupport
import Testing

/// `remix simulate` as a user runs it: bad input fails clearly, a good run prints its summary.
@Suite struct SimulateCommandTests {
    /// No crash trace, no Swift runtime failure, no backtrace.
    static func expectNoCrash(_ result: Remix.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        for marker in ["Fatal error", "Swift runtime failure", "Backtrac", "Stack dump", "Segmentation"] {
            #expect(!result.stderr.contains(marker), "crash marker '\(marker)' in: \(result.stderr)",
                    sourceLocation: sourceLocation)
        }
    }

    static let usageErrors: [([String], String)] = [
        (["--sessions", "0"], "--sessions must be at least 1 (got 0)"),
        (["--jobs", "0"], "--jobs must be at least 1 (got 0)"),
        (["--shard", "5/4"], "--shard must be I/N with 1 ≤ I ≤ N, e.g. 2/4 (got '5/4')"),
    ]

    @Test(arguments: usageErrors)
    func badOptionsFailWithAClearMessage(arguments: [String], message: String) async throws {
        let folder = try TemporaryFolder()
        let log = folder.path("events.jsonl")
        let result = await Remix.run(["simulate", "--log", log] + arguments)
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: log), "nothing is simulated")
        Self.expectNoCrash(result)
    }

    @Test(arguments: usageErrors)
    func badOptionsExitWithOne(arguments: [String], message: String) async throws {
        let folder = try TemporaryFolder()
        let result = await Remix.run(["simulate", "--log", folder.path("events.jsonl")] + arguments)
        #expect(result.status == 1, "exit status \(result.status)")
    }

    @Test func anUnwritableLogFailsNamingThePath() async throws {
        let result = await Remix.run(["simulate", "--sessions", "10", "--log", "/proc/nope/x.jsonl"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("remix: cannot open the event log /proc/nope/x.jsonl: "), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("choose a writable path with --log"))
        #expect(!result.stdout.contains("simulated"))
        Self.expectNoCrash(result)
    }

    @Test func aBrokenPopulationFileFailsWithPositionedProblems() async throws {
        let folder = try TemporaryFolder()
        let population = try folder.write("population.yaml", """
            app: marketplace
            services: {publishFailureRate: 1.5}
            intents: {publish: {success: advert_publishd}}
            personas:
              - name: x
                retryAfterEror: 1

            """)
        let log = folder.path("events.jsonl")
        let result = await Remix.run(["simulate", "--sessions", "10", "--population", population, "--log", log])
        #expect(result.status == 1)
        #expect(result.stderr.contains(
            "\(population):6:5: error: unknown key 'retryAfterEror' in a persona; did you mean 'retryAfterError'?"), "\(result.stderr)")
        // The file alone reads well once the key is fixed; checked against the app, its values are wrong.
        try String(contentsOfFile: population, encoding: .utf8).replacingOccurrences(of: "retryAfterEror", with: "retryAfterError")
            .write(toFile: population, atomically: false, encoding: .utf8)
        let checked = await Remix.run(["simulate", "--sessions", "10", "--population", population, "--log", log])
        #expect(checked.status == 1)
        for message in [
            "\(population):2:12: error: publishFailureRate is a chance and must be between 0 and 1, not 1.5",
            "\(population):3:30: error: no feature of this host emits 'advert_publishd', so intent 'publish' could never succeed; "
                + "did you mean 'advert_published'?",
        ] {
            #expect(checked.stderr.contains(message), "missing '\(message)' in: \(checked.stderr)")
        }
        let unknown = await Remix.run(["simulate", "--sessions", "10", "--population", population, "--app", "calculator", "--log", log])
        #expect(unknown.stderr.contains("error: app 'calculator' has no service parameter 'publishFailureRate'; "
                                        + "calculator declares no service parameters"), "\(unknown.stderr)")
        #expect(!FileManager.default.fileExists(atPath: log), "no log is opened for a broken population")
        Self.expectNoCrash(result)
        let malformed = try folder.write("malformed.yaml", "app: [unclosed\n")
        let second = await Remix.run(["simulate", "--population", malformed, "--log", log])
        #expect(second.status == 1)
        #expect(second.stderr.contains("\(malformed):2:1: error: malformed YAML"), "stderr: \(second.stderr)")
        Self.expectNoCrash(second)
        let missing = await Remix.run(["simulate", "--population", folder.path("nope.yaml"), "--log", log])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("\(folder.path("nope.yaml")):1:1: error: cannot read the population file"))
    }

    @Test func anAbandonChanceForAScreenNoSessionShowedIsAPositionedWarning() async throws {
        let folder = try TemporaryFolder()
        let shipped = try String(contentsOfFile: Fixture.populationPath, encoding: .utf8)
        let population = try folder.write("population.yaml", shipped.replacingOccurrences(
            of: "abandon: {groups: 0.04, filter: 0.04, title: 0.05", with: "abandon: {groups: 0.04, filter: 0.04, titel: 0.05"))
        let result = await Remix.run(["simulate", "--sessions", "100", "--population", population, "--no-report",
                                      "--log", folder.path("e.jsonl"), "--wide"])
        #expect(result.status == 0, "a warning does not fail the run: \(result.stderr)")
        #expect(result.stderr.contains("\(population):52:43: warning: persona 'decisive seller' may abandon on screen 'titel', "
                                       + "but no session showed a screen of that name (did you mean 'title'?)"), "\(result.stderr)")
    }

    /// A chance of 0 changes nothing, so it is no warning: a fitted population writes one for each
    /// screen its log never saw a step on (Marketplace's `toast`).
    @Test func aZeroAbandonChanceForAScreenNoSessionShowedIsNoWarning() async throws {
        let folder = try TemporaryFolder()
        let shipped = try String(contentsOfFile: Fixture.populationPath, encoding: .utf8)
        let population = try folder.write("population.yaml", shipped.replacingOccurrences(
            of: "abandon: {groups: 0.04, filter: 0.04, title: 0.05", with: "abandon: {groups: 0.04, filter: 0.04, toast: 0, title: 0.05"))
        let result = await Remix.run(["simulate", "--sessions", "100", "--population", population, "--no-report",
                                      "--log", folder.path("e.jsonl")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("may abandon on screen"), "\(result.stderr)")
    }

    @Test func anUnknownAppIsReported() async throws {
        let folder = try TemporaryFolder()
        let result = await Remix.run(["simulate", "--app", "marketplce", "--sessions", "5", "--log", folder.path("e.jsonl")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("unknown app 'marketplce'"), "stderr: \(result.stderr)")
        Self.expectNoCrash(result)
    }

    @Test func theSummaryListsSessionsEventsOutcomesAndVariations() async throws {
        let folder = try TemporaryFolder()
        let log = folder.path("events.jsonl")
        let result = await Remix.run(["simulate", "--sessions", "500", "--seed", "3", "--jobs", "2", "--log", log, "--wide"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "simulated marketplace into \(log) (seed 3, shard 1/1)")
        #expect(lines.contains("users      500 (500 sessions)"))
        let logLines = try readLog(log)
        #expect(lines.contains("events     \(CountText.grouped(logLines.count))"), "stdout: \(result.stdout)")
        // Intents: every outcome named, in the population's order, tries matching the log's session ends.
        let intentLines: [String] = lines.filter { (line: String) -> Bool in
            line.hasPrefix("intents    ") || (line.hasPrefix("           ") && !line.hasPrefix("            "))
        }
        let intents: [Substring] = intentLines.map { (line: String) -> Substring in line.dropFirst(11).prefix { (c: Character) -> Bool in c != ":" } }
        #expect(intents == ["browse", "filter", "publish", "(none)"], "\(intentLines)")
        let pattern = #/^.{11}(\w+): tried (\d+) — achieved (\d+) \(\d+\.\d%\), abandoned (\d+), error (\d+), stuck (\d+), exhausted (\d+)$/#
        let tries = intentLines.compactMap { try? pattern.wholeMatch(in: $0) }
        #expect(tries.count == 3)
        for match in tries {
            let parts: [Substring] = [match.3, match.4, match.5, match.6, match.7]
            let total = parts.compactMap { Int($0) }.reduce(0, +)
            #expect(Int(match.2) == total)
        }
        var logged: [String: Int] = [:]
        for line in logLines where line.type == "session_ended" && line.string("intent") == "publish" {
            logged[line.string("outcome") ?? "", default: 0] += 1
        }
        let publish = try #require(tries.last)
        #expect(logged["achieved"] == Int(publish.3) && (logged["abandoned"] ?? 0) == Int(publish.4))
        #expect(lines.contains { $0.hasPrefix("ended on   adverts ") })
        // Per-variation exposures and achieved intents, e.g. "  auto: 99 exposed sessions, intent achieved in 88 (88.9%)".
        #expect(lines.contains("experiment insertion-flow"))
        #expect(lines.contains("experiment tablet-auto-message"))
        let variationPattern = #/^  (manual|auto|alternating|control|friendly): (\d+) exposed sessions, intent achieved in (\d+) \((\d+\.\d)%\)$/#
        let variations = lines.compactMap { try? variationPattern.wholeMatch(in: $0) }
        #expect(variations.count == 5, "stdout: \(result.stdout)")
        for match in variations {
            let exposed = Int(match.2) ?? 0, achieved = Int(match.3) ?? -1
            #expect(exposed > 0 && achieved >= 0 && achieved <= exposed)
            #expect(match.4 == String(format: "%.1f", Double(achieved) / Double(exposed) * 100))
        }
        #expect(lines.contains { $0.hasPrefix("elapsed    ") && $0.contains("sessions/s") })
        // The shipped guardrails declare that lower is better: no chance of a mere rise (↑) is shown.
        #expect(result.stdout.contains("cancelled ↓ (guardrail)") && result.stdout.contains("publish-failed ↓ (guardrail)"))
        #expect(!result.stdout.contains("↑ ") && !result.stdout.contains("warning"), "stdout: \(result.stdout)")
        Self.expectNoCrash(result)
    }
}

/// The summary lists each experiment's variations in the order of its file, as the report does.
@Suite struct SummaryOrderTests {
    /// Counts have thousands separators from 1,000 on, as the report's do; a variation's count is
    /// of exposed sessions (the report's units are users), and says so.
    @Test func countsAreGroupedAndExposuresAreSessions() {
        var summary = SimulationSummary()
        summary.users = 9228
        summary.sessions = 10_625
        summary.events = 123_456
        summary.variations = ["e": ["a": .init(exposed: 1234, achieved: 1000)]]
        let lines = summary.text.split(separator: "\n").map(String.init)
        #expect(lines.contains("users      9,228 (10,625 sessions)") && lines.contains("events     123,456"), "\(lines)")
        #expect(lines.contains("  a: 1,234 exposed sessions, intent achieved in 1,000 (81.0%)"), "\(lines)")
    }

    @Test func variationsFollowTheExperimentFile() async throws {
        let folder = try TemporaryFolder()
        let result = await Remix.run(["simulate", "--sessions", "400", "--no-report", "--log", folder.path("e.jsonl")])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex(of: "experiment insertion-flow"))
        let names = lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.map { $0.split(separator: ":")[0].trimmingCharacters(in: .whitespaces) }
        #expect(names == ["manual", "auto", "alternating"])
    }
}

/// A screen that got a name of its own: a population written before gives it only the old key.
@Suite struct RenamedScreenTests {
    @Test func aPopulationThatNamesOnlyTheOldScreenIsPointedToTheNewName() async throws {
        let folder = try TemporaryFolder()
        let experiments = folder.path("experiments")
        try FileManager.default.copyItem(atPath: Fixture.experimentsPath, toPath: experiments)
        let file = experiments + "/population.yaml"
        let shipped = try String(contentsOfFile: file, encoding: .utf8)
        try shipped.replacingOccurrences(of: "abandon: {groups: 0.04, filter: 0.04,", with: "abandon: {groups: 0.04,")
            .write(toFile: file, atomically: false, encoding: .utf8)
        let expected = "\(file):52:15: warning: persona 'decisive seller': 'groups' also named the advert list's filter picker "
            + "before, which is 'filter' now; 'groups' now names only the other screen, so 'filter' gets the default chance (0) "
            + "— add 'filter: 0.04' to keep what the file meant"
        let validated = await Remix.run(["validate", experiments])
        #expect(validated.status == 0, "a warning: \(validated.stderr)")
        #expect(validated.stderr.contains(expected), "\(validated.stderr)")
        let simulated = await Remix.run(["simulate", "--sessions", "20", "--experiments", experiments, "--no-report",
                                         "--log", folder.path("e.jsonl"), "--wide"])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        #expect(simulated.stderr.contains(expected), "\(simulated.stderr)")
        #expect(!simulated.stderr.contains("hesitant seller': 'groups'"), "the other personas name both")
    }
}
