import Foundation
import Testing

/// Runs the built `remix` executable as a user would, with piped input.
@Suite struct RemixBinaryTests {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The `remix` executable built beside the test bundle.
    static var executable: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("remix")
    }

    static func remix(_ arguments: [String], input: String = "") throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                      stderr: String(decoding: err, as: UTF8.self))
    }

    @Test func featuresListsAppsSlotsAndFeatures() throws {
        let result = try Self.remix(["features"])
        #expect(result.status == 0)
        for name in ["marketplace", "groupbrowser", "calculator", "Discovery", "AdvertList", "GroupSelection",
                     "ManualGroupInsertion", "AutoGroupInsertion", "AlternatingInsertion", "GroupBrowser", "Calculator",
                     "slot insertion [insertion] default AlternatingInsertion"] {
            #expect(result.stdout.contains(name), "missing \(name)")
        }
    }

    @Test(arguments: [
        ("ManualGroupInsertion", "5\n2\n1\nOld banger\n2\nq\n", "group=\"10\" title=\"Old banger\""),
        ("AutoGroupInsertion", "5\n1\nMountain bike\n2\nq\n", "group=\"4\" title=\"Mountain bike\""),
        ("AlternatingInsertion", "5\n2\n1\nFirst\n2\n6\n1\nBMX bike\n2\nq\n", "group=\"3\" title=\"BMX bike\""),
    ])
    func scriptedRunPublishesThroughEachFlow(flow: String, script: String, published: String) throws {
        let result = try Self.remix(["run", "--app", "marketplace", "--slot", "insertion=\(flow)"], input: script)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains(published))
    }

    @Test func badInputGivesAClearMessageAndExitOne() throws {
        let unknownApp = try Self.remix(["run", "--app", "marketplce"])
        #expect(unknownApp.status == 1)
        #expect(unknownApp.stderr.contains("unknown app 'marketplce'; did you mean 'marketplace'?"))
        let platform = try Self.remix(["run", "--platform", "watch"])
        #expect(platform.status == 1)
        #expect(platform.stderr.contains("does not run on 'watch'"))
        let slot = try Self.remix(["run", "--slot", "insertion=Calculator"])
        #expect(slot.status == 1)
        #expect(slot.stderr.contains("cannot fill slot 'insertion'"))
        let action = try Self.remix(["run"], input: "seven\nq\n")
        #expect(action.status == 1)
        #expect(action.stdout.contains("unknown action 'seven'"))
        #expect(!action.stderr.contains("Fatal error"))
    }
}
