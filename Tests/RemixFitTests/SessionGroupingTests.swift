import Foundation
import RemixCLITestSupport
import RemixFit
import RemixTestSupport
import Testing

/// How the fit gathers a log's lines into sessions: by session whatever order the lines come in,
/// each line and each session counted once however often the logs repeat it, and in time linear in
/// the steps of a session.
@Suite struct SessionGroupingTests {
    /// A Marketplace log of the shipped population through two insertion flows.
    static func marketplaceLog(users: Int, in folder: TemporaryFolder) throws -> String {
        let experiments = try Fixture.insertionExperiment(["manual", "auto"], in: folder, name: "two")
        let population = try Fixture.population(try String(contentsOfFile: Repository.experiments + "/population.yaml", encoding: .utf8))
        let log = folder.path("log.jsonl")
        try Fixture.simulate(population, users: users, seed: 5, experiments: experiments, to: log)
        return log
    }

    /// The lines of a simulated log by session, in log order (a simulated log writes each session's
    /// lines together); the run record is a session of its own.
    static func sessions(of text: String) -> [[Substring]] {
        var sessions: [[Substring]] = []
        var current = ""
        for line in text.split(separator: "\n") {
            let id = line.firstRange(of: #""session":""#).map { range in line[range.upperBound...].prefix { $0 != "\"" } } ?? ""
            if sessions.isEmpty || String(id) != current { sessions.append([]) }
            current = String(id)
            sessions[sessions.count - 1].append(line)
        }
        return sessions
    }

    /// The fitted file with the log's path made neutral.
    static func fitted(_ logs: [String], app: String = "marketplace") throws -> String {
        var text = try Fixture.fit(logs, app: app).text
        for log in logs { text = text.replacingOccurrences(of: log, with: "LOG") }
        return text
    }

    @Test func aSessionsLinesAreGatheredWhateverOrderTheyComeIn() throws {
        let folder = try TemporaryFolder()
        let log = try Self.marketplaceLog(users: 2000, in: folder)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        // Each session's first two lines (its session_started and first screen, at the same
        // millisecond) swapped: the screen now comes before the session has started.
        let swapped = Self.sessions(of: text).map { lines in
            lines.count >= 2 ? [lines[1], lines[0]] + lines.dropFirst(2) : lines
        }
        try (swapped.joined().joined(separator: "\n") + "\n").write(toFile: folder.path("swapped.jsonl"), atomically: false, encoding: .utf8)
        let original = try Self.fitted([log])
        #expect(try Self.fitted([folder.path("swapped.jsonl")]) == original)

        // The whole log backwards: every session still counts, and every user.
        try (text.split(separator: "\n").reversed().joined(separator: "\n") + "\n")
            .write(toFile: folder.path("reversed.jsonl"), atomically: false, encoding: .utf8)
        let reversed = try Self.fitted([folder.path("reversed.jsonl")])
        #expect(reversed.prefix { $0 != "\n" } == original.prefix { $0 != "\n" }, "\(reversed.prefix(300))")
        #expect(original.hasPrefix("# Fitted by `remix fit` from LOG: 2 000 users, 2 000 sessions."), "\(original.prefix(200))")
    }

    @Test func aLogReadTwiceIsCountedOnce() async throws {
        let folder = try TemporaryFolder()
        let experiments = folder.path("none")
        try FileManager.default.createDirectory(atPath: experiments, withIntermediateDirectories: true)
        // Calculator's regular users come back, so the visits and the days between them show a double count.
        let population = try Fixture.population(try String(contentsOfFile: Repository.experiments + "/calculator.population.yaml",
                                                           encoding: .utf8))
        let log = folder.path("a.jsonl")
        try Fixture.simulate(population, users: 600, seed: 3, experiments: experiments, to: log)
        let once = try Self.fitted([log], app: "calculator")

        let twice = try Self.fitted([log, log], app: "calculator")
        #expect(twice == once.replacingOccurrences(of: "from LOG:", with: "from LOG, LOG:"))

        let text = try String(contentsOfFile: log, encoding: .utf8)
        let doubled = folder.path("doubled.jsonl")
        try (text.split(separator: "\n").map { "\($0)\n\($0)\n" }.joined()).write(toFile: doubled, atomically: false, encoding: .utf8)
        #expect(try Self.fitted([doubled], app: "calculator") == once)

        let command = await RemixInProcess.run(["fit", log, doubled, "--app", "calculator", "--personas", "1",
                                                "--output", folder.path("twice.population.yaml")])
        #expect(command.status == 0, "\(command.stderr)")
        #expect(command.stderr.contains("remix: warning: ") && command.stderr.contains("counted once"), "\(command.stderr)")
    }

    /// One session of 100 000 steps: 50 000 in one long attempt (in and out of a group on the
    /// filter screen), then 25 000 short ones (an advert opened and closed). Cutting it into
    /// attempts once copied the attempt's arrays at every step, which made a session's time grow
    /// with the square of its steps (30 000 steps took 11 s in a release build).
    @Test(.timeLimit(.minutes(1))) func aSessionsTimeGrowsWithItsStepsNotTheirSquare() throws {
        var log = HandLog()
        var time = HandLog.start
        /// `screen` pushed on `stack` and left again, `times` times, a second a step.
        func inAndOut(_ screen: String, on stack: String, times: Int) {
            for _ in 0..<times {
                time += 1000
                log.screen("s1", "u1", at: time, "push", screen, stack: "\(stack) > \(screen)")
                time += 1000
                log.screen("s1", "u1", at: time, "back", screen, stack: stack)
            }
        }
        log.started("s1", "u1", at: time)
        log.screen("s1", "u1", at: time, "show", "adverts", stack: "adverts")
        time += 1000
        log.screen("s1", "u1", at: time, "push", "filter", stack: "adverts > filter")
        inAndOut("filter(Bicycles)", on: "adverts > filter", times: 25_000)
        time += 1000
        log.screen("s1", "u1", at: time, "back", "filter", stack: "adverts")
        inAndOut("item(Apollo Jewel)", on: "adverts", times: 25_000)
        log.ended("s1", "u1", at: time + 1000)
        let folder = try TemporaryFolder()
        let path = try folder.write("long.jsonl", log.text)
        let fitted = try Fixture.fit([path], personas: .fixed(1)).result.population
        #expect(fitted.users == 1 && fitted.sessions == 1)
        let attempts = Dictionary(fitted.intents.map { ($0.name, $0.attempts) }, uniquingKeysWith: +)
        #expect(attempts == ["open-filter": 1, "open-item": 25_000], "\(attempts)")
    }
}
