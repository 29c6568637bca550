import Foundation
@testable import RemixAnalysis
import RemixCLITestSupport
import RemixExperiments
import RemixLogReader
@testable import RemixReports
@testable import RemixStatistics
import RemixTestSupport
import Testing

/// `remix analyze` on experiments with phases: the latest phase by default, `--phase N|all`, each
/// phase's SRM from its own weights, returning users who switched, and every format saying which.
@Suite struct PhaseAnalysisTests {
    /// Experiment `e`: 50/50 in phase 0, 20/80 in phase 1.
    static let file = """
        key: e
        app: marketplace
        slot: insertion
        hashVersion: 2
        variations:
          - {key: control, feature: ManualGroupInsertion}
          - {key: treatment, feature: AutoGroupInsertion}
        metrics:
          primary: advert_published
        phases:
          - {start: 2026-11-01}
          - {start: 2026-11-20, weights: [0.2, 0.8], reason: more traffic to treatment}
        """

    static func exposure(_ user: String, _ variation: String, phase: Int?, at second: Int) -> String {
        var line = AnalysisFixture.exposure(user, "e", variation, id: variation == "control" ? 0 : 1, at: second)
        if let phase { line = String(line.dropLast()) + ",\"phase\":\(phase)}" }
        return line
    }

    /// Phase 0: u1 control, u2 treatment, u3 control, u4 treatment; phase 1: u1 treatment (switched),
    /// u2 treatment (stayed), u5 and u6 treatment, u7 control; u2, u5 and u7 publish.
    static var lines: [String] {
        [Self.exposure("u1", "control", phase: 0, at: 1), Self.exposure("u2", "treatment", phase: 0, at: 2),
         Self.exposure("u3", "control", phase: 0, at: 3), Self.exposure("u4", "treatment", phase: 0, at: 4),
         Self.exposure("u1", "treatment", phase: 1, at: 10), Self.exposure("u2", "treatment", phase: 1, at: 11),
         Self.exposure("u5", "treatment", phase: 1, at: 12), Self.exposure("u6", "treatment", phase: 1, at: 13),
         Self.exposure("u7", "control", phase: 1, at: 14),
         AnalysisFixture.event("u2", "advert_published", at: 20), AnalysisFixture.event("u5", "advert_published", at: 21),
         AnalysisFixture.event("u7", "advert_published", at: 22)]
    }

