import Foundation
import RemixCLITestSupport
import RemixTestSupport
import Testing

/// A metric that names nothing — a misspelled key or event in an experiment file, or a misspelled
/// `event:` in metrics.yaml — is said by `simulate` (before it runs: exit 1) and `analyze` (a
/// warning beside the zeros), with the nearest name, as `remix validate` says it.
@Suite struct MetricNameCheckTests {
    /// The repository's experiments folder in a folder of its own, with `old` replaced by `new` in `file`.
    static func project(_ file: String? = nil, _ old: String = "", _ new: String = "") throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(atPath: Repository.root.appendingPathComponent("experiments").path,
                                         toPath: folder.path("experiments"))
        if let file { try edit(folder, file, old, new) }
        return folder
    }

    static func edit(_ folder: TemporaryFolder, _ file: String, _ old: String, _ new: String) throws {
        let path = folder.path("experiments/\(file)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(old))
        try text.replacingOccurrences(of: old, with: new).write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Simulates 30 Calculator users with the experiments of `folder` into its `ev.jsonl`.
    static func simulate(_ folder: TemporaryFolder) async -> ProcessResult {
        await RemixInProcess.run(["simulate", "--app", "calculator", "--users", "30", "--no-report", "--experiments",
                                  folder.path("experiments"), "--log", folder.path("ev.jsonl")])
    }

    @Test func simulateRefusesAMisspelledMetricBeforeItRuns() async throws {
        let folder = try Self.project("calculator-entry.yaml", "primary: sum_analysed", "primary: sum_analysd")
        let result = await Self.simulate(folder)
        #expect(result.status == 1)
        #expect(result.stderr.contains("experiments/calculator-entry.yaml:16:12: error: unknown metric 'sum_analysd'"),
                "\(result.stderr)")
        #expect(result.stderr.contains("did you mean 'sum_analysed'?"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("ev.jsonl")), "nothing was simulated")

        let event = try Self.project("metrics.yaml", "event: sum_analysed", "event: sum_analysd")
        let typo = await Self.simulate(event)
        #expect(typo.status == 1)
        #expect(typo.stderr.contains("error: metric 'sums-analysed' counts the event 'sum_analysd', which no registered "
                                     + "feature emits; did you mean 'sum_analysed'?"), "\(typo.stderr)")
    }

    @Test func analyzeWarnsOfAMisspelledMetricBesideItsZeros() async throws {
        let folder = try Self.project()
        let made = await Self.simulate(folder)
        #expect(made.status == 0, "\(made.stderr)")
        let clean = await AnalyzeCommandTests.analyze(["ev.jsonl"], of: folder)
        #expect(clean.status == 0 && !clean.stderr.contains("metric"), "\(clean.stderr)")

        try Self.edit(folder, "calculator-entry.yaml", "primary: sum_analysed", "primary: sum_analysd")
        let key = await AnalyzeCommandTests.analyze(["ev.jsonl"], of: folder)
        #expect(key.status == 0, "\(key.stderr)")
        #expect(key.stderr.contains("experiments/calculator-entry.yaml:16:12: warning: unknown metric 'sum_analysd'"),
                "\(key.stderr)")
        #expect(key.stderr.contains("did you mean 'sum_analysed'?") && key.stderr.contains("the report counts nothing for it"))

        try Self.edit(folder, "calculator-entry.yaml", "primary: sum_analysd", "primary: sum_analysed")
        try Self.edit(folder, "metrics.yaml", "event: sum_analysed", "event: sum_analysd")
        let event = await AnalyzeCommandTests.analyze(["ev.jsonl"], of: folder)
        #expect(event.status == 0, "\(event.stderr)")
        #expect(event.stderr.contains("warning: metric 'sums-analysed' counts the event 'sum_analysd', which no registered "
                                      + "feature emits; did you mean 'sum_analysed'?"), "\(event.stderr)")
    }

    /// One slip of indentation in metrics.yaml is one error: the file cannot be read, and every
    /// metric the experiments name from it would otherwise follow as "unknown".
    @Test func aMetricsFileThatDoesNotParseIsReportedAlone() async throws {
        let folder = try Self.project("metrics.yaml", "    type: proportion\n    description: Share of exposed users who published an advert",
                                      "    type: proportion\n   description: Share of exposed users who published an advert")
        let result = await RemixInProcess.run(["validate", folder.path("experiments")])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.hasPrefix(folder.path("experiments/metrics.yaml:")) == true && lines.first?.contains(": error: ") == true,
                "\(result.stderr)")
        #expect(result.stdout.hasSuffix("1 error, 0 warnings\n"), "\(result.stdout)")

        let groups = try Self.project("saved-groups.yaml", "beta-testers:", " beta-testers: [\n")
        let broken = await RemixInProcess.run(["validate", groups.path("experiments")])
        #expect(broken.status == 1)
        #expect(broken.stderr.split(separator: "\n").count == 1, "\(broken.stderr)")
        #expect(broken.stderr.hasPrefix(groups.path("experiments/saved-groups.yaml:")), "\(broken.stderr)")
    }

    /// A file named alone is checked with its folder's metrics file and saved groups, as the folder is.
    @Test func aFileNamedAloneIsCheckedWithItsFoldersMetrics() async throws {
        let alone = await RemixInProcess.run(["validate", Repository.experiments + "/uk-manual-first.yaml"])
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect(alone.stdout == "1 experiment, 0 errors, 0 warnings\n", "\(alone.stdout)")

        let folder = try Self.project("uk-manual-first.yaml", "guardrails: [cancelled]", "guardrails: [canceled]")
        let typo = await RemixInProcess.run(["validate", folder.path("experiments/uk-manual-first.yaml")])
        #expect(typo.status == 1)
        #expect(typo.stderr.contains("unknown metric 'canceled': not a key of \(folder.path("experiments/metrics.yaml"))"), "\(typo.stderr)")
        #expect(typo.stderr.contains("did you mean 'cancelled'?"), "\(typo.stderr)")
    }
}
