import Foundation
import RemixAnalysis
import RemixBuiltIns
import RemixEventLog
import RemixExperiments
import RemixFit
import RemixHost
import RemixKit
import RemixSimulation
import RemixTestSupport
import Testing

/// Simulating, fitting and comparing in-process, for the fit's tests.
enum Fixture {
    static var root: URL { Repository.root }

    /// A folder with one experiment on Marketplace's insertion slot between `variations` (equal weights).
    static func insertionExperiment(_ variations: [String], in folder: TemporaryFolder, name: String) throws -> String {
        let path = folder.path(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try TruthExperiment.insertionFlow(variations).write(toFile: path + "/insertion-flow.yaml", atomically: true, encoding: .utf8)
        return path
    }

    /// A folder with one experiment on `app`'s `slot` between `features` (keys are the features' names).
    static func experiment(app: String, slot: String, features: [String], primary: String, in folder: TemporaryFolder) throws -> String {
        let path = folder.path("\(app)-experiments")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let text = """
            key: \(app)-test
            app: \(app)
            slot: \(slot)
            status: running
            hashVersion: 2
            hashAttribute: id
            variations:
            \(features.map { "  - {key: \($0), feature: \($0)}" }.joined(separator: "\n"))
            weights: [\(features.map { _ in String(format: "%.4f", 1 / Double(features.count)) }.joined(separator: ", "))]
            coverage: 1
            metrics:
              primary: \(primary)

            """
        try text.write(toFile: path + "/\(app)-test.yaml", atomically: true, encoding: .utf8)
        return path
    }

    static func population(_ text: String, file: String = "population.yaml") throws -> Population {
        let (population, problems) = PopulationFile.parse(text, file: file)
        #expect(problems.isEmpty, "\(problems.map(\.description))")
        return try #require(population)
    }

    /// Simulates `users` users of `population` through the experiments in `experiments` into `log`.
    static func simulate(_ population: Population, users: Int, seed: UInt64, experiments: String, to log: String) throws {
        let registry = try BuiltInModules.registry()
        let validation = ExperimentValidation.run(paths: [experiments], registry: registry)
        #expect(validation.errorCount == 0, "\(validation.diagnostics.map(\.description))")
        let plan = SimulationPlan(app: population.app, users: users, seed: seed, jobs: 2, shard: .whole, population: population,
                                  experiments: validation.experiments, sources: [])
        let file = try JSONLinesFile(path: log, truncate: true)
        _ = try SimulationRunner(plan: plan, registry: registry, log: file).run()
        try file.close()
    }

    /// Fits `logs` (of `app`) and reads the written file back as a population.
    static func fit(_ logs: [String], app: String = "marketplace", personas: PopulationFit.PersonaCount = .automatic,
                    replicates: Int = 0) throws -> (text: String, population: Population, result: PopulationFit.Result) {
        let result = try PopulationFit.fit(paths: logs, registry: try BuiltInModules.registry(),
                                           options: .init(app: app, personas: personas, seed: 1, replicates: replicates))
        let text = FittedPopulationWriter.text(result.population)
        return (text, try population(text, file: "fitted.population.yaml"), result)
    }

    /// The fidelity report of `real` against `simulated` with the experiments in `folder` (no metrics file).
    static func compare(real: String, simulated: String, experiments folder: String) throws -> FidelityReport {
        let (set, _) = ExperimentSet.load(paths: [folder])
        return try FidelityReport.compare(real: [real], simulated: [simulated],
                                          definitions: Dictionary(set.definitions.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a }),
                                          catalog: MetricCatalog())
    }
}
