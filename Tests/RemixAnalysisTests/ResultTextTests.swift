import Foundation
import RemixCLITestSupport
import RemixTestSupport
import Testing

/// What the commands say about their results: numbers as a person writes them, files written,
/// experiments that did not run.
@Suite struct ResultTextTests {
    static var experiments: URL { Repository.root.appendingPathComponent("experiments") }

    /// Item 23: a lift too large for a double in percent is still a number, never `inf`.
    @Test func planShowsAHugeEffectAsANumber() async throws {
        let rate = await RemixInProcess.run(["plan", "--rate", "0.5", "--effect", "1e308"])
        #expect(rate.status == 1 && !rate.stderr.contains("inf") && rate.stderr.contains("rise by +1e+310 %"), "\(rate.stderr)")
        let mean = await RemixInProcess.run(["plan", "--mean", "1", "--stddev", "1", "--effect", "1e308"])
        #expect(!(mean.stdout + mean.stderr).contains("inf"), "\(mean.stdout)\(mean.stderr)")
        #expect((mean.stdout + mean.stderr).contains("+1e+310 %"), "\(mean.stdout)\(mean.stderr)")
    }

    /// Item 34: weights that add to 0.9 are said to add to 0.9.
    @Test func weightsAreShownAsWritten() async throws {
        let folder = try TemporaryFolder()
        let file = try String(contentsOf: Self.experiments.appendingPathComponent("insertion-flow.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "weights: [0.34, 0.33, 0.33]", with: "weights: [0.3, 0.3, 0.3]")
        #expect(file.contains("weights: [0.3, 0.3, 0.3]"))
        try folder.write("experiments/insertion-flow.yaml", file)
        let result = await RemixInProcess.run(["validate", folder.path("experiments")])
        #expect((result.stdout + result.stderr).contains("add up to 0.9,"), "\(result.stdout)\(result.stderr)")
        #expect(!(result.stdout + result.stderr).contains("0.8999999"), "\(result.stdout)\(result.stderr)")
    }
}
