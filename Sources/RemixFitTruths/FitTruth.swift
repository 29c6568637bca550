import Foundation
import RemixAnalysis
import RemixEventLog
import RemixExperiments
import RemixFit
import RemixKit
import RemixSimulation
import RemixTestSupport

/// How one generated truth fared: held out, on the unseen flow, and inside the interval or not.
struct FitTruthOutcome {
    var seed: UInt64
    var personas: Int
    /// The held-out rows the issue names that missed their tolerance.
    var heldOutMisses: [String]
    var largestConversionGap: Double
    var sessionLengthKS: Double
    var predicted: (value: Double, low: Double, high: Double)
    var truth: Double

    var heldOutWithin: Bool { heldOutMisses.isEmpty }
    var unseenWithin: Bool { abs(predicted.value - truth) <= 0.025 }
    var covered: Bool { (predicted.low...predicted.high).contains(truth) }

    var line: String {
        func percent(_ share: Double) -> String { String(format: "%.1f", share * 100) }
        let heldOut = heldOutWithin ? "held-out ok" : "held-out OUT (\(heldOutMisses.joined(separator: "; ")))"
        return "truth \(seed) (\(personas) personas fitted): \(heldOut), largest conversion gap \(String(format: "%.2f", largestConversionGap * 100)) pts, "
            + "session length KS \(String(format: "%.3f", sessionLengthKS)) · alternating predicted \(percent(predicted.value)) % "
            + "[\(percent(predicted.low)), \(percent(predicted.high))], truth \(percent(truth)) % — "
            + (unseenWithin ? "" : "OUTSIDE ±2.5 pts, ") + (covered ? "inside" : "NOT inside")
    }
}

/// One truth through the whole proof: simulate, fit with replicates, compare held out, predict the
/// third flow and measure the truth there.
struct FitTruth {
    struct Experiments {
        var path: String
        var set: ExperimentSet
    }

    let seed: UInt64
    let users: Int
    let compared: Int
    let replicates: Int
    let predicted: Int
    let registry: FeatureRegistry
    let folder: String

    func run(two: Experiments, three: Experiments) throws -> FitTruthOutcome {
        let truth = try population(TruthPopulation(seed: seed).text, file: "truth-\(seed).yaml")
        let fitLog = path("fit.jsonl")
        try simulate(truth, users: users, seed: 11, experiments: two.set, to: fitLog)
        let fit = try PopulationFit.fit(paths: [fitLog], registry: registry,
                                        options: .init(app: "marketplace", personas: .automatic, seed: 1, replicates: replicates))
        try FileManager.default.removeItem(atPath: fitLog)
        let fitted = try population(FittedPopulationWriter.text(fit.population), file: "fitted.yaml")
        let fittedReplicates = try fit.replicates.enumerated().map { try population(FittedPopulationWriter.text($1), file: "\($0 + 1).yaml") }

        let real = path("real.jsonl"), simulated = path("simulated.jsonl")
        try simulate(truth, users: compared, seed: 12, experiments: two.set, to: real)
        try simulate(fitted, users: compared, seed: 13, experiments: two.set, to: simulated)
        let report = try FidelityReport.compare(real: [real], simulated: [simulated], definitions: definitions(two.set),
                                                catalog: MetricCatalog())
        try FileManager.default.removeItem(atPath: real)
        try FileManager.default.removeItem(atPath: simulated)

        let prediction = try PopulationPrediction.run(population: fitted, replicates: fittedReplicates, experiments: three.set,
                                                      catalog: MetricCatalog(), registry: registry, users: predicted, seed: 15,
                                                      jobs: 2, folder: folder)
        let measured = try PopulationPrediction.run(population: truth, replicates: [], experiments: three.set,
                                                    catalog: MetricCatalog(), registry: registry, users: compared, seed: 14,
                                                    jobs: 2, folder: folder)
        let predictedFigure = try alternating(prediction)
        return FitTruthOutcome(seed: seed, personas: fit.population.personas.count, heldOutMisses: misses(report),
                               largestConversionGap: conversionGaps(report).max() ?? 0,
                               sessionLengthKS: report.rows.first { $0.scope == "all users" && $0.measure.hasPrefix("session length") }?.difference ?? 1,
                               predicted: (predictedFigure.value, predictedFigure.low, predictedFigure.high),
                               truth: try alternating(measured).value)
    }

    /// The rows the issue holds a held-out log to — each variation's primary conversion, share of
    /// users exposed and funnel steps; session length; sessions per user — that missed.
    private func misses(_ report: FidelityReport) -> [String] {
        report.rows.filter { row in
            let judged = row.measure == "advert_published (rate)" || row.measure == "share of users exposed"
                || row.measure.hasPrefix("funnel: ")
                || (row.scope == "all users" && (row.measure.hasPrefix("session length") || row.measure == "sessions per user"))
            return judged && !row.passed
        }.map { "\($0.scope) \($0.measure) \(String(format: "%+.4f", $0.difference))" }
    }

    private func conversionGaps(_ report: FidelityReport) -> [Double] {
        report.rows.filter { $0.measure == "advert_published (rate)" }.map { abs($0.difference) }
    }

    private func alternating(_ prediction: PopulationPrediction) throws -> PopulationPrediction.Figure {
        guard let figure = prediction.figures.first(where: { $0.variation == "alternating" && $0.metric == "advert_published" }) else {
            throw FitTruthError("no alternating advert_published figure in the prediction")
        }
        return figure
    }

    private func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }

    private func population(_ text: String, file: String) throws -> Population {
        let (population, problems) = PopulationFile.parse(text, file: file)
        guard let population else { throw FitTruthError(problems.map(\.description).joined(separator: "\n")) }
        return population
    }

    private func simulate(_ population: Population, users: Int, seed: UInt64, experiments: ExperimentSet, to log: String) throws {
        let plan = SimulationPlan(app: population.app, users: users, seed: seed, jobs: 2, shard: .whole, population: population,
                                  experiments: experiments, sources: [])
        let file = try JSONLinesFile(path: log, truncate: true)
        _ = try SimulationRunner(plan: plan, registry: registry, log: file).run()
        try file.close()
    }

    private func definitions(_ set: ExperimentSet) -> [String: ExperimentDefinition] {
        Dictionary(set.definitions.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// A step of the proof that could not run.
struct FitTruthError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