    static func report(_ selection: PhaseSelection, lines: [String] = lines, jobs: Int = 2) throws -> AnalysisReport {
        let (definition, problems) = ExperimentFileParser.parse(file, file: "e.yaml")
        #expect(problems.isEmpty)
        var options = AnalysisOptions(logs: [try AnalysisFixture.log(lines)], definitions: ["e": try #require(definition)], jobs: jobs)
        options.phase = selection
        options.readSizes = LogReader.Sizes(chunk: 97, parallelMinimum: 64, maxLineLength: 1 << 20)
        return try Analyzer.run(options)
    }

    @Test(arguments: [1, 2])
    func theLatestPhaseIsReportedByDefaultWithItsOwnWeights(jobs: Int) throws {
        let report = try Self.report(.latest, jobs: jobs)
        #expect(report.experiments.map(\.key) == ["e"])
        let e = try #require(report.experiments.first)
        #expect(e.phase == .number(1))
        #expect(e.variations.map(\.units) == [1, 4] && e.multipleExposureUnits == 0)
        #expect(e.variations.map { $0.metrics.first?.conversions } == [1, 2])
        #expect(e.weights == [0.2, 0.8])
        #expect(e.srmPValue == SampleRatio.pValue(observed: [1, 4], weights: [0.2, 0.8]))
        #expect(e.phases.map(\.phase) == [0, 1])
        #expect(e.phases.map(\.units) == [[2, 2], [1, 4]])
        #expect(e.phases.map(\.weights) == [[0.5, 0.5], [0.2, 0.8]])
        #expect(e.phases[0].srmPValue == SampleRatio.pValue(observed: [2, 2], weights: [0.5, 0.5]))
        #expect(e.unitsInSeveralPhases == 2 && e.unitsSwitchingVariation == 1)
    }

    @Test func aNamedPhaseAndAllPhasesTogether() throws {
        let first = try #require(try Self.report(.number(0)).experiments.first)
        #expect(first.phase == .number(0) && first.variations.map(\.units) == [2, 2] && first.weights == [0.5, 0.5])
        #expect(first.variations.map { $0.metrics.first?.conversions } == [0, 1])
        let all = try #require(try Self.report(.all).experiments.first)
        // u1 saw both variations: left out as a multiple exposure, as any unit that saw two.
        #expect(all.phase == .all && all.variations.map(\.units) == [2, 4] && all.multipleExposureUnits == 1)
        // Expected split: each phase's weights by the units first exposed in it (u1–u4 in phase 0,
        // u5–u7 in phase 1: 4 and 3 of 7), where each unit's variation was drawn.
        #expect(abs(all.weights[0] - (4.0 / 7 * 0.5 + 3.0 / 7 * 0.2)) < 1e-12)
    }

    @Test func aLogWithoutPhasesIsReportedAsBefore() throws {
        let plain = Self.lines.map {
            $0.replacingOccurrences(of: #","phase":0"#, with: "").replacingOccurrences(of: #","phase":1"#, with: "")
        }
        let report = try Self.report(.latest, lines: plain)
        let e = try #require(report.experiments.first)
        #expect(e.phase == nil && e.phases.isEmpty && e.variations.map(\.units) == [2, 4] && e.multipleExposureUnits == 1)
        #expect(!JSONReport.render(report).contains("phase"))
        #expect(!CSVReport.render(report).contains("phase"))
        #expect(!TableReport.render(report, style: .markdown).contains("--phase"))
    }

    @Test func everyFormatSaysWhichPhaseItReports() throws {
        let report = try Self.report(.latest)
        let json = JSONReport.render(report)
        #expect(json.contains(#""phase":1,"phases":[{"phase":0,"units":[2,2],"weights":[0.5,0.5],"#))
        #expect(json.contains(#""unitsInSeveralPhases":2,"unitsSwitchingVariation":1"#))
        let csv = CSVReport.render(report).split(separator: "\n")
        #expect(csv.first?.hasSuffix(",phase") == true && csv.dropFirst().allSatisfy { $0.hasSuffix(",1") })
        let table = TableReport.render(report, style: .markdown)
        #expect(table.contains("reports phase 1 (--phase N|all) · phase 0: 4 units, SRM p = 1.0000 · phase 1: 5 units"))
        #expect(table.contains("2 units in several phases, 1 of them re-randomised to another variation"))
        #expect(HTMLReport.render(report).contains("reports phase 1 (--phase N|all)"))
        let all = try Self.report(.all)
        #expect(CSVReport.render(all).split(separator: "\n").dropFirst().allSatisfy { $0.hasSuffix(",all") })
        #expect(JSONReport.render(all).contains(#""phase":"all""#))
    }

    @Test func theCommandTakesPhaseAndRefusesWhatIsNotOne() async throws {
        let folder = try TemporaryFolder()
        try folder.write("events.jsonl", Self.lines.joined(separator: "\n") + "\n")
        try folder.write("experiments/e.yaml", Self.file)
        let run = { (options: [String]) in
            await RemixInProcess.run(["analyze", folder.path("events.jsonl"), "--experiments", folder.path("experiments")] + options)
        }
        let first = await run(["--phase", "0", "--format", "csv"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.split(separator: "\n").dropFirst().allSatisfy { $0.hasSuffix(",0") })
        let table = await run([])
        #expect(table.stdout.contains("reports phase 1 (--phase N|all)"), "\(table.stdout)")
        let bad = await run(["--phase", "first"])
        #expect(bad.status == 1 && bad.stdout.isEmpty)
        #expect(bad.stderr.contains("--phase is a phase number from 0 (as GrowthBook numbers them), latest or all, not 'first'"),
                "\(bad.stderr)")
    }

    /// Phases are numbered from 0: `--phase 2` of a two-phase experiment is an error naming the
    /// phases it has — from its file, else from the log — never a report of zeros.
    @Test func aPhaseTheExperimentDoesNotHaveIsAnErrorNamingThoseItHas() async throws {
        #expect { try Self.report(.number(2)) } throws: { error in
            "\(error)" == "--phase 2: experiment 'e' has phases 0 and 1 (numbered from 0, as GrowthBook numbers them); "
                + "give one of them, latest or all"
        }
        let folder = try TemporaryFolder()
        try folder.write("events.jsonl", Self.lines.joined(separator: "\n") + "\n")
        try folder.write("experiments/e.yaml", Self.file)
        try folder.write("bare/readme.txt", "no experiment files here\n")
        let result = await RemixInProcess.run(["analyze", folder.path("events.jsonl"), "--experiments", folder.path("experiments"),
                                               "--phase", "2"])
        #expect(result.status == 1 && result.stdout.isEmpty, "\(result.stdout)")
        // (After the note that the folder has no metrics.yaml of its own.)
        #expect(result.stderr.hasSuffix("\nremix: --phase 2: experiment 'e' has phases 0 and 1 (numbered from 0, as GrowthBook "
                + "numbers them); give one of them, latest or all\n"), "\(result.stderr)")
        // Without its file, the phases are those the log holds.
        let bare = await RemixInProcess.run(["analyze", folder.path("events.jsonl"), "--experiments", folder.path("bare"),
                                             "--phase", "5"])
        #expect(bare.status == 1 && bare.stdout.isEmpty, "\(bare.stdout)")
        #expect(bare.stderr.contains("remix: --phase 5: the log holds phases 0 and 1 of experiment 'e' (numbered from 0, as "
                                     + "GrowthBook numbers them); give one of them, latest or all\n"), "\(bare.stderr)")
        let fine = await RemixInProcess.run(["analyze", folder.path("events.jsonl"), "--experiments", folder.path("bare"),
                                             "--phase", "1"])
        #expect(fine.status == 0, "\(fine.stderr)")
    }

    @Test func anExperimentWhoseFirstPhaseIsToComeIsListedAsNotRunning() throws {
        let (definition, _) = ExperimentFileParser.parse(Self.file, file: "e.yaml")
        let listed = Analyzer.notRunning(["e": try #require(definition)], inLog: [], now: DateParsing.parse("2026-10-01")!)
        #expect(listed.map(\.description) == ["e: its first phase starts 2026-11-01T00:00:00Z"])
        #expect(Analyzer.notRunning(["e": try #require(definition)], inLog: [], now: DateParsing.parse("2026-11-02")!)
                    .map(\.description) == ["e: no exposure in the log"])
    }

    @Test func everyCutOfByHourReportsTheSamePhase() throws {
        // Phase 0 at 09:00, phase 1 at 11:00; without a file the latest is the log's highest, phase 1, and the
        // cuts before 11:00 report it too (no units yet), not phase 0, the highest they see.
        let lines = Self.lines.map { line in
            line.contains(#""phase":1"#) ? line.replacingOccurrences(of: "T09:00:", with: "T11:00:") : line
        }
        var options = AnalysisOptions(logs: [try AnalysisFixture.log(lines)], jobs: 1)
        options.by = .hour
        let e = try #require(try Analyzer.run(options).experiments.first)
        #expect(e.phase == .number(1))
        #expect(e.overTime.map { $0.variations.map(\.units) } == [[], [], [1, 4]])
    }

    @Test func phaseOptionsAreParsed() {
        #expect(PhaseSelection("all") == .all && PhaseSelection("latest") == .latest && PhaseSelection("2") == .number(2))
        #expect(PhaseSelection("-1") == nil && PhaseSelection("one") == nil && PhaseSelection("99999") == nil)
    }
}
