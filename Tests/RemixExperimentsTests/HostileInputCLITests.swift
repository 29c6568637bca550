import Foundation
import RemixCLITestSupport
import RemixTestSupport
import Testing

/// The inputs of issue 21 that made the release binary hang or print Cocoa error codes, run
/// through the `remix` commands as they were found (in process).
@Suite struct HostileInputCLITests {
    @Test func validateRefusesABillionLaughsAtTheAlias() async throws {
        let folder = try ExperimentFolder()
        let bomb = Fixture.experiment("k", YAMLLimitsTests.laughs(8, use: "condition: {platform: {$in: *a8}}"))
        try folder.write("k.yaml", bomb)
        let result = await RemixInProcess.run(["validate", folder.path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("\(folder.path)/k.yaml:13:12: error: alias '*a3' makes the document too large"), "\(result.stderr)")
        #expect(result.stdout == "0 experiments, 1 error, 0 warnings\n")
        // simulate reads experiments the same way, and stops before any session.
        let simulate = await RemixInProcess.run(["simulate", "--experiments", folder.path, "--population", Fixture.repoRoot.path
                                                 + "/experiments/population.yaml", "--sessions", "1", "--log", folder.path + "/e.jsonl"])
        #expect(simulate.status == 1)
        #expect(simulate.stderr.contains("\(folder.path)/k.yaml:13:12: error: alias '*a3' makes the document too large"))
    }

    @Test func assignGivesUpOnCatastrophicBacktrackingWithAWarning() async throws {
        let folder = try ExperimentFolder()
        try folder.write("k.yaml", Fixture.experiment("k", "condition: {id: {$regex: \"(a+)+$\"}}"))
        let id = String(repeating: "a", count: 1000) + "!"
        let result = await RemixInProcess.run(["assign", "k", "--experiments", folder.path, "--attributes", "{\"id\":\"\(id)\"}"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("rule          condition: not in experiment: the targeting condition did not pass"))
        #expect(result.stderr.hasPrefix("remix: warning: $regex '(a+)+$' gave up after 1000000 backtracking steps once"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        // A short id still matches as in JavaScript, with no warning.
        let fine = await RemixInProcess.run(["assign", "k", "--experiments", folder.path, "--attributes", "{\"id\":\"aaa\"}"])
        #expect(fine.stdout.contains("rule          assigned") && fine.stderr.isEmpty, "\(fine.stdout)\(fine.stderr)")
    }

    @Test func validateReportsAnInvalidPatternAtItsPosition() async throws {
        let folder = try ExperimentFolder()
        try folder.write("k.yaml", Fixture.experiment("k", "condition: {id: {$regex: \"(a+\"}}"))
        let result = await RemixInProcess.run(["validate", folder.path])
        #expect(result.status == 1)
        #expect(result.stderr == "\(folder.path)/k.yaml:8:26: error: invalid regular expression '(a+' in $regex: a '(' is never "
                + "closed; GrowthBook treats it as never true\n")
    }

    @Test func unreadablePathsAreNamedWithWhatIsWrong() async throws {
        let folder = try ExperimentFolder()
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/loop.yaml", withDestinationPath: "loop.yaml")
        try FileManager.default.createDirectory(atPath: folder.path + "/folder.yaml", withIntermediateDirectories: false)
        let result = await RemixInProcess.run(["validate", folder.path])
        #expect(result.status == 1)
        let errors: [String] = result.stderr.split(separator: "\n").map(String.init)
        let loop: String = "\(folder.path)/loop.yaml:1:1: error: cannot read this file: it is a symbolic link loop (following its links leads "
            + "back to itself); point it at a real file or remove it"
        let expectedErrors: [String] = [
            "\(folder.path)/folder.yaml:1:1: error: cannot read this file: it is a folder, not a file",
            loop,
        ]
        #expect(errors == expectedErrors)
        let absent = folder.path + "/missing"
        for arguments in [["validate", absent], ["assign", "k", "--experiments", absent]] {
            let missing = await RemixInProcess.run(arguments)
            #expect(missing.status == 1 && missing.stdout.contains("remix") == false)
            #expect(missing.stderr.hasPrefix("\(absent):1:1: error: no such file or folder; give the experiments folder"),
                    "\(arguments): \(missing.stderr)")
        }
    }
}
