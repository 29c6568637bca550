import Foundation
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
    func badOptionsFailWithAClearMessage(arguments: [String], message: String) throws {
        let folder = try TemporaryFolder()
        let log = folder.path("events.jsonl")
        let result = try Remix.run(["simulate", "--log", log] + arguments)
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: log), "nothing is simulated")
        Self.expectNoCrash(result)
    }

    @Test(arguments: usageErrors)
    func badOptionsExitWithOne(arguments: [String], message: String) throws {
        let folder = try TemporaryFolder()
        let result = try Remix.run(["simulate", "--log", folder.path("events.jsonl")] + arguments)
        #expect(result.status == 1, "exit status \(result.status)")
    }

    @Test func anUnwritableLogFailsNamingThePath() throws {
        let result = try Remix.run(["simulate", "--sessions", "10", "--log", "/proc/nope/x.jsonl"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("remix: cannot open the event log /proc/nope/x.jsonl: "), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("choose a writable path with --log"))
        #expect(!result.stdout.contains("simulated"))
        Self.expectNoCrash(result)
    }

    @Test func aBrokenPopulationFileFailsWithPositionedProblems() throws {
        let folder = try TemporaryFolder()
        let population = try folder.write("population.yaml", """
            app: marketplace
            services: {publishFailureRate: 1.5}
            personas:
              - name: x
                startInsertoin: 1
            adverts: []

            """)
        let log = folder.path("events.jsonl")
        let result = try Remix.run(["simulate", "--sessions", "10", "--population", population, "--log", log])
        #expect(result.status == 1)
        for message in [
            "\(population):2:32: error: publishFailureRate is a chance and must be between 0 and 1, not 1.5",
            "\(population):5:5: error: unknown key 'startInsertoin' in a persona; did you mean 'startInsertion'?",
            "\(population):6:10: error: list at least one advert users mean to publish",
        ] {
            #expect(result.stderr.contains(message), "missing '\(message)' in: \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: log), "no log is opened for a broken population")
        Self.expectNoCrash(result)
        let malformed = try folder.write("malformed.yaml", "app: [unclosed\n")
        let second = try Remix.run(["simulate", "--population", malformed, "--log", log])
        #expect(second.status == 1)
        #expect(second.stderr.contains("\(malformed):2:1: error: malformed YAML"), "stderr: \(second.stderr)")
        Self.expectNoCrash(second)
        let missing = try Remix.run(["simulate", "--population", folder.path("nope.yaml"), "--log", log])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("\(folder.path("nope.yaml")):1:1: error: cannot read the population file"))
    }

    @Test func anUnknownAppIsReported() throws {
        let folder = try TemporaryFolder()
        let result = try Remix.run(["simulate", "--app", "marketplce", "--sessions", "5", "--log", folder.path("e.jsonl")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("unknown app 'marketplce'"), "stderr: \(result.stderr)")
        Self.expectNoCrash(result)
    }

    @Test func theSummaryListsSessionsEventsOutcomesAndVariations() throws {
        let folder = try TemporaryFolder()
        let log = folder.path("events.jsonl")
        let result = try Remix.run(["simulate", "--sessions", "500", "--seed", "3", "--jobs", "2", "--log", log])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "simulated marketplace into \(log) (seed 3, shard 1/1)")
        #expect(lines.contains("sessions   500"))
        let logLines = try readLog(log)
        #expect(lines.contains("events     \(logLines.count)"), "stdout: \(result.stdout)")
        // Outcomes: every outcome named, counts adding up to the sessions and matching the log.
        let outcomeLine = try #require(lines.first { $0.hasPrefix("outcomes   ") })
        var outcomes: [String: Int] = [:]
        for part in outcomeLine.dropFirst("outcomes   ".count).components(separatedBy: ", ") {
            let words = part.split(separator: " ")
            outcomes[String(words[0])] = Int(words[1])
        }
        #expect(Set(outcomes.keys) == ["published", "abandoned", "browsed", "failed", "exhausted"])
        #expect(outcomes.values.reduce(0, +) == 500)
        var logged: [String: Int] = [:]
        for line in logLines where line.type == "session_ended" { logged[line.string("outcome") ?? "", default: 0] += 1 }
        #expect(outcomes.filter { $0.value > 0 } == logged)
        // Per-variation exposures and conversions, e.g. "  auto: exposed 99, converted 88 (88.9%)".
        #expect(lines.contains("experiment insertion-flow"))
        #expect(lines.contains("experiment tablet-auto-message"))
        let pattern = #/^  (manual|auto|alternating|control|friendly): exposed (\d+), converted (\d+) \((\d+\.\d)%\)$/#
        let variations = lines.compactMap { try? pattern.wholeMatch(in: $0) }
        #expect(variations.count == 5, "stdout: \(result.stdout)")
        for match in variations {
            let exposed = Int(match.2) ?? 0, converted = Int(match.3) ?? -1
            #expect(exposed > 0 && converted >= 0 && converted <= exposed)
            #expect(match.4 == String(format: "%.1f", Double(converted) / Double(exposed) * 100))
        }
        #expect(lines.contains { $0.hasPrefix("elapsed    ") && $0.contains("sessions/s") })
        Self.expectNoCrash(result)
    }
}

/// The summary lists each experiment's variations in the order of its file, as the report does.
@Suite struct SummaryOrderTests {
    @Test func variationsFollowTheExperimentFile() throws {
        let folder = try TemporaryFolder()
        let result = try Remix.run(["simulate", "--sessions", "400", "--no-report", "--log", folder.path("e.jsonl")])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex(of: "experiment insertion-flow"))
        let names = lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.map { $0.split(separator: ":")[0].trimmingCharacters(in: .whitespaces) }
        #expect(names == ["manual", "auto", "alternating"])
    }
}
