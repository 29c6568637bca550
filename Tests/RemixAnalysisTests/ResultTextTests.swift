import Foundation
import RemixCLITestSupport
import RemixFormats
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

    /// Item 34: `analyze --output` says what it wrote.
    @Test func analyzeSaysWhatItWrote() async throws {
        let folder = try TemporaryFolder()
        let log = folder.path("events.jsonl"), report = folder.path("report.md")
        let simulate = await RemixInProcess.run(["simulate", "--users", "200", "--experiments", Self.experiments.path, "--log", log,
                                                 "--no-report"])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let result = await RemixInProcess.run(["analyze", log, "--experiments", Self.experiments.path, "--format", "markdown",
                                               "--output", report])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("wrote \(report) (markdown, "), "\(result.stdout)")
        let written = try String(contentsOfFile: report, encoding: .utf8)
        #expect(result.stdout.contains("\(CountText.grouped(written.utf8.count)) bytes)"), "\(result.stdout)")
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

    /// Item 29: `simulate`'s summary lists every experiment that no session was exposed to, with why.
    @Test func theSimulateSummaryNamesEveryExperimentWithoutExposures() async throws {
        let folder = try TemporaryFolder()
        let experiments = try ShippedExperiments.copy(into: folder)
        let tablet = experiments + "/tablet-auto-message.yaml"
        try String(contentsOfFile: tablet, encoding: .utf8).replacingOccurrences(of: "platform: tablet", with: "platform: toaster")
            .write(toFile: tablet, atomically: true, encoding: .utf8)
        let result = await RemixInProcess.run(["simulate", "--users", "300", "--experiments", experiments, "--log",
                                               folder.path("e.jsonl"), "--no-report"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        func reason(_ key: String) -> String? {
            lines.first { $0.hasPrefix("not running: \(key) (") }.map { String($0.dropFirst("not running: \(key) (".count)) }
        }
        #expect(reason("uk-manual-first")?.hasPrefix("scheduled from 2026-12-01") == true, "\(result.stdout)")
        #expect(reason("calculator-entry")?.hasPrefix("app calculator") == true, "\(result.stdout)")
        #expect(reason("saved-groups") == nil)  // not an experiment
        #expect(reason("groupbrowser-navigation")?.hasPrefix("app groupbrowser") == true, "\(result.stdout)")
        #expect(reason("tablet-auto-message")?.hasPrefix("targeting:") == true, "\(result.stdout)")
        #expect(reason("insertion-flow") == nil && result.stdout.contains("experiment insertion-flow"))
    }
}
