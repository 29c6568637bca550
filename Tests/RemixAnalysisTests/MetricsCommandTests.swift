import Foundation
import RemixCLITestSupport
import RemixTestSupport
import Testing

/// metrics.yaml as `remix analyze` and `remix validate` read it.
@Suite struct MetricsCommandTests {
    static func project(metrics: String, secondary: String) throws -> TemporaryFolder {
        let folder = try AnalyzeCommandTests.project()
        try folder.write("experiments/metrics.yaml", metrics)
        let experiment = try String(contentsOfFile: folder.path("experiments/e.yaml"), encoding: .utf8)
        try folder.write("experiments/e.yaml", experiment.replacingOccurrences(
            of: "  primary: advert_published\n", with: "  primary: advert_published\n  secondary: [\(secondary)]\n"))
        return folder
    }

    static let metrics = """
        metrics:
          - {key: adverts-published, type: mean, event: advert_published}
        """

    @Test func analyzeReadsTheFolderMetricsAndValidateChecksTheNames() async throws {
        let folder = try Self.project(metrics: Self.metrics, secondary: "adverts-published")
        let json = await AnalyzeCommandTests.analyze(of: folder, ["--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.contains(#""adverts-published":{"type":"mean""#))
        let valid = await RemixInProcess.run(["validate", folder.path("experiments")])
        #expect(valid.status == 0, "\(valid.stderr)")

        let typo = try Self.project(metrics: Self.metrics, secondary: "adverts-publish")
        let validate = await RemixInProcess.run(["validate", typo.path("experiments")])
        #expect(validate.status == 1)
        #expect(validate.stderr.contains("experiments/e.yaml:"), "\(validate.stderr)")
        #expect(validate.stderr.contains("unknown metric 'adverts-publish'") && validate.stderr.contains("did you mean 'adverts-published'"))
        let analyze = await AnalyzeCommandTests.analyze(of: typo)
        #expect(analyze.stderr.contains("experiments/e.yaml:") && analyze.stderr.contains("warning: unknown metric 'adverts-publish'")
                && analyze.stderr.contains("did you mean 'adverts-published'?"), "\(analyze.stderr)")
    }

    /// A `--metric` that is neither a key nor an event any exposed unit has is most likely a typo:
    /// the report of zeros comes with a warning naming the nearest key or event.
    @Test func aMetricOptionThatMatchesNothingIsWarnedAbout() async throws {
        let folder = try Self.project(metrics: Self.metrics, secondary: "adverts-published")
        let typo = await AnalyzeCommandTests.analyze(of: folder, ["--metric", "advert_publishd"])
        #expect(typo.status == 0, "\(typo.stderr)")
        #expect(typo.stderr.contains("warning: --metric 'advert_publishd' is not a key of \(folder.path("experiments/metrics.yaml")) and no "
                                     + "exposed unit has an event of that type; did you mean 'advert_published'?"), "\(typo.stderr)")
        let real = await AnalyzeCommandTests.analyze(of: folder, ["--metric", "advert_published"])
        #expect(real.status == 0 && !real.stderr.contains("--metric"), "\(real.stderr)")
    }

    /// A `value` field the event does not carry is caught where the metric is named.
    @Test func validateChecksValueFieldsAgainstTheDeclaredEvent() async throws {
        let metrics = """
            metrics:
              - {key: time, type: mean, event: session_ended, value: durationMS}
              - {key: sessions, type: mean, event: session_ended}
              - {key: per-session, type: ratio, numerator: time, denominator: sessions}
            """
        let folder = try Self.project(metrics: metrics, secondary: "per-session")
        let result = await RemixInProcess.run(["validate", folder.path("experiments")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("experiments/metrics.yaml:2:11: warning: metric 'time' sums the field 'durationMS' of "
                                       + "'session_ended', which it does not carry; did you mean 'durationMs'?"), "\(result.stderr)")
        #expect(result.stderr.contains("error: metric 'per-session' sums the field 'durationMS' of 'session_ended' (its part 'time')"))
    }

    @Test func aBrokenMetricsFileStopsTheAnalysis() async throws {
        let folder = try Self.project(metrics: "metrics:\n  - {key: x, type: quantile, event: e}\n", secondary: "x")
        let result = await AnalyzeCommandTests.analyze(of: folder)
        #expect(result.status == 1)
        #expect(result.stderr.contains("experiments/metrics.yaml:2:"), "\(result.stderr)")
        let other = await AnalyzeCommandTests.analyze(of: folder, ["--metrics", folder.path("nowhere.yaml")])
        #expect(other.status == 1 && other.stderr.contains("nowhere.yaml:1:1: error: no such file"), "\(other.stderr)")
    }
}
