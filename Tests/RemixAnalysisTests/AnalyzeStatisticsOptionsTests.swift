import Foundation
import RemixTestSupport
import Testing

/// `remix analyze --sequential`, `--prior-mean`/`--prior-stddev` and `--difference` through the
/// built binary: the figures equal gbstats 0.8.0 on a log the test writes, every format says how
/// the comparisons were tested, and bad values exit 1 with a message.
@Suite struct AnalyzeStatisticsOptionsTests {
    /// Experiment `e`: control 40 of 200 units publish, treatment 67 of 200; each publish has a
    /// duration, and `duration` is their mean per unit.
    static func project() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        var lines: [String] = []
        for index in 0..<400 {
            let treatment = index % 2 == 1
            lines.append(AnalysisFixture.exposure("u\(index)", "e", treatment ? "treatment" : "control", id: index % 2, at: 1))
            if treatment ? index % 3 == 0 : index % 5 == 0 {
                lines.append(AnalysisFixture.event("u\(index)", "advert_published", at: 2, extra: #","durationMs":\#(1000 + index * 7 % 300)"#))
            }
        }
        try folder.write("events.jsonl", lines.joined(separator: "\n") + "\n")
        try folder.write("experiments/e.yaml", AnalysisFixture.twoArmExperiment(metrics: """
              primary: advert_published
              secondary: [duration]
            """))
        try folder.write("experiments/metrics.yaml", """
            metrics:
              - key: duration
                type: mean
                event: advert_published
                value: durationMs
            """)
        return folder
    }

    static func json(_ arguments: [String], in folder: TemporaryFolder) async throws -> [String: Any] {
        let result = await AnalyzeCommandTests.analyze(of: folder, ["--format", "json"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    static func comparison(_ root: [String: Any], metric: String) throws -> [String: Any] {
        let experiment = try #require((root["experiments"] as? [[String: Any]])?.first)
        return try #require((experiment["comparisons"] as? [[String: Any]])?.first { $0["metric"] as? String == metric })
    }

    static func close(_ ours: Any?, _ gbstats: Double) -> Bool {
        guard let ours = ours as? Double else { return false }
        return abs(ours - gbstats) <= 1e-13 * max(abs(gbstats), 1e-3)
    }

    @Test func sequentialTestingEqualsGbstatsAndWidensEveryInterval() async throws {
        let folder = try Self.project()
        let fixed = try await Self.json([], in: folder)
        let root = try await Self.json(["--sequential", "--sequential-tuning", "100"], in: folder)
        #expect(root["sequentialTuning"] as? Double == 100 && root["difference"] as? String == "relative")
        // gbstats: SequentialTwoSidedTTest(ProportionStatistic(200, 40), (200, 67), tuning 100).
        let rate = try Self.comparison(root, metric: "advert_published")
        let ci = try #require(rate["ci"] as? [Double])
        #expect(Self.close(rate["expected"], 0.675) && Self.close(ci[0], -0.23110459406814254)
                && Self.close(ci[1], 1.5811045940681425) && Self.close(rate["pValue"], 0.41224722674877723), "\(rate)")
        for metric in ["advert_published", "duration"] {
            let sequential = try #require(try Self.comparison(root, metric: metric)["ci"] as? [Double])
            let plain = try #require(try Self.comparison(fixed, metric: metric)["ci"] as? [Double])
            #expect(sequential[0] < plain[0] && sequential[1] > plain[1], "\(metric): \(sequential) vs \(plain)")
        }
        let defaultTuning = try await Self.json(["--sequential"], in: folder)
        #expect(defaultTuning["sequentialTuning"] as? Double == 5000)
    }

    @Test func absoluteDifferencesAndAProperPriorEqualGbstats() async throws {
        let folder = try Self.project()
        let root = try await Self.json(["--difference", "absolute", "--prior-mean", "-0.05", "--prior-stddev", "0.2"], in: folder)
        #expect(root["difference"] as? String == "absolute" && root["sequentialTuning"] is NSNull)
        let prior = try #require(root["prior"] as? [String: Any])
        #expect(prior["mean"] as? Double == -0.05 && prior["stddev"] as? Double == 0.2)
        // gbstats: TwoSidedTTest and EffectBayesianABTest(prior N(-0.05, 0.2²), proper, relative), absolute.
        let rate = try Self.comparison(root, metric: "advert_published")
        let ci = try #require(rate["ci"] as? [Double]), risk = try #require(rate["risk"] as? [Double])
        let credible = try #require(rate["credibleInterval"] as? [Double])
        #expect(Self.close(rate["expected"], 0.135) && Self.close(ci[0], 0.048987180188546975)
                && Self.close(ci[1], 0.22101281981145304) && Self.close(rate["pValue"], 0.0021753522760514787), "\(rate)")
        #expect(Self.close(rate["chanceToWin"], 0.9711387447853035) && Self.close(risk[0], 0.05635217647902911)
                && Self.close(risk[1], 0.0003282000996758211), "\(rate)")
        #expect(Self.close(credible[0], -0.001835128831876906) && Self.close(credible[1], 0.11388308159058348), "\(rate)")
        let onlyMean = try await Self.json(["--prior-mean", "0.02"], in: folder)
        #expect((onlyMean["prior"] as? [String: Any])?["stddev"] as? Double == 0.1, "GrowthBook's default stddev")
        #expect(try await Self.json([], in: folder)["prior"] is NSNull)
    }

    @Test func everyFormatSaysHowTheComparisonsWereTested() async throws {
        let folder = try Self.project()
        let arguments = ["--difference", "absolute", "--sequential", "--prior-stddev", "0.3"]
        let table = await AnalyzeCommandTests.analyze(of: folder, arguments)
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("absolute differences, sequential, tuning 5000, prior on the lift N(0, 0.3²)"))
        #expect(table.stdout.contains("difference") && table.stdout.contains("95% CI (sequential)"))
        #expect(table.stdout.contains("+0.135 "), "an absolute difference, not a percentage: \(table.stdout)")
        let markdown = await AnalyzeCommandTests.analyze(of: folder, arguments + ["--format", "markdown"])
        #expect(markdown.stdout.contains("| variation | metric | difference | 95% CI (sequential) |"))
        let csv = await AnalyzeCommandTests.analyze(of: folder, arguments + ["--format", "csv"])
        let rows = csv.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let header = try #require(rows.first)
        let treatment = try #require(rows.first { $0[1] == "treatment" })
        func column(_ name: String) -> String? { header.firstIndex(of: Substring(name)).map { String(treatment[$0]) } }
        #expect(["difference", "sequential_tuning", "prior_mean", "prior_stddev"].map(column) == ["absolute", "5000", "0", "0.3"])
        #expect(["credible_lower", "credible_upper"].allSatisfy { column($0).flatMap(Double.init) != nil })
        #expect(["metric_label", "cuped", "dimension", "dimension_value"].map(column) == ["rate", "false", "", ""])
        let plain = await AnalyzeCommandTests.analyze(of: folder)
        #expect(plain.stdout.contains("lift") && plain.stdout.contains("(Holm-adjusted p, α = 0.05):"))
    }

    @Test func badValuesExitOneWithAMessage() async throws {
        let folder = try Self.project()
        let cases: [([String], String)] = [
            (["--prior-stddev", "-1"], "--prior-stddev must be a number above 0 (got -1.0)"),
            (["--prior-stddev", "0"], "--prior-stddev must be a number above 0 (got 0.0)"),
            (["--prior-mean", "nan"], "--prior-mean must be a finite number (got nan)"),
            (["--sequential", "--sequential-tuning", "0.5"], "--sequential-tuning must be a number of units, at least 1 (got 0.5)"),
            (["--sequential", "--sequential-tuning", "-3"], "--sequential-tuning must be a number of units, at least 1 (got -3.0)"),
            (["--sequential-tuning", "100"], "--sequential-tuning needs --sequential"),
            (["--difference", "scaled"], "Please provide one of 'relative' and 'absolute'"),
        ]
        for (arguments, message) in cases {
            let result = await AnalyzeCommandTests.analyze(of: folder, arguments)
            #expect(result.status == 1, "\(arguments): exit \(result.status)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments)")
        }
    }
}
