import Foundation
import RemixTestSupport
import Testing

/// Paths and names of one character — `--output y`, an experiment file `k.yaml` named by its key
/// `k`, a log `x` — are ordinary input: Foundation's folder-of-a-path traps on them, so `remix`
/// reads them through its own (`PathText`), and every command ends with a status, never a signal.
@Suite struct OneCharacterPathTests {
    @Test func commandsTakeOneCharacterPaths() throws {
        let folder = try OutputsOverInputsTests.project()
        try FileManager.default.copyItem(atPath: folder.path("experiments/insertion-flow.yaml"), toPath: folder.path("k"))
        let commands: [(arguments: [String], status: Int32)] = [
            (["fit", "ev.jsonl", "--output", "y"], 0),
            (["analyze", "ev.jsonl", "--output", "z"], 0),
            (["simulate", "--users", "5", "--no-report", "--log", "x"], 0),
            (["assign", "insertion-flow", "--attributes", #"{"id":"u1"}"#, "--sticky", "s"], 0),
            (["export", "growthbook", "--output", "p"], 0),
            (["assign", "k", "--attributes", #"{"id":"u1"}"#], 1),
        ]
        for (arguments, status) in commands {
            let result = try RemixProcess.run(arguments, in: folder.url)
            #expect(!result.signalled && result.status == status, "\(arguments): \(result.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: folder.path("y")))
        #expect(FileManager.default.fileExists(atPath: folder.path("p")))
    }
}
