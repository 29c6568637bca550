import Foundation
import RemixCLITestSupport
import RemixTestSupport
import Testing

/// `remix analyze` as a user runs it: what it writes, what it refuses, and what it warns about.
@Suite struct AnalyzeCommandTests {
    /// A folder with a log of experiment `e` (control, treatment and an undeclared `ghost`) and an
    /// experiment file declaring control and treatment with weights 0.5/0.5.
    static func project(ghosts: Int = 0) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        var lines: [String] = []
        for index in 0..<40 {
            let variation = index % 2 == 0 ? "control" : "treatment"
            lines.append(AnalysisFixture.exposure("u\(index)", "e", variation, id: index % 2, at: 1))
            if index % 3 == 0 { lines.append(AnalysisFixture.event("u\(index)", "advert_published", at: 2)) }
        }
        for index in 0..<ghosts { lines.append(AnalysisFixture.exposure("g\(index)", "e", "ghost", id: 7, at: 1)) }
        try folder.write("events.jsonl", lines.joined(separator: "\n") + "\n")
        try folder.write("experiments/e.yaml", AnalysisFixture.twoArmExperiment(metrics: """
              primary: advert_published
              guardrails: [insertion_cancelled]
            """))
        return folder
    }

    /// Runs the built `remix` in `folder`: for what depends on the working folder (`./experiments`).
    static func remix(_ arguments: [String], in folder: TemporaryFolder) throws -> ProcessResult {
        try RemixProcess.run(arguments, in: folder.url)
    }

    /// Runs `remix analyze` in process on `logs` of the project in `folder` (names in it) with its
    /// experiments folder, then `options`; `--wide`, so that a row or a warning is one line to
    /// search, whatever the width (TerminalLayoutTests checks the width).
    static func analyze(_ logs: [String] = ["events.jsonl"], of folder: TemporaryFolder, _ options: [String] = []) async -> ProcessResult {
        await RemixInProcess.run(["analyze"] + logs.map(folder.path) + ["--experiments", folder.path("experiments"), "--wide"] + options)
    }

    /// "1 line", not "1 lines"; bad-line counts grouped like the line count.
    @Test func theLogSummaryCountsInWords() async throws {
        let folder = try TemporaryFolder()
        try folder.write("one.jsonl", AnalysisFixture.exposure("u", "e", "control", id: 0, at: 1) + "\n")
        try folder.write("experiments/none.txt", "")
        let one = await Self.analyze(["one.jsonl"], of: folder)
        #expect(one.stdout.contains("log: 1 file, 1 line, 0 bad"), "\(one.stdout)")
        var lines = (0..<2400).map { AnalysisFixture.exposure("u\($0)", "e", "control", id: 0, at: 1) }
        lines += Array(repeating: "not json", count: 1100)
        try folder.write("many.jsonl", lines.joined(separator: "\n") + "\n")
        let many = await Self.analyze(["many.jsonl"], of: folder)
        #expect(many.stdout.contains("log: 1 file, 3,500 lines, 1,100 bad"), "\(many.stdout)")
    }

    @Test func outputToAFullDeviceExitsOneAndNamesTheError() async throws {
        let folder = try Self.project()
        let result = await Self.analyze(of: folder, ["--format", "json", "--output", "/dev/full"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("remix: cannot write /dev/full: No space left on device"))
        var info = stat()
        #expect(stat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    @Test func outputThroughASymlinkKeepsTheSymlink() async throws {
        let folder = try Self.project()
        let target = try folder.write("real.json", "")
        try FileManager.default.createSymbolicLink(atPath: folder.path("link.json"), withDestinationPath: target)
        let result = await Self.analyze(of: folder, ["--format", "json", "--output", folder.path("link.json")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path("link.json")) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix(#"{"experiments":"#))
    }

    @Test func aMissingExperimentsFolderIsAnErrorWhenNamedAndAWarningOtherwise() throws {
        let folder = try Self.project()
        let typo = try Self.remix(["analyze", "events.jsonl", "--experiments", "/nonexistent-typo"], in: folder)
        #expect(typo.status == 1)
        #expect(typo.stderr == "remix: experiments folder '/nonexistent-typo' does not exist (--experiments)\n")
        #expect(typo.stdout.isEmpty)
        try FileManager.default.removeItem(atPath: folder.path("experiments"))
        let implicit = try Self.remix(["analyze", "events.jsonl"], in: folder)
        #expect(implicit.status == 0)
        #expect(implicit.stderr.hasPrefix("remix: warning: no experiment file: "), "\(implicit.stderr)")
    }

    @Test func exposuresToAnUndeclaredVariationAreLeftOutAndReportedInEveryFormat() async throws {
        let folder = try Self.project(ghosts: 3)
        let json = await Self.analyze(of: folder, ["--format", "json"])
        #expect(json.status == 0)
        let warning = "e: 3 unit(s) exposed to variation(s) its experiment file does not declare are left out of the "
            + "results and the SRM test — 'ghost' (variationId 7): 3"
        #expect(json.stderr.contains("remix: warning: " + warning))
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let experiment = try #require((root["experiments"] as? [[String: Any]])?.first)
        #expect((experiment["variations"] as? [[String: Any]])?.map { $0["key"] as? String } == ["control", "treatment"])
        #expect(experiment["srmPValue"] as? Double == 1, "20 and 20 against 0.5/0.5")
        let undeclared = try #require(experiment["undeclaredVariations"] as? [[String: Any]])
        #expect(undeclared.first?["key"] as? String == "ghost" && undeclared.first?["units"] as? Int == 3)
        #expect(root["warnings"] as? [String] == [warning])
        let table = await Self.analyze(of: folder)
        #expect(table.stdout.contains("warning: " + warning) && table.stdout.contains("SRM p = 1.0000"))
        let csv = await Self.analyze(of: folder, ["--format", "csv"])
        #expect(csv.stdout.split(separator: "\n").first?.contains(",undeclared_variation_units,metric_type,value,inverse,missing_values,non_numeric_values,") == true)
        #expect(csv.stdout.split(separator: "\n").dropFirst().allSatisfy { $0.contains(",3,rate,") })
        #expect(csv.stderr.contains(warning))
        let markdown = await Self.analyze(of: folder, ["--format", "markdown"])
        #expect(markdown.stdout.contains(warning))
    }

    @Test func badLinesOfSeveralLogsAreNamedByFileAndLine() async throws {
        let folder = try Self.project()
        try folder.write("a.jsonl", AnalysisFixture.event("x", "m", at: 1) + "\nnot json\n")
        try folder.write("b.jsonl", #"{"ts":"2026-02-31T00:00:00.000Z","type":"m","user":"y"}"# + "\n")
        let logs = ["a.jsonl", "b.jsonl", "events.jsonl"]
        let result = await Self.analyze(logs, of: folder, ["--format", "json"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("(first: \(folder.path("a.jsonl")):2: not JSON (syntax error at byte 1); \(folder.path("b.jsonl")):1: "
                                       + #""ts" "2026-02-31T00:00:00.000Z" is not"#), "\(result.stderr)")
        let table = await Self.analyze(logs, of: folder)
        #expect(table.stdout.contains("2 bad (first: \(folder.path("a.jsonl")):2: not JSON"))
    }

    @Test func anExistingPathWithGlobCharactersIsTakenAsItIs() async throws {
        let folder = try Self.project()
        try FileManager.default.moveItem(atPath: folder.path("events.jsonl"), toPath: folder.path("log[1].jsonl"))
        let result = await Self.analyze(["log[1].jsonl"], of: folder, ["--format", "csv"])
        #expect(result.status == 0, "\(result.stderr)")
        let missing = await Self.analyze(["log[2].jsonl"], of: folder)
        #expect(missing.status == 1 && missing.stderr.contains("no log matches '\(folder.path("log[2].jsonl"))'"), "\(missing.stderr)")
    }

    @Test func aFIFONobodyWritesIsAnErrorNotAHang() async throws {
        let folder = try Self.project()
        try #require(mkfifo(folder.path("pipe"), 0o600) == 0)
        let result = await Self.analyze(["pipe"], of: folder)
        #expect(result.status == 1)
        #expect(result.stderr.contains("remix: cannot read \(folder.path("pipe")): it is a FIFO and nothing was written to it"))
    }

    @Test func aPipeWithAWriterIsRead() throws {
        let folder = try Self.project()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", #""$0" analyze <(cat events.jsonl) --format csv"#, RemixProcess.remix.path]
        process.currentDirectoryURL = folder.url
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.contains("e,control,0,ManualGroupInsertion,20,advert_published,7,"))
    }

    @Test func devicesAreNotLogs() async throws {
        let folder = try Self.project()
        let result = await RemixInProcess.run(["analyze", "/dev/zero", "--experiments", folder.path("experiments")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("remix: cannot read /dev/zero: it is a device, not a log"))
    }
}

/// A log analysed without its experiment's file: said in every format, and no verdicts.
@Suite struct MissingExperimentFileTests {
    @Test func noVerdictWithoutTheExperimentFile() async throws {
        let folder = try TemporaryFolder()
        var lines: [String] = []
        for index in 0..<400 {
            let treatment = index % 2 == 1
            lines.append(AnalysisFixture.exposure("u\(index)", "e", treatment ? "treatment" : "control", id: index % 2, at: 1))
            // The treatment converts four times as often: with its file this is a WINNER.
            if treatment ? index % 5 != 0 : index % 5 == 0 { lines.append(AnalysisFixture.event("u\(index)", "advert_published", at: 2)) }
        }
        try folder.write("events.jsonl", lines.joined(separator: "\n") + "\n")
        try folder.write("experiments/e.yaml", AnalysisFixture.twoArmExperiment(metrics: "  primary: advert_published\n"))
        try FileManager.default.createDirectory(atPath: folder.path("empty"), withIntermediateDirectories: true)
        let log = folder.path("events.jsonl"), empty = folder.path("empty")
        let withFile = await RemixInProcess.run(["analyze", log, "--experiments", folder.path("experiments")])
        #expect(withFile.stdout.contains("WINNER"), "\(withFile.stdout)")
        let table = await RemixInProcess.run(["analyze", log, "--experiments", empty])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("e: no experiment file · SRM p"))
        let rows = table.stdout.split(separator: "\n")
        #expect(!rows.contains { $0.hasSuffix("WINNER") || $0.hasSuffix("LOSER") } && rows.contains { $0.hasSuffix("significant") },
                "\(table.stdout)")
        for format in ["json", "markdown", "csv"] {
            let result = await RemixInProcess.run(["analyze", log, "--experiments", empty, "--format", format])
            #expect(result.stderr.contains("warning: e: no experiment file for it was read"), "\(format): \(result.stderr)")
            #expect(!result.stdout.split(separator: "\n").contains { $0.hasSuffix("WINNER |") || $0.hasSuffix(",WINNER") })
        }
        let json = await RemixInProcess.run(["analyze", log, "--experiments", empty, "--format", "json"])
        #expect(json.stdout.contains(#""hasExperimentFile":false"#) && json.stdout.contains("no experiment file for it was read"))
    }
}
