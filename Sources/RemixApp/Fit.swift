import Foundation
import RemixAnalysis
import RemixExperiments
import RemixFiles
import RemixFit
import RemixFormats
import RemixHost
import RemixReports
import RemixStore

/// `remix fit`: a population file learned from event logs (docs/simulation.md#fitting-a-population),
/// and with `replicates`, the fits of bootstrap resamples beside it for `remix predict`.
package struct Fit {
    /// Event logs: JSON Lines files, or event stores' URLs (copied to a temporary file first: the
    /// fit reads its logs twice).
    package var logs: [String]
    /// The app whose sessions are fitted (nil: the app the logs' `session_started` lines name).
    package var app: String?
    /// Where to write the population file.
    package var output = "fitted.population.yaml"
    /// How many personas: a number from 1 to 20, or `auto` (the lowest BIC).
    package var personas = "auto"
    /// The seed of the mixture's random starts and of the resamples.
    package var seed: UInt64 = 1
    /// Bootstrap resamples to fit too (0 to 1000).
    package var replicates = 0
    /// Plugins to load besides the built-in modules.
    package var plugins: [String] = []

    /// A fit of `logs` with the defaults.
    package init(logs: [String]) {
        self.logs = logs
    }

    /// The population written.
    package struct Outcome {
        package var population: FittedPopulation
        package var output: String
    }

    /// Why the options cannot be fitted with, or nil.
    package func optionProblem() -> String? {
        guard (0...1000).contains(replicates) else { return "--replicates must be 0 to 1000 (got \(replicates))" }
        guard personaCount != nil else { return "--personas is a number from 1 to 20 or auto (got \(Excerpt.quoted(personas)))" }
        return nil
    }

    private var personaCount: PopulationFit.PersonaCount? {
        if personas == "auto" { return .automatic }
        return Int(personas).flatMap { (1...20).contains($0) ? .fixed($0) : nil }
    }

    /// Fits the logs and writes the population file and, with replicates, the replicates' folder
    /// anew (its old files gone); what the logs cannot show is said as notes, what their reading
    /// left out as warnings. The output's folder and every output against the inputs are checked
    /// before the logs are read.
    package func run(_ context: AppContext) async throws -> Outcome {
        if let problem = optionProblem() { throw AppError(problem) }
        if let problem = Outputs.pathProblem(output, option: "--output") { throw AppError(problem) }
        let folder = FittedPopulationWriter.replicatesFolder(of: output)
        let replicateFiles = (0..<replicates).map { (folder as NSString).appendingPathComponent("\($0 + 1).population.yaml") }
        try Outputs.refuseOverInputs(inputs: logs.map { .init("the log", $0) } + Modules.inputs(plugins, context),
                                     outputs: [.init("--output", output)] + replicateFiles.map { .init("--output", $0) },
                                     folders: replicates > 0
                                         ? [.init("--output", folder, writes: FittedPopulationWriter.isReplicateName)] : [])
        let registry = try Modules.load(plugins: plugins, context)
        let (files, copies) = try await Self.files(logs, context)
        defer { for copy in copies { try? FileManager.default.removeItem(atPath: copy) } }
        let fitted = try PopulationFit.fit(paths: files, registry: registry,
                                           options: .init(app: app, personas: personaCount ?? .automatic, seed: seed, replicates: replicates))
        for warning in fitted.warnings { context.warn(warning) }
        let text = FittedPopulationWriter.text(fitted.population)
        let main = StagedOutput.file(output)
        do {
            if replicates > 0 {
                let staged = try StagedOutput.replacing(folder: folder)
                do {
                    let fit = FittedPopulationWriter.fitHash(text)
                    for (file, replicate) in zip(replicateFiles, fitted.replicates) {
                        try staged.write(FittedPopulationWriter.text(replicate, replicating: fit), as: file)
                    }
                    try staged.commit()
                } catch {
                    staged.discard()
                    throw error
                }
            }
            try main.write(text)
            try main.commit()
        } catch let failure as StagedOutput.Failure {
            main.discard()
            throw AppError(failure.description)
        }
        for note in fitted.population.unknowns { context.notify(.note(note)) }
        return Outcome(population: fitted.population, output: output)
    }
}

extension Fit {
    /// The logs as files: a store's events are copied into a temporary file (returned as a copy to
    /// remove), files stay as they are.
    static func files(_ logs: [String], _ context: AppContext) async throws -> (files: [String], copies: [String]) {
        var files: [String] = [], copies: [String] = []
        do {
            for (index, log) in logs.enumerated() {
                guard StoreURL.isStoreURL(log) else {
                    files.append(log)
                    continue
                }
                let url = try StoreURL(parsing: log)
                let copy = (NSTemporaryDirectory() as NSString).appendingPathComponent("remix-fit-\(index + 1)-\(UUID().uuidString).jsonl")
                copies.append(copy)
                let progress = context.progress
                _ = try await LogCopy.storeToFile(url, run: nil, copy) { progress(WorkProgress(.events, done: $0, total: $1)) }
                files.append(copy)
            }
        } catch {
            for copy in copies { try? FileManager.default.removeItem(atPath: copy) }
            throw error
        }
        return (files, copies)
    }
}

/// `remix compare`: a real log and a simulated one side by side, each figure with a tolerance.
package struct Compare {
    /// A report's format.
    package enum Format: String, CaseIterable, Sendable {
        case table, json, html
    }

    /// The real log and the simulated one.
    package var real: String, simulated: String
    /// The experiments folder (its metrics.yaml gives the metrics).
    package var experiments = "experiments"
    /// The report's format.
    package var format = Format.table
    /// Write the report here instead of returning its text.
    package var output: String?

    /// A comparison of `real` with `simulated`.
    package init(real: String, simulated: String) {
        self.real = real
        self.simulated = simulated
    }

    /// The comparison.
    package struct Outcome {
        package var report: FidelityReport
        /// The report in the format asked for, unless it was written to `output`.
        package var text: String?
    }

    /// Compares the logs; the output's folder and the outputs against the inputs are checked
    /// before, and the metric names of the folder's experiments after the logs are read (a metric
    /// may be an event only the logs hold).
    package func run(_ context: AppContext) async throws -> Outcome {
        if let output, let problem = Outputs.pathProblem(output, option: "--output") { throw AppError(problem) }
        try Outputs.refuseOverInputs(inputs: [.init("the real log", real), .init("the simulated log", simulated),
                                              .init("a file of the experiments folder", experiments)],
                                     outputs: output.map { [.init("--output", $0)] } ?? [])
        let definitions = Definitions.lenient(folder: experiments, without: "compared without that file", context)
        let catalog = try Definitions.metrics(nil, folder: experiments, named: [], context)
        let report = try FidelityReport.compare(real: [real], simulated: [simulated], definitions: definitions, catalog: catalog)
        try refuseUnknownMetrics(ExperimentSet(definitions: definitions.values.sorted { $0.key < $1.key }), catalog: catalog,
                                 events: MetricEvents(registry: Modules.quiet(context), more: report.countedMetrics
                                                      + MetricEvents.simulatedUserEvents(folders: [experiments])))
        let text = switch format {
        case .table: FidelityReportText.table(report)
        case .json: FidelityReportText.json(report)
        case .html: FidelityReportText.html(report)
        }
        if let output { try ReportFile.write(text, to: output) }
        return Outcome(report: report, text: output == nil ? text : nil)
    }
}
