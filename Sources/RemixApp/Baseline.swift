import Foundation
import RemixAnalysis
import RemixExperiments

/// A metric's baseline for planning: given, or estimated from a log's control variation.
struct Baseline {
    var name: String
    var kind: String
    var mean: Double
    var standardDeviation: Double
    var trafficPerDay: Double?
    var variations: Int
    /// The smallest variation's share of the units (from a log); nil for equal shares.
    var smallestShare: Double?

    /// The metric, its baseline and per-unit variance (as the square of the standard deviation
    /// when the variance itself is beyond a double).
    var description: String {
        let variance = standardDeviation * standardDeviation
        return String(format: "%@ (%@ %.4g, variance %@ per unit)", name, kind, mean,
                      variance.isFinite ? String(format: "%.4g", variance) : String(format: "(%.4g)²", standardDeviation))
    }

    /// The control's figure and per-unit variance of `metric` in `experiment`, and units a day.
    static func estimate(log: String, experiment: String, metric: String?, folder: String, traffic: Double?,
                         variations: Int?, _ context: AppContext) throws -> Baseline {
        var definitions: [String: ExperimentDefinition] = [:]
        if FileManager.default.fileExists(atPath: folder) {
            for definition in ExperimentSet.load(paths: [folder]).0.definitions { definitions[definition.key] = definition }
        }
        var options = AnalysisOptions(logs: [log], definitions: definitions, experiment: experiment,
                                      metrics: metric.map { [$0] } ?? [])
        options.defaultMetrics = Analyze.defaultMetrics(of: definitions[experiment].map { [$0] } ?? [], registry: Modules.quiet(context))
        options.catalog = try Definitions.metrics(nil, folder: folder, named: metric.map { [$0] } ?? definitions[experiment]?.metrics.all ?? [],
                                                  context)
        let report = try Analyzer.run(options)
        guard let found = report.experiments.first, let control = found.variations.first,
              let figure = control.metrics.first, control.units > 1 else {
            throw AppError("\(experiment) has too few units in \(log) to estimate a baseline")
        }
        // A figure past the largest double (a unit's sum, or the variance of values near it) plans nothing.
        if let error = figure.error { throw AppError("\(figure.metric) in \(experiment): \(error); plan with --mean and --stddev instead") }
        guard figure.value.isFinite, figure.unitVariance.isFinite else {
            throw AppError("\(figure.metric) in \(experiment): its variance per unit passes the largest double (1.8e308); "
                           + "plan with --mean and --stddev instead")
        }
        let units = found.variations.reduce(0) { $0 + $1.units }
        var perDay = traffic
        if perDay == nil, let span = found.exposureSpan {
            let days = Double(span.upperBound - span.lowerBound) / 86_400_000
            guard days > 0 else { throw AppError("every unit of \(experiment) was first exposed at one instant; give --traffic (units a day)") }
            perDay = Double(units) / days
        }
        let smallest = found.variations.map(\.units).min() ?? 0
        return Baseline(name: figure.metric, kind: figure.type, mean: figure.value, standardDeviation: figure.unitVariance.squareRoot(),
                        trafficPerDay: perDay, variations: variations ?? found.variations.count,
                        smallestShare: variations == nil && units > 0 ? Double(smallest) / Double(units) : nil)
    }
}
