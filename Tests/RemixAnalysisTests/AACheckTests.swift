import Foundation
@testable import RemixAnalysis
@testable import RemixChecks
import RemixBuiltIns
import RemixExperiments
import RemixHost
import RemixSimulation
import RemixCLITestSupport
@testable import RemixStatistics
import RemixTestSupport
import Testing

/// `remix check aa`: the shipped engine passes its own A/A check, and an analysis that halves the
/// standard error fails it.
@Suite struct AACheckTests {
    static func inputs() throws -> (Population, ExperimentSet, MetricCatalog, String) {
        let folder = AnalysisFixture.repository.appendingPathComponent("experiments").path
        let (population, problems) = PopulationFile.load(path: folder + "/population.yaml")
        guard let population, problems.isEmpty else { throw AnalysisFixture.FixtureError.population }
        let (set, _) = ExperimentSet.load(paths: [folder])
        return (population, set, MetricsFileParser.load(folder + "/metrics.yaml").0, try AnalysisFixture.folder().path)
    }

    static func options() -> AACheck.Options {
        var options = AACheck.Options(experiment: "insertion-flow")
        options.runs = 30
        options.usersPerRun = 240
        options.jobs = 2
        return options
    }

    @Test func theShippedPipelinePassesAndAHalvedStandardErrorFails() throws {
        let (population, set, catalog, folder) = try Self.inputs()
        let registry = try BuiltInModules.registry()
        let honest = try AACheck.run(Self.options(), population: population, experiments: set, catalog: catalog,
                                     registry: registry, folder: folder)
        #expect(honest.passed, "\(honest.failures)")
        #expect(honest.runs == 30 && honest.pValues.count == 30)
        // A broken engine: p-values from z = lift / (SE / 2).
        let broken = try AACheck.run(Self.options(), population: population, experiments: set, catalog: catalog,
                                     registry: registry, folder: folder) { options in
            var report = try Analyzer.run(options)
            for index in report.experiments[0].comparisons.indices {
                let comparison = report.experiments[0].comparisons[index]
                let standardError = (comparison.ci[1] - comparison.expected) / Normal.quantile(0.975)
                report.experiments[0].comparisons[index].pValue = 2 * (1 - Normal.cdf(abs(comparison.expected) / (standardError / 2)))
            }
            return report
        }
        #expect(!broken.passed)
        #expect(broken.falsePositiveRate > 0.15, "\(broken.falsePositiveRate)")
    }

    /// With a replica loader the second worker simulates on its own registry, made once for all
    /// the runs: the p-values are those of workers sharing one registry.
    @Test func workersOnTheirOwnRegistryGiveTheSamePValues() throws {
        let (population, set, catalog, folder) = try Self.inputs()
        let registry = try BuiltInModules.registry()
        var options = Self.options()
        options.runs = 6
        let shared = try AACheck.run(options, population: population, experiments: set, catalog: catalog,
                                     registry: registry, folder: folder)
        var made = 0
        let own = try AACheck.run(options, population: population, experiments: set, catalog: catalog, registry: registry,
                                  replica: { made += 1; return try BuiltInModules.registry() }, folder: folder)
        #expect(made == 1)
        #expect(own.pValues == shared.pValues && own.pValues.count == 6)
    }

    /// Looking at every run twelve times inflates the fixed-horizon test's false positives past α;
    /// the sequential test's stay at or below it.
    @Test func peekingFailsTheFixedHorizonTestAndNotTheSequentialOne() throws {
        let (population, set, catalog, folder) = try Self.inputs()
        let registry = try BuiltInModules.registry()
        var options = Self.options()
        options.runs = 40
        options.looks = 12
        let fixed = try AACheck.run(options, population: population, experiments: set, catalog: catalog,
                                    registry: registry, folder: folder)
        #expect(!fixed.passed && fixed.falsePositiveRate > 0.1, "\(fixed.falsePositiveRate)")
        options.sequentialTuning = TestSettings.defaultSequentialTuning
        let sequential = try AACheck.run(options, population: population, experiments: set, catalog: catalog,
                                         registry: registry, folder: folder)
        #expect(sequential.passed, "\(sequential.failures)")
        #expect(sequential.falsePositiveRate <= 0.05)
    }

