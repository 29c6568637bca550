import ArgumentParser
import Foundation
import RemixAnalysis
import RemixExperiments
import RemixFit

/// `remix compare`: a real log and a simulated one side by side — how faithful a (fitted)
/// population is (docs/simulation.md#fitting-a-population).
struct CompareCommand: ParsableCommand {
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

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json, html
    }

    @Argument(help: "The real log (a JSON Lines file).")
    var real: String

    @Argument(help: "The simulated log.")
    var simulated: String

    @Option(help: "The experiments folder (its metrics.yaml gives the metrics).")
    var experiments: String = "experiments"

    @Option(help: "table, json or html.")
    var format: Format = .table

    @Option(help: "Write the report here instead of standard output.")
    var output: String?

    @Flag(help: "Exit 1 when a figure is out of tolerance.")
    var strict = false

    func run() throws {
        try refuseOutputsOverInputs(inputs: [.init("the real log", real), .init("the simulated log", simulated),
                                             .init("a file of the experiments folder", experiments)],
                                    outputs: output.map { [.init("--output", $0)] } ?? [])
        let (set, problems) = ExperimentSet.load(paths: [experiments])
        for problem in problems where problem.severity == .error { printError("warning: \(problem) (compared without that file)") }
        let catalog = try loadMetrics(nil, folder: experiments, named: [])
        let report = try FidelityReport.compare(
            real: [real], simulated: [simulated],
            definitions: Dictionary(set.definitions.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first }), catalog: catalog)
        let text = switch format {
        case .table: FidelityReportText.table(report)
        case .json: FidelityReportText.json(report)
        case .html: FidelityReportText.html(report)
        }
        if let output {
            try text.write(toFile: output, atomically: true, encoding: .utf8)
        } else {
            print(text, terminator: "")
        }
        if strict, !report.failures.isEmpty { throw ExitCode(1) }
    }
}
