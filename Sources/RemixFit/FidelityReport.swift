import Foundation
import RemixAnalysis
import RemixExperiments

/// A real log and a simulated one side by side (`remix compare`): per experiment variation, the
/// share of users exposed, every metric, the funnel, and how sessions go (length, steps, returns,
/// dwell per screen), each with its difference, the tolerance it is held to and whether it is within.
package struct FidelityReport: Sendable {
    /// How far apart two figures may be.
    package enum Tolerance: Sendable, Equatable {
        /// Shares (0–1): at most this many percentage points apart (0.015 = 1.5 points).
        case points(Double)
        /// At most this fraction of the real figure apart (0.05 = 5 %).
        case relative(Double)
        /// Distributions: a Kolmogorov–Smirnov distance of at most this.
        case distance(Double)
        /// Shown, not judged (counts that depend on the logs' sizes).
        case none
    }

    /// One comparison.
    package struct Row: Sendable {
        /// `experiment: variation`, or `all users`.
        package var scope: String
        package var measure: String
        package var real: Double
        package var simulated: Double
        /// Simulated − real, or the KS distance for a distribution.
        package var difference: Double
        package var tolerance: Tolerance
        /// Whether the figure is a share (printed as a percentage).
        package var isShare: Bool

        /// Whether the difference is within the tolerance.
        package var passed: Bool {
            switch tolerance {
            case .points(let limit): abs(difference) <= limit + 1e-12
            case .relative(let limit): abs(difference) <= limit * abs(real) + 1e-12
            case .distance(let limit): difference <= limit + 1e-12
            case .none: true
            }
        }
    }

    package var rows: [Row]
    /// The cumulative session-length curves of both logs, for the HTML page (seconds, share).
    package var durationCurves: (real: [(Double, Double)], simulated: [(Double, Double)])
    /// The metrics that counted something in either log (so they name events the logs hold).
    package var countedMetrics: [String] = []

    /// Rows judged and failed.
    package var failures: [Row] { rows.filter { !$0.passed } }

    /// The default tolerances, those the fit's proof holds a held-out log to (docs/simulation.md).
    package struct Tolerances: Sendable {
        package var primary = 0.015
        package var exposedShare = 0.02
        package var otherRates = 0.03
        package var otherValues = 0.10
        package var funnel = 0.03
        package var durationKS = 0.05
        package var perUser = 0.05
        package var dwell = 0.10

        package init() {}
    }

    /// Compares the logs at `real` and `simulated` (regular files, each read three times) with the
    /// experiments in `definitions` and the metrics of `catalog`.
    package static func compare(real: [String], simulated: [String], definitions: [String: ExperimentDefinition],
                               catalog: MetricCatalog, tolerances: Tolerances = Tolerances()) throws -> FidelityReport {
        func analysis(_ logs: [String]) throws -> AnalysisReport {
            var options = AnalysisOptions(logs: logs, definitions: definitions, jobs: 2)
            options.catalog = catalog
            options.readExperimentFiles = !definitions.isEmpty
            return try Analyzer.run(options)
        }
        let realReport = try analysis(real), simulatedReport = try analysis(simulated)
        let realProfile = try LogProfile.read(paths: real), simulatedProfile = try LogProfile.read(paths: simulated)
        var rows: [Row] = []
        for experiment in realReport.experiments {
            guard let twin = simulatedReport.experiments.first(where: { $0.key == experiment.key }) else { continue }
            for variation in experiment.variations {
                guard let other = twin.variations.first(where: { $0.key == variation.key }) else { continue }
                let scope = "\(experiment.key): \(variation.key)"
                rows.append(Row(scope: scope, measure: "units", real: Double(variation.units), simulated: Double(other.units),
                                difference: Double(other.units - variation.units), tolerance: .none, isShare: false))
                let realShare = Double(variation.units) / Double(max(realProfile.all.users, 1))
                let simulatedShare = Double(other.units) / Double(max(simulatedProfile.all.users, 1))
                rows.append(Row(scope: scope, measure: "share of users exposed", real: realShare, simulated: simulatedShare,
                                difference: simulatedShare - realShare, tolerance: .points(tolerances.exposedShare), isShare: true))
                rows += metricRows(variation, other, scope: scope, primary: experiment.primaryMetric, tolerances)
                rows += funnelRows(variation, other, scope: scope, tolerances)
                if let realGroup = realProfile.variations[experiment.key]?[variation.key],
                   let simulatedGroup = simulatedProfile.variations[experiment.key]?[variation.key] {
                    rows += sessionRows(realGroup, simulatedGroup, scope: scope, tolerances, dwell: false)
                }
            }
        }
        rows += sessionRows(realProfile.all, simulatedProfile.all, scope: "all users", tolerances, dwell: true)
        let counted = (realReport.experiments + simulatedReport.experiments).flatMap(\.variations).flatMap(\.metrics)
            .filter { $0.conversions > 0 }.map(\.metric)
        return FidelityReport(rows: rows, durationCurves: (curve(realProfile.all.duration), curve(simulatedProfile.all.duration)),
                              countedMetrics: Array(Set(counted)).sorted())
    }

    private static func metricRows(_ real: AnalysisReport.Variation, _ simulated: AnalysisReport.Variation, scope: String,
                                   primary: String?, _ tolerances: Tolerances) -> [Row] {
        real.metrics.compactMap { metric in
            guard let twin = simulated.metrics.first(where: { $0.metric == metric.metric }) else { return nil }
            let isRate = metric.type == "rate"
            let a = isRate ? metric.rate : metric.value, b = isRate ? twin.rate : twin.value
            let tolerance: Tolerance = isRate ? .points(metric.metric == primary ? tolerances.primary : tolerances.otherRates)
                : .relative(tolerances.otherValues)
            return Row(scope: scope, measure: "\(metric.metric) (\(metric.label))", real: a, simulated: b, difference: b - a,
                       tolerance: tolerance, isShare: isRate)
        }
    }

    private static func funnelRows(_ real: AnalysisReport.Variation, _ simulated: AnalysisReport.Variation, scope: String,
                                   _ tolerances: Tolerances) -> [Row] {
        let screens = real.funnel.map(\.screen) + simulated.funnel.map(\.screen).filter { s in !real.funnel.contains { $0.screen == s } }
        return screens.map { screen in
            let a = real.funnel.first { $0.screen == screen }?.share ?? 0
            let b = simulated.funnel.first { $0.screen == screen }?.share ?? 0
            return Row(scope: scope, measure: "funnel: \(screen)", real: a, simulated: b, difference: b - a,
                       tolerance: .points(tolerances.funnel), isShare: true)
        }
    }

    private static func sessionRows(_ real: LogProfile.Group, _ simulated: LogProfile.Group, scope: String,
                                    _ tolerances: Tolerances, dwell: Bool) -> [Row] {
        func mean(_ measure: String, _ a: Double, _ b: Double, _ limit: Double) -> Row {
            Row(scope: scope, measure: measure, real: a, simulated: b, difference: b - a, tolerance: .relative(limit), isShare: false)
        }
        var rows = [
            Row(scope: scope, measure: "session length (KS distance; means in s)", real: real.duration.mean,
                simulated: simulated.duration.mean, difference: real.duration.distance(to: simulated.duration),
                tolerance: .distance(tolerances.durationKS), isShare: false),
            mean("steps per session", real.steps.mean, simulated.steps.mean, tolerances.perUser),
            mean("sessions per user", Double(real.sessions) / Double(max(real.users, 1)),
                 Double(simulated.sessions) / Double(max(simulated.users, 1)), tolerances.perUser),
        ]
        if real.daysBetweenVisits.total > 0 || simulated.daysBetweenVisits.total > 0 {
            rows.append(mean("days between visits", real.daysBetweenVisits.mean, simulated.daysBetweenVisits.mean, tolerances.dwell))
        }
        if dwell {
            for screen in real.dwell.keys.sorted() where (real.dwell[screen]?.total ?? 0) >= 30 {
                rows.append(mean("dwell on \(screen) (s)", real.dwell[screen]?.mean ?? 0, simulated.dwell[screen]?.mean ?? 0,
                                 tolerances.dwell))
            }
        }
        return rows
    }

    /// A cumulative curve in 100 points (value at each percentile).
    private static func curve(_ histogram: LogProfile.Histogram) -> [(Double, Double)] {
        (1...100).map { (histogram.quantile(Double($0) / 100), Double($0) / 100) }
    }
}
