import Foundation
import RemixCLITestSupport
import RemixTestSupport
import Testing

/// `remix run --log FILE`: a terminal session's events are appended to a JSON Lines log that
/// `remix analyze` reads; a log that is not one is refused and left as it was.
@Suite struct RunLogTests {
    static var experiments: String { Repository.experiments }

    static func types(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { line in
            line.firstMatch(of: #/"type":"([^"]+)"/#).map { String($0.1) }
        }
    }

    @Test func aSessionIsAppendedToTheLogAndAnalysed() async throws {
        let folder = try TemporaryFolder()
        let log = folder.path("session.jsonl")
        let arguments = ["run", "--experiments", Self.experiments, "--user", "u1", "--log", log]
        let first = await RemixInProcess.run(arguments, input: "5\nq\n")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("logged ") && first.stderr.contains(" events to \(log)"))
        let types = try Self.types(log)
        #expect(types.first == "run" && types.dropFirst().first == "session_started" && types.last == "session_ended")
        #expect(types.contains("screen") && types.contains("exposure"), "\(types)")
        // A second session appends: two run records, two sessions; analyze reads both.
        #expect(await RemixInProcess.run(arguments, input: "q\n").status == 0)
        #expect(try Self.types(log).filter { $0 == "run" }.count == 2)
        let report = await RemixInProcess.run(["analyze", log, "--experiments", Self.experiments, "--format", "json"])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains(#""key":"insertion-flow""#) && report.stdout.contains(#""badLines":0"#))
    }

    @Test func aFileThatIsNotALogIsLeftAlone() async throws {
        let folder = try TemporaryFolder()
        let notes = try folder.write("notes.txt", "my notes\n")
        let result = await RemixInProcess.run(["run", "--log", notes], input: "q\n")
        #expect(result.status == 1)
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes\n")
        let bad = await RemixInProcess.run(["run", "--log", "postgresql://u@[nope/db"], input: "q\n")
        #expect(bad.status == 1 && !bad.stderr.contains("Fatal"), "\(bad.stderr)")
    }
}
