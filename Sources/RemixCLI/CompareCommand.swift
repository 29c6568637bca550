import ArgumentParser
import RemixApp

/// `remix compare`: a real log and a simulated one side by side — how faithful a (fitted)
/// population is (docs/simulation.md#fitting-a-population).
struct CompareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Set a real event log and a simulated one side by side, each figure with a tolerance.",
        discussion: """
            Per experiment variation: units, the share of users exposed, every metric, the funnel, \
            session length (Kolmogorov–Smirnov distance), steps per session, sessions per user and days \
            between visits; over all users also the dwell on each screen. Each row says the difference, \
            the tolerance it is held to and whether it is within (docs/simulation.md). Exits 0 either \
            way; --strict exits 1 when a figure is out of tolerance.
            """)

    @Argument(help: "The real log (a JSON Lines file).")
    var real: String

    @Argument(help: "The simulated log.")
    var simulated: String

    @Option(help: "The experiments folder (its metrics.yaml gives the metrics).")
    var experiments: String = "experiments"

    @Option(help: "table, json or html.")
    var format: Compare.Format = .table

    @Option(help: "Write the report here instead of standard output.")
    var output: String?

    @Flag(help: "Exit 1 when a figure is out of tolerance.")
    var strict = false

    func run() async throws {
        var comparison = Compare(real: real, simulated: simulated)
        (comparison.experiments, comparison.format, comparison.output) = (experiments, format, output)
        let outcome = try await perform(comparison.run)
        if let text = outcome.text { writeOut(text) }
        if strict, !outcome.report.failures.isEmpty { throw AppError("\(outcome.report.failures.count) figure(s) out of tolerance (--strict)") }
    }
}

extension Compare.Format: ExpressibleByArgument {}
