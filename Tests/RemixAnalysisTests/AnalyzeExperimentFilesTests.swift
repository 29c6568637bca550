import Foundation
import GrowthBookAssignment
import RemixCLITestSupport
import RemixFormats
import RemixKit
import RemixTestSupport
import Testing

/// Which experiment files `remix analyze LOG` reads without `--experiments`: the files the log's
/// run record names while they are as the run read them, else `./experiments`; with none, it says
/// so first and gives no SRM verdict.
@Suite struct AnalyzeExperimentFilesTests {
    /// An experiment split 80/20, whose units are split 80/20: a mismatch only against equal weights.
    static let experiment = """
        key: e
        app: marketplace
        slot: insertion
        variations:
          - {key: control, feature: ManualGroupInsertion}
          - {key: treatment, feature: AutoGroupInsertion}
        weights: [0.8, 0.2]
        metrics:
          primary: advert_published
        """

    /// A project whose experiments are in `lab/` (so there is no `./experiments`), and a log whose
    /// run record names `lab/e.yaml` with the hash of its bytes.
    static func project() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("lab/e.yaml", experiment)
        let hash = "fnv1a64:" + FNV1a<UInt64>.hex(Array(experiment.utf8))
        var lines = [#"{"ts":"2026-11-23T09:00:00.000Z","type":"run","session":"","user":"","version":"remix 0.5.0","app":"marketplace","#
                     + #""seed":"1","users":500,"shard":"1/1","userIndices":[0,500],"sources":[{"role":"experiment","path":"lab/e.yaml","#
                     + #""hash":"\#(hash)"}]}"#]
        for index in 0..<500 {
            let variation = index % 5 == 0 ? "treatment" : "control"
            lines.append(AnalysisFixture.exposure("u\(index)", "e", variation, id: variation == "control" ? 0 : 1, at: 1))
            if index % 3 == 0 { lines.append(AnalysisFixture.event("u\(index)", "advert_published", at: 2)) }
        }
        try folder.write("events.jsonl", lines.joined(separator: "\n") + "\n")
        return folder
    }

    static func report(_ result: ProcessResult) throws -> AttributeValue {
        try #require(result.status == 0, "\(result.stderr)")
        return try #require(AttributeValue.parse(json: result.stdout)["experiments"]?.arrayValue?.first)
    }

    @Test func theFilesTheRunNamedAreReadWhileTheyAreAsTheRunReadThem() throws {
        let folder = try Self.project()
        let named = try Self.report(try RemixProcess.run(["analyze", "events.jsonl", "--format", "json"], in: folder.url))
        #expect(named["hasExperimentFile"] == true && named["primaryMetric"] == "advert_published", "\(named)")
        #expect((named["srmPValue"]?.numberValue ?? 0) > 0.5)

        // Once the file has changed, the run's files are not trusted and nothing else fits.
        try folder.write("lab/e.yaml", Self.experiment + "\n# edited\n")
        let changed = try RemixProcess.run(["analyze", "events.jsonl", "--format", "json"], in: folder.url)
        let unnamed = try Self.report(changed)
        #expect(unnamed["hasExperimentFile"] == false && unnamed["srmPValue"] == .null && unnamed["srmWarning"] == false, "\(unnamed)")
        #expect(changed.stderr.contains("remix: note: the run's experiment file lab/e.yaml has changed since the run"), "\(changed.stderr)")
        let warnings = changed.stderr.split(separator: "\n").filter { $0.hasPrefix("remix: warning: ") }
        #expect(warnings.first?.hasPrefix("remix: warning: no experiment file: ") == true, "\(changed.stderr)")

        // The terminal report leads with the missing file, not with a sample ratio mismatch.
        let table = try RemixProcess.run(["analyze", "events.jsonl"], in: folder.url)
        #expect(table.status == 0 && !table.stdout.contains("SAMPLE RATIO MISMATCH"), "\(table.stdout)")
        let lines = table.stdout.split(separator: "\n")
        let title = try #require(lines.firstIndex { $0.hasPrefix("e: ") })
        #expect(lines[title + 1].hasPrefix("warning: e: no experiment file"), "\(table.stdout)")

        // ./experiments comes next, and --experiments before everything.
        try folder.write("experiments/e.yaml", Self.experiment)
        let fallback = try Self.report(try RemixProcess.run(["analyze", "events.jsonl", "--format", "json"], in: folder.url))
        #expect(fallback["hasExperimentFile"] == true && (fallback["srmPValue"]?.numberValue ?? 0) > 0.5)
        try folder.write("other/e.yaml", Self.experiment.replacingOccurrences(of: "[0.8, 0.2]", with: "[0.5, 0.5]"))
        let given = try Self.report(try RemixProcess.run(["analyze", "events.jsonl", "--format", "json", "--experiments", "other"],
                                                         in: folder.url))
        #expect(given["hasExperimentFile"] == true && (given["srmPValue"]?.numberValue ?? 1) < 0.001)
    }

    @Test func theRunsFileIsReadEvenWhenExperimentsHasAnotherVersion() throws {
        let folder = try Self.project()
        try folder.write("experiments/e.yaml", Self.experiment.replacingOccurrences(of: "[0.8, 0.2]", with: "[0.5, 0.5]"))
        let report = try Self.report(try RemixProcess.run(["analyze", "events.jsonl", "--format", "json"], in: folder.url))
        #expect(report["hasExperimentFile"] == true && (report["srmPValue"]?.numberValue ?? 0) > 0.5, "\(report)")
    }
}
