import Foundation
import RemixAnalysis
import RemixChecks
import RemixFormats
import RemixKit
import RemixStatistics

/// `remix plan`: power, minimum detectable effect and duration before an experiment runs — from a
/// baseline given or estimated from a log (GrowthBook's formulas), or measured by simulating.
package struct Plan {
    /// Baseline rate of a proportion metric.
    package var rate: Double?
    /// Baseline mean per unit of a mean metric, and the standard deviation of its per-unit values.
    package var mean: Double?, stddev: Double?
    /// Estimate baseline, variance and traffic from this event log.
    package var log: String?
    /// With `log` or `simulate`: the experiment.
    package var experiment: String?
    /// With `log`: the metric (key or event; default: the experiment's primary).
    package var metric: String?
    /// The experiments folder.
    package var experiments = "experiments"
    /// Units entering the experiment per day (all variations).
    package var traffic: Double?
    /// Variations, control included (default 2, or the log's).
    package var variations: Int?
    /// The relative lift to detect.
    package var effect: Double?
    /// Days the experiment runs.
    package var days: Double?
    /// The chance of a significant result wanted, and the significance level.
    package var power = 0.8, alpha = 0.05
    /// Plan for sequential testing, with this tuning.
    package var sequential = false, sequentialTuning = TestSettings.defaultSequentialTuning
    /// Measure power by simulating `runs` times at each of `sizes` users (comma-separated).
    package var simulate = false
    package var sizes = "500,1000,2000"
    package var runs = 50
    /// With `simulate`: the population file (nil: the one ``InputFiles`` finds for the experiment's
    /// app) and the first run's seed.
    package var population: String?
    package var seed: UInt64 = 1

    /// A plan with the defaults.
    package init() {}

    /// The plan's lines, as `remix plan` prints them.
    package struct Outcome {
        package var lines: [String]
    }

    /// Why the options cannot be planned with, or nil.
    package func optionProblem() -> String? {
        guard alpha > 0, alpha < 1 else { return "--alpha must be between 0 and 1 (got \(alpha))" }
        guard power > 0, power < 1 else { return "--power must be between 0 and 1 (got \(power))" }
        if let rate, !(rate > 0 && rate < 1) { return "--rate must be between 0 and 1 (got \(rate))" }
        if let stddev, !(stddev > 0 && stddev.isFinite) { return "--stddev must be above 0 (got \(stddev))" }
        if let traffic, !(traffic > 0 && traffic.isFinite) { return "--traffic must be above 0 units a day (got \(traffic))" }
        if let variations, !(2...100).contains(variations) { return "--variations must be from 2 to 100, control included (got \(variations))" }
        if let mean, !(mean > 0 && mean.isFinite) { return "--mean must be above 0 (got \(mean)): a relative lift needs a positive baseline" }
        if let effect, effect == 0 || !effect.isFinite { return "--effect must be a lift other than 0, e.g. 0.03" }
        if let effect, effect <= -1 { return "--effect must be above -1, a lift of −100 % (got \(effect)); e.g. -0.05 for −5 %" }
        if let days, !(days > 0 && days.isFinite) { return "--days must be above 0 (got \(days))" }
        if !(sequentialTuning >= 1 && sequentialTuning <= 1e12) { return "--sequential-tuning must be from 1 to 10¹² (got \(sequentialTuning))" }
        return simulate ? simulationProblem() : baselineProblem()
    }

    private func simulationProblem() -> String? {
        guard experiment != nil else { return "--simulate needs --experiment KEY" }
        guard runs >= 10 else { return "--runs must be at least 10 (got \(runs))" }
        guard let parsed = parsedSizes, !parsed.isEmpty, parsed.allSatisfy({ $0 >= 20 }) else {
            return "--sizes is a comma-separated list of users per run, each at least 20, e.g. 500,1000 (got \(Excerpt.quoted(sizes)))"
        }
        return nil
    }

    private func baselineProblem() -> String? {
        guard power > alpha else {
            return "--power must be above --alpha (got \(power) and \(alpha)): with no lift at all, a test is significant with probability α"
        }
        let given = [rate != nil, mean != nil || stddev != nil, log != nil].filter { $0 }.count
        guard given == 1 else { return "give the baseline one way: --rate R, --mean M --stddev S, or --log LOG --experiment KEY" }
        if mean != nil, stddev == nil { return "--mean needs --stddev" }
        if log != nil, experiment == nil { return "--log needs --experiment KEY" }
        return nil
    }

    private var parsedSizes: [Int]? {
        let parts = sizes.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        return parts.contains(nil) ? nil : parts.compactMap { $0 }
    }

    /// Plans: analytically, or by simulating (`simulate`).
    package func run(_ context: AppContext) async throws -> Outcome {
        if let problem = optionProblem() { throw AppError(problem) }
        return Outcome(lines: simulate ? try measure(context) : try analytic(context))
    }

    /// The units or days a lift needs, or the lifts detectable in given days.
    private func analytic(_ context: AppContext) throws -> [String] {
        var baseline = Baseline(name: metric ?? "metric", kind: rate != nil ? "rate" : "mean",
                                mean: rate ?? mean ?? 0, standardDeviation: rate.map { ($0 * (1 - $0)).squareRoot() } ?? stddev ?? 0,
                                trafficPerDay: traffic, variations: variations ?? 2, smallestShare: nil)
        if let log, let experiment {
            baseline = try Baseline.estimate(log: log, experiment: experiment, metric: metric, folder: experiments, traffic: traffic,
                                             variations: variations, context)
        }
        var settings = PowerSettings(mean: baseline.mean, standardDeviation: baseline.standardDeviation, alpha: alpha,
                                     sequentialTuning: sequential ? sequentialTuning : nil)
        settings.isProportion = baseline.kind == "rate"
        var lines = [baseline.description + String(format: ", α %g, power %g %%, ", alpha, power * 100)
            + (sequential ? String(format: "sequential (tuning %g)", sequentialTuning) : "fixed horizon")]
        let perVariation = baseline.trafficPerDay.map { $0 * (baseline.smallestShare ?? 1 / Double(baseline.variations)) }
        if let perVariation, let traffic = baseline.trafficPerDay {
            lines.append("traffic \(Self.grouped(traffic)) units a day into the experiment, \(baseline.variations) variations: "
                         + "\(Self.grouped(perVariation)) a day in the smallest")
        }
        if let problem = settings.problem(effect: effect) { throw AppError("cannot plan for \(baseline.name): \(problem)") }
        if let effect { return lines + [try unitsNeeded(effect: effect, perVariation: perVariation, settings)] }
        guard let perVariation else { throw AppError("give --traffic (units a day), or --effect for a sample size without days") }
        return lines + (try detectable(perVariation: perVariation, traffic: baseline.trafficPerDay ?? 0, settings))
    }

    private func unitsNeeded(effect: Double, perVariation: Double?, _ settings: PowerSettings) throws -> String {
        guard let units = PowerAnalysis.unitsNeeded(effect: effect, power: power, settings) else {
            throw AppError("no sample size up to 10¹² units per variation detects a lift of \(Self.percent(effect))")
        }
        let time = perVariation.map { String(format: " — %.1f days", units / $0) } ?? " (give --traffic for days)"
        return "to detect a lift of \(Self.percent(effect)): \(Self.grouped(units)) units per variation\(time)"
    }

    private func detectable(perVariation: Double, traffic: Double, _ settings: PowerSettings) throws -> [String] {
        try (days.map { [$0] } ?? [7, 14, 28]).map { day in
            let units = (perVariation * day).rounded(.down)
            guard units.isFinite else {
                throw AppError(String(format: "in %g days at --traffic %g: more units than a number holds; give fewer days or less traffic",
                                      day, traffic))
            }
            let mde = PowerAnalysis.minimumDetectableEffect(power: power, units: units, settings)
            return String(format: "in %g days (%@ units per variation): ", day, Self.grouped(units))
                + (mde.map { "lifts of \(Self.percent($0)) or more" } ?? "too few units for any lift (σ²k²/μ² ≥ N)")
        }
    }

    /// `simulate`: measured power per size beside the analytic power of what the runs showed.
    private func measure(_ context: AppContext) throws -> [String] {
        let inputs = try SimulationInputs(population: population, experimentsFolder: experiments, experiment: experiment,
                                          metric: metric, context)
        var options = PowerSimulation.Options(experiment: experiment ?? "", sizes: parsedSizes ?? [])
        options.metric = metric
        options.runs = runs
        options.seed = seed
        options.alpha = alpha
        options.sequentialTuning = sequential ? sequentialTuning : nil
        let progress = context.progress
        progress(WorkProgress(.runs("run"), done: 0, total: options.sizes.count * runs))
        let rows = try PowerSimulation.run(options, population: inputs.population, experiments: inputs.experiments,
                                           catalog: inputs.catalog, registry: inputs.registry, replica: inputs.replica(context),
                                           folder: NSTemporaryDirectory()) {
            progress(WorkProgress(.runs("run"), done: $0, total: $1))
        }
        return ["measured power of \(experiment ?? "") (\(runs) runs per size, α \(alpha)"
                + (sequential ? ", sequential" : "") + "; population \(inputs.populationPath)):",
                "users   units/variation   mean lift   measured power (95% interval)   analytic power"]
            + rows.map { row in
                String(format: "%-7d %-17.0f %+8.2f %%   %5.1f %% (%4.1f–%5.1f %%)              %5.1f %%", row.users,
                       row.unitsPerVariation, row.meanLift * 100, row.measuredPower * 100, row.measuredInterval.lowerBound * 100,
                       row.measuredInterval.upperBound * 100, row.analyticPower * 100)
            }
    }

    /// A count with digit grouping; beyond what an integer holds exactly, in scientific notation.
    static func grouped(_ value: Double) -> String {
        abs(value) < 1e15 ? CountText.grouped(Int(value.rounded())) : String(format: "%.3g", value)
    }

    /// A lift in percent; one too small for two decimals, or too large to write out, with three
    /// significant digits (``LiftText/signedPercent(_:)``).
    static func percent(_ value: Double) -> String { LiftText.signedPercent(value) }
}
