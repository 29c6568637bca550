import Foundation
import RemixTestSupport
import Testing

/// No command writes over what it reads, under any name, nor writes two outputs to one file: each
/// such run is refused before anything is written — the message, exit 1, every file as it was.
@Suite struct OutputsOverInputsTests {
    /// A project: the repository's experiments, populations and metrics, and a small log.
    static func project() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(atPath: Repository.root.appendingPathComponent("experiments").path,
                                         toPath: folder.path("experiments"))
        let made = try RemixProcess.run(["simulate", "--users", "20", "--no-report", "--log", "ev.jsonl"], in: folder.url)
        #expect(made.status == 0, "\(made.stderr)")
        return folder
    }

    /// Every file under `folder`, path → bytes.
    static func snapshot(_ folder: TemporaryFolder) -> [String: Data] {
        let names = FileManager.default.subpaths(atPath: folder.location) ?? []
        return Dictionary(uniqueKeysWithValues: names.compactMap { name in
            FileManager.default.contents(atPath: folder.path(name)).map { (name, $0) }
        })
    }

    static func expectRefused(_ arguments: [String], in folder: TemporaryFolder, saying text: String,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = snapshot(folder)
        let result = try RemixProcess.run(arguments, in: folder.url)
        #expect(result.status == 1, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains("remix: refusing to write \(text)"), "\(arguments): \(result.stderr)",
                sourceLocation: sourceLocation)
        #expect(snapshot(folder) == before, "\(arguments) changed files", sourceLocation: sourceLocation)
    }

    @Test func analyzeNeverWritesItsReportOverItsInputs() throws {
        let folder = try Self.project()
        try FileManager.default.linkItem(atPath: folder.path("ev.jsonl"), toPath: folder.path("link.jsonl"))
        try Self.expectRefused(["analyze", "ev.jsonl", "--output", "ev.jsonl"], in: folder,
                               saying: "--output ev.jsonl: it is the event log ev.jsonl, which this command reads")
        try Self.expectRefused(["analyze", "ev.jsonl", "--output", "link.jsonl"], in: folder,
                               saying: "--output link.jsonl: it is the event log ev.jsonl")
        try Self.expectRefused(["analyze", "e*.jsonl", "--output", "link.jsonl", "--format", "json"], in: folder,
                               saying: "--output link.jsonl: it is the event log ev.jsonl")
        try Self.expectRefused(["analyze", "ev.jsonl", "--output", "experiments/metrics.yaml"], in: folder,
                               saying: "--output experiments/metrics.yaml: it is the metrics file experiments/metrics.yaml")
    }

    @Test func simulateNeverWritesOverItsInputsOrOneOutputOverAnother() throws {
        let folder = try Self.project()
        try Self.expectRefused(["simulate", "--users", "5", "--log", "ev.jsonl", "--html", "ev.jsonl"], in: folder,
                               saying: "--html ev.jsonl: it is the same file as --log ev.jsonl")
        try Self.expectRefused(["simulate", "--users", "5", "--log", "new.jsonl", "--html", "./new.jsonl"], in: folder,
                               saying: "--html ./new.jsonl: it is the same file as --log new.jsonl")
        try Self.expectRefused(["simulate", "--users", "5", "--log", "new.jsonl", "--html", "experiments/population.yaml"],
                               in: folder, saying: "--html experiments/population.yaml: it is the population file")
        try Self.expectRefused(["simulate", "--users", "5", "--log", "experiments/insertion-flow.yaml"], in: folder,
                               saying: "--log experiments/insertion-flow.yaml: it is a file of the experiments folder")
    }

    @Test func exportRunAndImportNeverWriteOverTheirInputs() throws {
        let folder = try Self.project()
        try Self.expectRefused(["export", "growthbook", "experiments", "--output", "experiments/insertion-flow.yaml"], in: folder,
                               saying: "--output experiments/insertion-flow.yaml: it is a file of the experiments folder")
        try Self.expectRefused(["run", "--experiments", "experiments", "--log", "experiments/saved-groups.yaml"], in: folder,
                               saying: "--log experiments/saved-groups.yaml: it is a file of the experiments folder")
        // A payload kept where one of its own experiment files would go.
        let export = try RemixProcess.run(["export", "growthbook", "experiments", "--app", "marketplace", "--at", "2026-12-15",
                                           "--output", "payload.json"], in: folder.url)
        #expect(export.status == 0, "\(export.stderr)")
        try FileManager.default.createDirectory(atPath: folder.path("imported"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: folder.path("payload.json"), toPath: folder.path("imported/insertion-flow.yaml"))
        try Self.expectRefused(["import", "growthbook", "imported/insertion-flow.yaml", "--app", "marketplace", "--slot",
                                "insertion", "--out", "imported", "--overwrite"], in: folder,
                               saying: "--out imported/insertion-flow.yaml: it is the payload imported/insertion-flow.yaml")
    }
}