    /// 17 false positives in 200 runs: α = 0.05 is outside the 95 % interval (0.054–0.132) but inside
    /// the 99.9 % one the check passes on — what is printed is that interval and that gate.
    @Test func eachGateSaysWhatItTestsAndAgreesWithItsVerdict() throws {
        let pValues = (0..<200).map { Double($0) / 200 + 0.0025 }
        let result = AACheck.summarize(pValues: pValues, falsePositives: 17, alarms: 0, alpha: 0.05)
        #expect(result.passed, "\(result.failures)")
        #expect(result.gates.map(\.rule) == ["α = 0.05 lies in the interval", "the interval's lower end is at most 0.001", "p ≥ 0.001"])
        #expect(result.gates[0].figure == "false positives  17 of 200 = 0.085, 99.9% interval 0.040–0.173")
        #expect(result.gateInterval.contains(0.05) && !Wilson.interval(17, of: 200).contains(0.05))
        let failing = AACheck.summarize(pValues: pValues, falsePositives: 60, alarms: 0, alpha: 0.05)
        #expect(failing.failures == ["false positives  60 of 200 = 0.300, 99.9% interval 0.206–0.415; "
                                        + "gate: α = 0.05 lies in the interval — it does not"])
    }

    /// `remix check aa` prints each figure with its gate on standard output, and its progress on
    /// standard error only (it was silent when standard error is not a terminal).
    @Test func theCommandPrintsItsGatesAndShowsProgressOnStandardError() async throws {
        let result = await RemixInProcess.run(["check", "aa", "--runs", "10", "--users", "100", "--jobs", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 8 && lines.last == "passed", "\(result.stdout)")
        #expect(lines[2] == "    gate: α = 0.05 lies in the interval — ok", "\(result.stdout)")
        #expect(lines[4] == "    gate: the interval's lower end is at most 0.001 — ok", "\(result.stdout)")
        #expect(lines[6] == "    gate: p ≥ 0.001 — ok", "\(result.stdout)")
        #expect(!result.stdout.contains("A/A run"))
        #expect(result.stderr == (0...10).map { "A/A run \($0)/10\n" }.joined(), "\(result.stderr)")
    }

    /// An event the population's `check` logs is a metric the runs can count, as for `simulate`.
    @Test func anEventThePopulationsCheckLogsIsAMetric() async throws {
        let result = await RemixInProcess.run(["check", "aa", "--metric", "advert_misfiled", "--runs", "10", "--users", "100",
                                               "--jobs", "1"])
        #expect(!result.stderr.contains("is not a key of"), "\(result.stderr)")
        #expect(result.stdout.contains("    gate: p ≥ 0.001"), "\(result.stdout)")
    }

    @Test func wilsonAndKolmogorovSmirnovAgreeWithKnownValues() {
        // Wilson's 95 % interval for 0 of 20: [0, 0.1611]; for 10 of 100: [0.0552, 0.1744].
        #expect(abs(Wilson.interval(0, of: 20).upperBound - 0.16113) < 1e-4)
        let tenth = Wilson.interval(10, of: 100)
        #expect(abs(tenth.lowerBound - 0.05523) < 1e-4 && abs(tenth.upperBound - 0.17437) < 1e-4)
        let grid = (0..<100).map { (Double($0) + 0.5) / 100 }
        #expect(KolmogorovSmirnov.uniform(grid).pValue > 0.99)
        #expect(KolmogorovSmirnov.uniform(Array(repeating: 0.01, count: 100)).pValue < 1e-10)
        #expect(abs(KolmogorovSmirnov.uniform(grid).distance - 0.005) < 1e-12)
    }
}

/// `remix plan --simulate`: measured power through the real features agrees with the analytic
/// power of the lift and variance the runs showed.
@Suite struct PowerSimulationTests {
    @Test func measuredPowerHoldsTheAnalyticValueInItsInterval() throws {
        let (population, set, catalog, folder) = try AACheckTests.inputs()
        var options = PowerSimulation.Options(experiment: "insertion-flow", sizes: [500])
        options.runs = 30
        options.jobs = 2
        let rows = try PowerSimulation.run(options, population: population, experiments: set, catalog: catalog,
                                           registry: try BuiltInModules.registry(), folder: folder)
        let row = try #require(rows.first)
        #expect(row.runs == 30 && row.meanLift > 0.05, "\(row)")
        #expect(row.measuredInterval.contains(row.analyticPower), "measured \(row.measuredPower) \(row.measuredInterval), analytic \(row.analyticPower)")
        #expect(row.analyticPower > 0.2 && row.analyticPower < 0.95)
    }
}
