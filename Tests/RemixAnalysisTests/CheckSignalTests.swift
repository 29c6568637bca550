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
        let (logging, result) = check.stop(with: signal) {
            !((try? FileManager.default.contentsOfDirectory(atPath: scratch.location)) ?? []).isEmpty
        }
        #expect(logging, "no temporary log appeared; stderr: \(result.stderr)")
        #expect(!result.signalled && result.status == status, "\(result.status): \(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.location).isEmpty, "no temporary log is left")
    }
}
