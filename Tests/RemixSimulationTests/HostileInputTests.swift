import Foundation
import RemixTestSupport
import Testing

/// Attacks on `remix simulate` that once trapped, overwrote files or wrote wrong times (issue 21):
/// each is now a clear error with exit 1, and nothing already on disk is lost.
@Suite struct HostileInputTests {
    /// The shipped population with every `key:` line (top level, service or persona) set to `value`;
    /// a key written at the top level is replaced only there (`start` is also an intent's key).
    static func population(in folder: TemporaryFolder, replacing key: String, with value: String) throws -> String {
        let shipped = try String(contentsOfFile: Fixture.populationPath, encoding: .utf8)
        let topLevel = shipped.split(separator: "\n").contains { $0.hasPrefix(key + ":") }
        let lines = shipped.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let field = line.drop { $0 == " " || $0 == "-" }
            guard field.hasPrefix(key + ":"), !topLevel || field.count == line.count else { return String(line) }
            return line.prefix(line.count - field.count) + key + ": " + value
        }
        return try folder.write("population.yaml", lines.joined(separator: "\n"))
    }

    static let hugeValues: [(String, String, String)] = [
        ("sessionGapSeconds", "1e300", "sessionGapSeconds must be at most 31622400 (366 days), not 1e+300"),
        ("sessionGapSeconds", "1e13", "sessionGapSeconds must be at most 31622400 (366 days), not 10000000000000.0"),
        ("thinkSeconds", "1e300", "thinkSeconds must be at most 86400 (one day), not 1e+300"),
        ("thinkSeconds", "[1e15, 1e15]", "thinkSeconds must be at most 86400 (one day), not 1000000000000000.0"),
        ("typingSecondsPerCharacter", "1e300", "typingSecondsPerCharacter must be at most 86400 (one day)"),
        ("recommendationLatencySeconds", "1e300", "recommendationLatencySeconds must be at most 86400 (one day)"),
    ]

    @Test(arguments: hugeValues)
    func hugeTimesAreRefusedBeforeAnythingRuns(key: String, value: String, message: String) async throws {
        let folder = try TemporaryFolder()
        let population = try Self.population(in: folder, replacing: key, with: value)
        let log = try folder.write("events.jsonl", "{\"kept\":true}\n")
        let result = await Remix.run(["simulate", "--sessions", "3000", "--population", population, "--log", log])
        #expect(result.status == 1, "exit \(result.status): \(result.stderr)")
        #expect(result.stderr.contains("\(population):"), "positioned: \(result.stderr)")
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "{\"kept\":true}\n", "the old log is untouched")
        SimulateCommandTests.expectNoCrash(result)
    }

    @Test func aRunThatWouldPassTheYear9999IsRefused() async throws {
        let folder = try TemporaryFolder()
        let population = try Self.population(in: folder, replacing: "start", with: "9999-12-31T23:59:59Z")
        let log = try folder.write("events.jsonl", "{\"kept\":true}\n")
        let result = await Remix.run(["simulate", "--sessions", "10", "--population", population, "--log", log])
        #expect(result.status == 1)
        #expect(result.stderr.contains("remix: the simulated sessions would run past 9999-12-31T23:59:59Z"), "\(result.stderr)")
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "{\"kept\":true}\n")
    }

    @Test(arguments: ["2026-02-31", "2026-11-23T24:00:00Z", "2026-11-23T23:59:60Z", "0000-01-01", "10000-01-01"])
    func impossibleStartsAreRefused(start: String) async throws {
        let folder = try TemporaryFolder()
        let population = try Self.population(in: folder, replacing: "start", with: start)
        let result = await Remix.run(["simulate", "--sessions", "10", "--population", population,
                                      "--log", folder.path("e.jsonl")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("'\(start)' is not a date"), "\(result.stderr)")
    }

    @Test func theFirstYearIsWrittenAsItself() async throws {
        let folder = try TemporaryFolder()
        let population = try Self.population(in: folder, replacing: "start", with: "0001-01-01")
        let log = folder.path("e.jsonl")
        let result = await Remix.run(["simulate", "--sessions", "3", "--no-report", "--population", population, "--log", log])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: log, encoding: .utf8).hasPrefix("{\"ts\":\"0001-01-01T00:00:00.000Z\""))
    }

    @Test func theLogIsNeverAnInputOfTheRun() async throws {
        let folder = try TemporaryFolder()
        let experiments = folder.path("experiments")
        try FileManager.default.copyItem(atPath: Fixture.experimentsPath, toPath: experiments)
        let target = experiments + "/insertion-flow.yaml"
        let before = try String(contentsOfFile: target, encoding: .utf8)
        for (log, append) in [(target, false), (target, true), (experiments + "/population.yaml", false)] {
            let result = await Remix.run(["simulate", "--sessions", "5", "--experiments", experiments,
                                          "--population", experiments + "/population.yaml", "--log", log]
                                         + (append ? ["--append"] : []))
            #expect(result.status == 1)
            #expect(result.stderr.contains("remix: refusing to write --log \(log): it is "), "\(result.stderr)")
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == before)
    }

    @Test func aFileThatIsNotALogIsNotReplaced() async throws {
        let folder = try TemporaryFolder()
        let notes = try folder.write("notes.md", "# my notes\n")
        let result = await Remix.run(["simulate", "--sessions", "5", "--log", notes])
        #expect(result.status == 1)
        #expect(result.stderr.contains("refusing to replace \(notes): it does not look like an event log"))
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "# my notes\n")
    }

    @Test func appendingOntoATornLogKeepsTheNewRunOnItsOwnLine() async throws {
        let folder = try TemporaryFolder()
        let log = folder.path("events.jsonl")
        #expect(await Remix.run(["simulate", "--sessions", "3", "--no-report", "--log", log]).status == 0)
        let handle = try #require(FileHandle(forWritingAtPath: log))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"ts\":\"2026-11-23T09:0".utf8))
        try handle.close()
        let result = await Remix.run(["simulate", "--sessions", "3", "--seed", "2", "--append", "--no-report", "--log", log, "--wide"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("ended inside a line"), "\(result.stderr)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.filter { $0 == "{\"ts\":\"2026-11-23T09:0" }.count == 1, "the torn line stays alone")
        #expect(lines.filter { $0.contains("\"type\":\"run\"") }.count == 2)
        #expect(lines.allSatisfy { $0.hasPrefix("{\"ts\":\"") && ($0.hasSuffix("}") || $0 == "{\"ts\":\"2026-11-23T09:0") })
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs Linux's /dev/full"),
          arguments: [["simulate", "--sessions", "20"], ["features"], ["validate"], ["simulate", "--help"]])
    func aFullStandardOutputFailsTheCommand(arguments: [String]) throws {
        let folder = try TemporaryFolder()
        let extra = arguments.first == "simulate" && arguments.count > 2 ? ["--log", folder.path("e.jsonl")] : []
        let result = try RemixProcess.run(arguments + extra, in: Fixture.root, outputFile: "/dev/full")
        #expect(result.status == 1, "exit \(result.status): \(result.stderr)")
        #expect(result.stderr.contains("remix: cannot write standard output: No space left on device"), "\(result.stderr)")
    }

    /// A command that fails while standard error cannot be written still exits with its status
    /// (Foundation's `FileHandle.write(_:)` trapped: exit 132).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs Linux's /dev/full"),
          arguments: [["analyze", "no-such-log.jsonl"], ["simulate", "--app", "no-such-app"], ["no-such-command"]])
    func aFullStandardErrorLeavesTheExitStatus(arguments: [String]) throws {
        let result = try RemixProcess.run(arguments, in: Fixture.root, errorFile: "/dev/full")
        #expect(result.status != 0 && result.status < 128, "exit \(result.status)")
    }

    @Test func tooManyJobsAreCappedAtTheCores() async throws {
        let folder = try TemporaryFolder()
        let log = folder.path("e.jsonl"), reference = folder.path("r.jsonl")
        let result = await Remix.run(["simulate", "--sessions", "300", "--jobs", "2000", "--no-report", "--log", log])
        #expect(result.status == 0)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #expect(result.stderr.contains("warning: --jobs 2000 is more than this machine's \(cores) cores; using \(cores)"))
        #expect(await Remix.run(["simulate", "--sessions", "300", "--jobs", "1", "--no-report", "--log", reference]).status == 0)
        #expect(FileManager.default.contents(atPath: log) == FileManager.default.contents(atPath: reference))
    }
}
