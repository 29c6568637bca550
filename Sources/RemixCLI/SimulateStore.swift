import ArgumentParser
import Foundation
import RemixExperiments
import RemixKit
import RemixSimulation
import RemixStore

/// `remix simulate --log postgresql://…`: the run into an event store (docs/storage.md).
extension SimulateCommand {
    /// Option combinations that make no sense with the log given.
    func storeOptionProblem() -> String? {
        let isStore = StoreURL.isStoreURL(log)
        if isStore, append { return "--append is for files: an event store keeps every run (use --resume to complete one)" }
        if isStore, html != nil { return "--html writes the report of a log file, not of an event store: give --log a .jsonl file" }
        if !isStore, resume { return "--resume completes a run in an event store; --log is a file here (use --append for files)" }
        if !(retrySeconds >= 0) || !retrySeconds.isFinite { return "--retry-seconds must be 0 or more (got \(retrySeconds))" }
        return nil
    }

    /// The store URL `--log` names, or nil for a file; a URL that cannot be read exits 1.
    func storeURL() throws -> StoreURL? {
        guard StoreURL.isStoreURL(log) else { return nil }
        do {
            return try StoreURL(parsing: log)
        } catch {
            printError(error.description)
            throw ExitCode(1)
        }
    }

    /// Runs `plan` into the store at `url`: one transaction per block of users, retried on a lost
    /// connection, never twice.
    func simulate(_ plan: SimulationPlan, into url: StoreURL, registry: FeatureRegistry, population: Population,
                  experiments: ExperimentSet) async throws {
        let sink = StoreBlockSink(url: url, run: plan.runID, shard: plan.shard.index, shards: plan.shard.count,
                                  resume: resume, retrySeconds: retrySeconds) { printError("warning: \($0)") }
        let reporter = ProgressReporter(total: plan.shard.range(of: plan.users).count)
        let summary: SimulationSummary
        do {
            summary = try await SimulationRunner(plan: plan, registry: registry).run(into: sink, progress: reporter.update)
        } catch {
            await sink.close()
            reporter.finish()
            printError(String(describing: error))
            throw ExitCode(1)
        }
        reporter.finish()
        printOut("simulated \(plan.app) into \(url.redacted) as \(plan.runID) (seed \(seed), shard \(plan.shard)): "
              + "\(await sink.blocksWritten) blocks stored"
              + (await sink.blocksSkipped > 0 ? ", \(await sink.blocksSkipped) already stored" : ""))
        printSummary(summary, population: population, experiments: experiments)
        if !noReport {
            printError("note: no report — the store may hold other runs too; `remix analyze` with the same URL reports "
                       + "on all it holds (docs/storage.md)")
        }
    }

    /// The run's summary and the warnings it found.
    func printSummary(_ summary: SimulationSummary, population: Population, experiments: ExperimentSet) {
        printOut(summary.text(variationOrder: Dictionary(experiments.definitions.map { ($0.key, $0.variations.map(\.key)) },
                                                      uniquingKeysWith: { first, _ in first }),
                           intentOrder: population.intents.map(\.name)))
        for warning in summary.unusedAbandonScreens(population) { printError(warning.description, prefix: false) }
        for warning in RegexBudget.takeWarnings() { printError(warning) }
    }
}
