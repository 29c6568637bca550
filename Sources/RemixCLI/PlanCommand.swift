import ArgumentParser
import Foundation
import RemixFormats
import RemixKit
import RemixAnalysis
import RemixChecks
import RemixExperiments
import RemixSimulation

/// `remix plan`: power, minimum detectable effect and duration before an experiment runs.
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "How many units and days an experiment needs to detect a lift, or what it can detect in a given time.",
        discussion: """
            Give the metric's baseline (--rate for a proportion; --mean and --stddev for a mean) and \
            the traffic, or estimate all three from a log (--log LOG --experiment KEY): the control's \
            figure and per-unit variance, and the units entering per day. With --effect, the units \
            per variation and days needed; with --days, the smallest detectable lift; with neither, \
            the lift detectable in 7, 14 and 28 days. GrowthBook's formulas (docs/planning.md).
            """)

    @Option(parsing: .unconditional, help: "Baseline rate of a proportion metric, e.g. 0.75.") var rate: Double?
    @Option(parsing: .unconditional, help: "Baseline mean per unit of a mean metric.") var mean: Double?
    @Option(parsing: .unconditional, help: "Standard deviation of the per-unit values of a mean metric.") var stddev: Double?
    @Option(help: "Estimate baseline, variance and traffic from this event log.") var log: String?
    @Option(help: "With --log: the experiment whose control gives the baseline.") var experiment: String?
    @Option(help: "With --log: the metric (key or event; default: the experiment's primary).") var metric: String?
    @Option(help: "With --log: the experiments folder.") var experiments: String = "experiments"
    @Option(parsing: .unconditional, help: "Units entering the experiment per day (all variations).") var traffic: Double?
    @Option(parsing: .unconditional, help: "Variations, control included, sharing the traffic equally (default 2, or the log's).")
    var variations: Int?
    @Option(parsing: .unconditional, help: "The relative lift to detect, e.g. 0.03 for +3 % or -0.05 for −5 %.")
    var effect: Double?
    @Option(parsing: .unconditional, help: "Days the experiment runs: report the smallest detectable lift.") var days: Double?
    @Option(parsing: .unconditional, help: "The chance of a significant result wanted.") var power: Double = 0.8
    @Option(parsing: .unconditional, help: "Significance level.") var alpha: Double = 0.05
    @Flag(help: "Plan for sequential testing (looking once; a lower bound for power).") var sequential = false
    @Option(name: .customLong("sequential-tuning"), parsing: .unconditional,
            help: "With --sequential: GrowthBook's tuning parameter.")
    var sequentialTuning: Double = TestSettings.defaultSequentialTuning
    @Flag(help: "Measure power: simulate --experiment --runs times at each of --sizes users, with the population's effects.")
    var simulate = false
    @Option(parsing: .unconditional, help: "With --simulate: users per run, comma-separated, e.g. 500,1000,2000.")
    var sizes: String = "500,1000,2000"
    @Option(parsing: .unconditional, help: "With --simulate: runs per size.") var runs = 50
    @Option(help: "With --simulate: the population file (default: the experiments folder's population.yaml).")
    var population: String?
    @Option(parsing: .unconditional, help: "With --simulate: the first run's seed.", transform: SeedArgument.parse)
    var seed: UInt64 = 1

    func validate() throws {
        guard alpha > 0, alpha < 1 else { throw ValidationError("--alpha must be between 0 and 1 (got \(alpha))") }
        guard power > 0, power < 1 else { throw ValidationError("--power must be between 0 and 1 (got \(power))") }
        if let rate, !(rate > 0 && rate < 1) { throw ValidationError("--rate must be between 0 and 1 (got \(rate))") }
        if let stddev, !(stddev > 0 && stddev.isFinite) { throw ValidationError("--stddev must be above 0 (got \(stddev))") }
        if let traffic, !(traffic > 0 && traffic.isFinite) { throw ValidationError("--traffic must be above 0 units a day (got \(traffic))") }
        if let variations, !(2...100).contains(variations) {
            throw ValidationError("--variations must be from 2 to 100, control included (got \(variations))")
        }
        if let mean, !(mean > 0 && mean.isFinite) {
            throw ValidationError("--mean must be above 0 (got \(mean)): a relative lift needs a positive baseline")
        }
        if let effect, effect == 0 || !effect.isFinite { throw ValidationError("--effect must be a lift other than 0, e.g. 0.03") }
        if let effect, effect <= -1 {
            throw ValidationError("--effect must be above -1, a lift of −100 % (got \(effect)); e.g. -0.05 for −5 %")
        }
        if let days, !(days > 0 && days.isFinite) { throw ValidationError("--days must be above 0 (got \(days))") }
        if !(sequentialTuning >= 1 && sequentialTuning <= 1e12) {
            throw ValidationError("--sequential-tuning must be from 1 to 10¹² (got \(sequentialTuning))")
        }
        if simulate {
            guard experiment != nil else { throw ValidationError("--simulate needs --experiment KEY") }
            guard runs >= 10 else { throw ValidationError("--runs must be at least 10 (got \(runs))") }
            guard let parsed = parsedSizes, !parsed.isEmpty, parsed.allSatisfy({ $0 >= 20 }) else {
                throw ValidationError("--sizes is a comma-separated list of users per run, each at least 20, e.g. 500,1000 (got '\(sizes)')")
            }
            return
        }
        guard power > alpha else {
            throw ValidationError("--power must be above --alpha (got \(power) and \(alpha)): with no lift at all, a test is "
                                  + "significant with probability α")
        }
        let given = [rate != nil, mean != nil || stddev != nil, log != nil].filter { $0 }.count
        guard given == 1 else {
            throw ValidationError("give the baseline one way: --rate R, --mean M --stddev S, or --log LOG --experiment KEY")
        }
        if mean != nil, stddev == nil { throw ValidationError("--mean needs --stddev") }
        if log != nil, experiment == nil { throw ValidationError("--log needs --experiment KEY") }
    }

    private var parsedSizes: [Int]? {
        let parts = sizes.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        return parts.contains(nil) ? nil : parts.compactMap { $0 }
    }

    func run() throws {
        if simulate { return try measure() }
        var baseline = Baseline(name: metric ?? "metric", kind: rate != nil ? "rate" : "mean",
                                mean: rate ?? mean ?? 0, standardDeviation: rate.map { ($0 * (1 - $0)).squareRoot() } ?? stddev ?? 0,
                                trafficPerDay: traffic, variations: variations ?? 2, smallestShare: nil)
        if let log, let experiment { baseline = try Baseline.estimate(log: log, experiment: experiment, metric: metric,
                                                                       folder: experiments, traffic: traffic, variations: variations) }
        var settings = PowerSettings(mean: baseline.mean, standardDeviation: baseline.standardDeviation, alpha: alpha,
                                     sequentialTuning: sequential ? sequentialTuning : nil)
        settings.isProportion = baseline.kind == "rate"
        printOut(baseline.description + String(format: ", α %g, power %g %%, ", alpha, power * 100)
              + (sequential ? String(format: "sequential (tuning %g)", sequentialTuning) : "fixed horizon"))
        let perVariation = baseline.trafficPerDay.map { $0 * (baseline.smallestShare ?? 1 / Double(baseline.variations)) }
        if let perVariation, let traffic = baseline.trafficPerDay {
            printOut("traffic \(grouped(traffic)) units a day into the experiment, \(baseline.variations) variations: "
                  + "\(grouped(perVariation)) a day in the smallest")
        }
        if let problem = settings.problem(effect: effect) {
            printError("cannot plan for \(baseline.name): \(problem)")
            throw ExitCode(1)
        }
        if let effect {
            guard let units = PowerAnalysis.unitsNeeded(effect: effect, power: power, settings) else {
                printError("no sample size up to 10¹² units per variation detects a lift of \(percent(effect))")
                throw ExitCode(1)
            }
            let time = perVariation.map { String(format: " — %.1f days", units / $0) } ?? " (give --traffic for days)"
            printOut("to detect a lift of \(percent(effect)): \(grouped(units)) units per variation\(time)")
            return
        }
        guard let perVariation else {
            printError("give --traffic (units a day), or --effect for a sample size without days")
            throw ExitCode(1)
        }
        for day in days.map({ [$0] }) ?? [7, 14, 28] {
            let units = (perVariation * day).rounded(.down)
            guard units.isFinite else {
                printError(String(format: "in %g days at --traffic %g: more units than a number holds; give fewer days or less traffic",
                                  day, baseline.trafficPerDay ?? 0))
                throw ExitCode(1)
            }
            let mde = PowerAnalysis.minimumDetectableEffect(power: power, units: units, settings)
            printOut(String(format: "in %g days (%@ units per variation): ", day, grouped(units))
                  + (mde.map { "lifts of \(percent($0)) or more" } ?? "too few units for any lift (σ²k²/μ² ≥ N)"))
        }
    }

    /// `--simulate`: measured power per size beside the analytic power of what the runs showed.
    private func measure() throws {
        let inputs = try SimulationInputs(population: population, experimentsFolder: experiments, metric: metric)
        var options = PowerSimulation.Options(experiment: experiment ?? "", sizes: parsedSizes ?? [])
        options.metric = metric
        options.runs = runs
        options.seed = seed
        options.alpha = alpha
        options.sequentialTuning = sequential ? sequentialTuning : nil
        let rows: [PowerSimulation.Row]
        let progress = ProgressLine("run")
        progress.update(0, of: options.sizes.count * runs)
        do {
            rows = try PowerSimulation.run(options, population: inputs.population, experiments: inputs.experiments,
                                           catalog: inputs.catalog, registry: inputs.registry,
                                           folder: NSTemporaryDirectory(), progress: progress.update)
        } catch {
            progress.finish()
            printError(String(describing: error))
            throw ExitCode(1)
        }
        progress.finish()
        printOut("measured power of \(experiment ?? "") (\(runs) runs per size, α \(alpha)"
              + (sequential ? ", sequential" : "") + "; population \(inputs.populationPath)):")
        printOut("users   units/variation   mean lift   measured power (95% interval)   analytic power")
        for row in rows {
            printOut(String(format: "%-7d %-17.0f %+8.2f %%   %5.1f %% (%4.1f–%5.1f %%)              %5.1f %%", row.users,
                         row.unitsPerVariation, row.meanLift * 100, row.measuredPower * 100, row.measuredInterval.lowerBound * 100,
                         row.measuredInterval.upperBound * 100, row.analyticPower * 100))
        }
    }

    /// A count with digit grouping; beyond what an integer holds exactly, in scientific notation.
    private func grouped(_ value: Double) -> String {
        abs(value) < 1e15 ? CountText.grouped(Int(value.rounded())) : String(format: "%.3g", value)
    }
    /// A lift in percent; one too small for two decimals, or too large to write out, with three
    /// significant digits.
    private func percent(_ value: Double) -> String {
        String(format: abs(value) < 0.00005 || abs(value) >= 1e4 ? "%+.3g %%" : "%+.2f %%", value * 100)
    }
}

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
                         variations: Int?) throws -> Baseline {
        var definitions: [String: ExperimentDefinition] = [:]
        if FileManager.default.fileExists(atPath: folder) {
            for definition in ExperimentSet.load(paths: [folder]).0.definitions { definitions[definition.key] = definition }
        }
        var options = AnalysisOptions(logs: [log], definitions: definitions, experiment: experiment,
                                      metrics: metric.map { [$0] } ?? [])
        options.catalog = try loadMetrics(nil, folder: folder, named: metric.map { [$0] } ?? definitions[experiment]?.metrics.all ?? [])
        let report: AnalysisReport
        do { report = try Analyzer.run(options) } catch {
            printError(error.description)
            throw ExitCode(1)
        }
        guard let found = report.experiments.first, let control = found.variations.first,
              let figure = control.metrics.first, control.units > 1 else {
            printError("\(experiment) has too few units in \(log) to estimate a baseline")
            throw ExitCode(1)
        }
        // A figure past the largest double (a unit's sum, or the variance of values near it) plans nothing.
        if let error = figure.error {
            printError("\(figure.metric) in \(experiment): \(error); plan with --mean and --stddev instead")
            throw ExitCode(1)
        }
        guard figure.value.isFinite, figure.unitVariance.isFinite else {
            printError("\(figure.metric) in \(experiment): its variance per unit passes the largest double (1.8e308); "
                       + "plan with --mean and --stddev instead")
            throw ExitCode(1)
        }
        let units = found.variations.reduce(0) { $0 + $1.units }
        var perDay = traffic
        if perDay == nil, let span = found.exposureSpan {
            let days = Double(span.upperBound - span.lowerBound) / 86_400_000
            guard days > 0 else {
                printError("every unit of \(experiment) was first exposed at one instant; give --traffic (units a day)")
                throw ExitCode(1)
            }
            perDay = Double(units) / days
        }
        let smallest = found.variations.map(\.units).min() ?? 0
        return Baseline(name: figure.metric, kind: figure.type, mean: figure.value, standardDeviation: figure.unitVariance.squareRoot(),
                        trafficPerDay: perDay, variations: variations ?? found.variations.count,
                        smallestShare: variations == nil && units > 0 ? Double(smallest) / Double(units) : nil)
    }
}
