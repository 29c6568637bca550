import ArgumentParser
import Foundation
import RemixAnalysis
import RemixBuiltIns
import RemixEventLog
import RemixExperiments
import RemixFit
import RemixHost
import RemixKit
import RemixSimulation
import RemixSystem
import RemixTestSupport

/// `remix-fit-truths`: the fit's proof on many generated truths (docs/simulation.md,
/// "Fitting a population"). Each truth — a random Marketplace population — is simulated through two
/// insertion flows and fitted with bootstrap replicates; the fit must reproduce a held-out log of the
/// truth within the tolerances, predict the third flow (which the fitted log never showed) within
/// ±2.5 points, and the truth's conversion there must lie inside the prediction's 95 % interval for at
/// least 90 % of the truths. Prints a line per truth and the totals; exits 1 when a bound is missed.
@main
struct FitTruthsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remix-fit-truths",
        abstract: "Fit generated truths and check held-out fidelity, the unseen flow and interval coverage.")

    @Option(help: "Truths to fit (seeds first-seed, first-seed + 1, …).")
    var truths: Int = 20

    @Option(name: .customLong("first-seed"), help: "The first truth's seed.")
    var firstSeed: UInt64 = 1

    @Option(help: "Users in each fitted log.")
    var users: Int = 30_000

    @Option(help: "Users in each log compared (held-out and the third flow's truth).")
    var compared: Int = 60_000

    @Option(help: "Bootstrap replicates per fit (the prediction's interval).")
    var replicates: Int = 20

    @Option(help: "Users simulated per replicate in the prediction.")
    var predicted: Int = 30_000

    @Option(help: "A folder for the logs (deleted as each truth ends).")
    var folder: String = NSTemporaryDirectory()

    func validate() throws {
        guard truths >= 1, users >= 100, compared >= 100, predicted >= 100, replicates >= 2 else {
            throw ValidationError("--truths ≥ 1, --users/--compared/--predicted ≥ 100 and --replicates ≥ 2")
        }
    }

    func run() throws {
        let started = Date()
        let registry = try BuiltInModules.registry()
        let work = (folder as NSString).appendingPathComponent("remix-fit-truths-\(getpid())")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let two = try experiments(["manual", "auto"], in: work, name: "two", registry: registry)
        let three = try experiments(["manual", "auto", "alternating"], in: work, name: "three", registry: registry)
        var outcomes: [FitTruthOutcome] = []
        for seed in firstSeed..<(firstSeed + UInt64(truths)) {
            let outcome = try FitTruth(seed: seed, users: users, compared: compared, replicates: replicates, predicted: predicted,
                                       registry: registry, folder: work).run(two: two, three: three)
            print(outcome.line)
            fflush(SystemCalls.standardOutput)
            outcomes.append(outcome)
        }
        let heldOut = outcomes.filter(\.heldOutWithin).count
        let unseen = outcomes.filter(\.unseenWithin).count
        let covered = outcomes.filter(\.covered).count
        let coverage = Double(covered) / Double(outcomes.count)
        print("""
            \(outcomes.count) truths in \(Int(Date().timeIntervalSince(started))) s: held-out within tolerance \(heldOut)/\(outcomes.count); \
            alternating predicted within ±2.5 pts \(unseen)/\(outcomes.count); truth inside the 95 % interval \(covered)/\(outcomes.count) \
            (\(String(format: "%.0f", coverage * 100)) %, needs ≥ 90 %)
            """)
        if heldOut < outcomes.count || unseen < outcomes.count || coverage < 0.9 { throw ExitCode(1) }
    }

    /// A folder with the insertion-flow experiment between `variations`, validated.
    private func experiments(_ variations: [String], in work: String, name: String, registry: FeatureRegistry) throws -> FitTruth.Experiments {
        let path = (work as NSString).appendingPathComponent(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try TruthExperiment.insertionFlow(variations).write(toFile: path + "/insertion-flow.yaml", atomically: false, encoding: .utf8)
        let validation = ExperimentValidation.run(paths: [path], registry: registry)
        guard validation.errorCount == 0 else { throw ValidationError(validation.diagnostics.map(\.description).joined(separator: "\n")) }
        return FitTruth.Experiments(path: path, set: validation.experiments)
    }
}
