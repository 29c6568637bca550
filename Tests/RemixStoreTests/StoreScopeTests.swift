import Foundation
import RemixTestSupport
import Testing

/// `remix analyze postgresql://…` with phases, `--phase` and `--dimension`: the report equals the
/// same events' file report (each phase's own units and SRM, slices); a bandit, whose weights the
/// aggregates do not carry, gets no SRM verdict rather than a false alarm.
@Suite(.enabled(if: StoreServer.shouldRun, StoreServer.skipReason))
struct StoreScopeTests {
    static var root: URL { Repository.root }

    /// The JSON report of `log` (its `log` part left out) and the experiments' SRM p-values.
    static func srm(_ report: NSDictionary) -> [Double?] {
        (report["experiments"] as? [[String: Any]] ?? []).map { $0["srmPValue"] as? Double }
    }

    @Test func phasesAndSlicesOfTheStoreAreTheFilesReport() async throws {
        try await StoreAnalysisTests.withOwnStore { url in
            let folder = try TemporaryFolder()
            let phased = try PhasedLog.simulate(in: folder)
            let copy = try RemixProcess.run(["log", "copy", phased.log, url], in: Self.root)
            #expect(copy.status == 0, "\(copy.stderr)")
            let experiments = ["--experiments", phased.experiments]
            try FileManager.default.createDirectory(atPath: folder.path("no-files"), withIntermediateDirectories: true)
            // The default (the latest phase), each phase, all together; slices of a phase and of all
            // phases, by an attribute and by a top-level field; without the experiment files too.
            let runs: [[String]] = [experiments, experiments + ["--phase", "0"], experiments + ["--phase", "all"],
                                    experiments + ["--dimension", "platform"], experiments + ["--phase", "all", "--dimension", "visit"],
                                    experiments + ["--phase", "0", "--dimension", "persona", "--metric", "session-duration"],
                                    ["--experiments", folder.path("no-files"), "--metric", "group_viewed"]]
            for options in runs {
                let fromFile = try StoreAnalysisTests.report(phased.log, options)
                let fromStore = try StoreAnalysisTests.report(url, options)
                #expect(fromStore == fromFile, "\(options)")
            }
            // Not trivial: the latest phase is reported on its own, and its SRM is no alarm.
            let latest = try StoreAnalysisTests.report(url, experiments)
            let experiment = try #require((latest["experiments"] as? [[String: Any]])?.first)
            #expect(experiment["phase"] as? String == "1" || experiment["phase"] as? Int == 1, "\(experiment["phase"] ?? "none")")
            #expect((experiment["phases"] as? [Any])?.count == 2)
            #expect(Self.srm(latest).allSatisfy { ($0 ?? 0) > 0.001 }, "\(Self.srm(latest))")
            let sliced = try StoreAnalysisTests.report(url, experiments + ["--dimension", "platform"])
            #expect(((sliced["experiments"] as? [[String: Any]])?.first?["slices"] as? [Any])?.count == 2)
        }
    }

    /// A bandit's log copied into the store: its split follows the weights of its updates, which
    /// the store's analysis does not read, so it gives no SRM test, says why in every format, and
    /// names the file analysis that gives the bandit's figures.
    @Test func aBanditFromTheStoreGetsNoSRMVerdict() async throws {
        try await StoreAnalysisTests.withOwnStore { url in
            let folder = try TemporaryFolder()
            let example = Self.root.appendingPathComponent("docs/examples/bandit").path
            let log = folder.path("bandit.jsonl")
            let simulate = try RemixProcess.run(["simulate", "--experiments", example, "--population",
                                                 example + "/better-manual.population.yaml", "--users", "3000", "--seed", "4",
                                                 "--no-report", "--log", log], in: Self.root)
            #expect(simulate.status == 0, "\(simulate.stderr)")
            #expect(try RemixProcess.run(["log", "copy", log, url], in: Self.root).status == 0)
            let options = ["--experiments", example, "--metrics", example + "/metrics.yaml"]
            let fromStore = try StoreAnalysisTests.report(url, options)
            let bandit = try #require((fromStore["experiments"] as? [[String: Any]])?.first { $0["key"] as? String == "insertion-bandit" })
            #expect(bandit["srmPValue"] == nil || bandit["srmPValue"] is NSNull, "\(bandit["srmPValue"] ?? "")")
            #expect(bandit["srmWarning"] as? Bool == false)
            let warnings = fromStore["warnings"] as? [String] ?? []
            #expect(warnings.contains { $0.hasPrefix("insertion-bandit: a bandit's weights change at each bandit_update") }, "\(warnings)")
            let table = try RemixProcess.run(["analyze", url] + options, in: Self.root)
            #expect(table.status == 0 && !table.stdout.contains("SAMPLE RATIO MISMATCH"), "\(table.stdout)")
            #expect(table.stdout.contains("SRM p = n/a") && table.stdout.contains("no SRM test is made"), "\(table.stdout)")
            for format in ["csv", "markdown", "html"] {
                let other = try RemixProcess.run(["analyze", url, "--format", format] + options, in: Self.root)
                #expect(other.status == 0 && (other.stdout + other.stderr).contains("no SRM test is made"), "\(format)")
            }
        }
    }
}
