import Foundation
import RemixTestSupport
import Testing

/// `remix check aa` simulates into temporary logs: stopped by a signal, it leaves none behind.
@Suite struct CheckSignalTests {
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aStoppedCheckLeavesNoTemporaryLog(signal: Int32, status: Int32) throws {
        let scratch = try TemporaryFolder()
        let output = try TemporaryFolder()
        let check = try BackgroundRemix(["check", "aa", "--runs", "1000", "--users", "2000", "--jobs", "1"],
                                        in: AnalysisFixture.repository, outputIn: output.location, tag: "check",
                                        environment: ["TMPDIR": scratch.location])
        var logging = false
        for _ in 0..<60_000 where check.process.isRunning {
            if !((try? FileManager.default.contentsOfDirectory(atPath: scratch.location)) ?? []).isEmpty {
                logging = true
                break
            }
            usleep(1000)
        }
        kill(check.process.processIdentifier, signal)
        let result = check.finish()
        #expect(logging, "no temporary log appeared; stderr: \(result.stderr)")
        #expect(!result.signalled && result.status == status, "\(result.status): \(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.location).isEmpty, "no temporary log is left")
    }
}
