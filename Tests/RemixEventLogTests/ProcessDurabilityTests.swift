import Foundation
import RemixTestSupport
import Testing

/// The log's durability promises, checked on the real `remix simulate` in child processes:
/// concurrent appenders never interleave inside a line, SIGKILL tears at most the last line, and
/// SIGTERM/SIGINT flush everything and exit with 128 + signal.
@Suite(.serialized) struct ProcessDurabilityTests {
    /// The number after `events` in a simulate summary.
    static func eventCount(_ stdout: String) -> Int? {
        stdout.split(separator: "\n").first { $0.hasPrefix("events ") }
            .flatMap { Int($0.dropFirst("events".count).trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: "")) }
    }

    @Test func twoProcessesAppendingToOneLogNeverInterleave() throws {
        let folder = try TemporaryFolder()
        let log = folder.path("same.jsonl")
        let seeds = [11, 12]
        let processes = try seeds.map { seed in
            try BackgroundRemix(["simulate", "--append", "--log", log, "--sessions", "1500", "--seed", "\(seed)",
                                 "--jobs", "1"], in: Remix.root, outputIn: folder.location, tag: "seed\(seed)")
        }
        let results = processes.map { $0.finish() }
        var expected = 0
        for result in results {
            #expect(result.status == 0, "stderr: \(result.stderr)")
            expected += try #require(Self.eventCount(result.stdout), "no event count in \(result.stdout)")
        }
        let lines = try LogLines(path: log)
        #expect(lines.torn == nil)
        #expect(lines.complete.count == expected)
        var perSeed: [String: Int] = [:]
        var runRecords = 0
        for line in lines.complete {
            guard let object = jsonObject(line) else {
                Issue.record("line does not parse: \(line.prefix(300))")
                return
            }
            if object["type"] as? String == "run" { runRecords += 1; continue }
            let session = object["session"] as? String ?? ""
            perSeed[String(session.split(separator: "-").first ?? ""), default: 0] += 1
        }
        #expect(runRecords == 2)
        #expect(Set(perSeed.keys) == ["s11", "s12"])
    }

    @Test func sigkillLeavesOnlyTheLastLineTorn() throws {
        let folder = try TemporaryFolder()
        let log = folder.path("killed.jsonl")
        let remix = try BackgroundRemix(["simulate", "--sessions", "200000", "--jobs", "2", "--log", log],
                                        in: Remix.root, outputIn: folder.location, tag: "kill")
        let grew = Remix.waitForGrowth(log, beyond: 1_500_000, of: remix.process)
        kill(remix.process.processIdentifier, SIGKILL)
        let result = remix.finish()
        #expect(grew, "the log never grew past 1.5 MB while the run was going; stderr: \(result.stderr)")
        #expect(result.signalled)
        #expect(result.status == SIGKILL)
        let lines = try LogLines(path: log)
        #expect(lines.complete.count > 1000)
        for (number, line) in lines.complete.enumerated() where jsonObject(line) == nil {
            Issue.record("complete line \(number + 1) does not parse: \(line.prefix(300))")
            break
        }
        #expect(jsonObject(lines.complete[0])?["type"] as? String == "run")
        if let torn = lines.torn {
            // A torn last line is a prefix of a line: it starts like one and does not parse.
            #expect(torn.hasPrefix("{\"ts\":") || "{\"ts\":".hasPrefix(torn))
        }
    }

    /// Browsing-only users: a session is four short lines, so a block of 256 sessions (~180 KB) is
    /// buffered rather than written straight through, and a stop signal finds lines in the buffer.
    static let browsers = """
        app: marketplace
        intents:
          publish: {start: {press: primary}}
        personas:
          - {name: browser, intents: {publish: 0}}

        """

    /// The session count of the last `progress: N/total` line in `stderr`.
    static func lastProgress(_ stderr: String) -> Int? {
        stderr.split(separator: "\n").last { $0.hasPrefix("progress: ") }
            .flatMap { Int($0.dropFirst("progress: ".count).prefix { $0 != "/" }) }
    }

    @Test(arguments: [(SIGTERM, Int32(143), "terminated"), (SIGINT, Int32(130), "interrupted")])
    func stopSignalsFlushEveryLineAndExitWith128PlusSignal(signal: Int32, status: Int32, word: String) throws {
        let folder = try TemporaryFolder()
        let log = folder.path("stopped.jsonl")
        let population = folder.path("browsers.yaml")
        try Self.browsers.write(toFile: population, atomically: false, encoding: .utf8)
        let remix = try BackgroundRemix(["simulate", "--sessions", "2000000", "--jobs", "2", "--population", population,
                                         "--log", log], in: Remix.root, outputIn: folder.location, tag: "stop")
        let process = remix.process
        // Progress is reported after sessions are appended to the log (about once a second), so
        // by then the run is under way, its signal handlers are installed, and the sessions it
        // reports may still sit in the buffer: only the flush on the signal can write them.
        var reported = false
        for _ in 0..<4000 where process.isRunning {
            if let text = try? String(contentsOfFile: folder.path("stop.stderr"), encoding: .utf8),
               text.contains("progress: ") {
                reported = true
                break
            }
            usleep(2000)
        }
        kill(process.processIdentifier, signal)
        let result = remix.finish()
        #expect(reported, "no progress before the run ended; stderr: \(result.stderr)")
        #expect(!result.signalled, "killed by the signal instead of exiting: \(result.status)")
        #expect(result.status == status)
        #expect(result.stderr.contains("remix: \(word); the event log was flushed"))
        let lines = try LogLines(path: log)
        #expect(lines.torn == nil, "a flushed log ends with a newline")
        #expect(lines.complete.count > 1)
        var ended = 0
        for (number, line) in lines.complete.enumerated() {
            guard let object = jsonObject(line) else {
                Issue.record("line \(number + 1) does not parse: \(line.prefix(300))")
                break
            }
            if object["type"] as? String == "session_ended" { ended += 1 }
        }
        #expect(jsonObject(lines.complete.first ?? "")?["type"] as? String == "run")
        // Flushed means whole sessions up to the stop: the last line ends a session, and every
        // session reported done before the signal is in the file.
        #expect(jsonObject(lines.complete.last ?? "")?["type"] as? String == "session_ended")
        let progress = try #require(Self.lastProgress(result.stderr), "stderr: \(result.stderr)")
        #expect(ended >= progress, "progress reported \(progress) sessions but the log holds \(ended)")
        #expect(!result.stderr.contains("Fatal error"))
    }
}
