import Foundation
import RemixBuiltIns
import RemixCLITestSupport
import RemixEventLog
import RemixExperiments
import RemixHost
import RemixKit
import RemixSimulation
import RemixTestSupport
import RemixYAML
import Testing

/// The shipped inputs and helpers to run plans in-process.
enum Fixture {
    /// The repository root.
    static var root: URL { Repository.root }

    static var populationPath: String { root.appendingPathComponent("experiments/population.yaml").path }
    static var experimentsPath: String { root.appendingPathComponent("experiments").path }

    /// The shipped population.
    static func population() throws -> Population {
        let (population, problems) = PopulationFile.load(path: populationPath)
        #expect(problems.isEmpty, "\(problems)")
        return try #require(population)
    }

    /// A population parsed from YAML text.
    static func population(yaml: String) throws -> Population {
        let (population, problems) = PopulationFile.parse(yaml, file: "test-population.yaml")
        #expect(problems.isEmpty, "\(problems.map(\.description))")
        return try #require(population)
    }

    /// Experiments read and validated from `paths` (the shipped folder by default).
    static func experiments(_ paths: [String]? = nil, registry: FeatureRegistry) throws -> ExperimentSet {
        let validation = ExperimentValidation.run(paths: paths ?? [experimentsPath], registry: registry)
        #expect(validation.errorCount == 0, "\(validation.diagnostics.map(\.description))")
        return validation.experiments
    }

    /// Sources as `remix simulate` names them when run from the repository root.
    static func cliSources(_ experiments: ExperimentSet) throws -> [RunSource] {
        let files = [("population", "experiments/population.yaml")]
            + experiments.definitions.map { ("experiment", "experiments/" + ($0.file as NSString).lastPathComponent) }
        return try files.map { role, path in
            RunSource(role: role, path: path, bytes: [UInt8](try Data(contentsOf: root.appendingPathComponent(path))))
        }
    }

    /// Runs a plan into a new log at `path`.
    @discardableResult
    static func run(
        sessions: Int, seed: UInt64 = 1, jobs: Int = 1, shard: String = "1/1", population: Population? = nil,
        experiments: ExperimentSet? = nil, sources: [RunSource] = [], registry: FeatureRegistry? = nil,
        replica: (@Sendable () throws -> FeatureRegistry)? = nil, to path: String
    ) throws -> SimulationSummary {
        let registry = try registry ?? BuiltInModules.registry()
        let population = try population ?? Self.population()
        let plan = SimulationPlan(
            app: population.app, users: sessions, seed: seed, jobs: jobs, shard: try #require(Shard(spec: shard)),
            population: population, experiments: try experiments ?? Self.experiments(registry: registry), sources: sources)
        let log = try JSONLinesFile(path: path, truncate: true)
        let summary = try SimulationRunner(plan: plan, registry: registry, log: log, replica: replica).run()
        try log.close()
        return summary
    }
}

/// One parsed log line, with its text.
struct LogLine {
    let text: String
    let object: [String: Any]

    var type: String { object["type"] as? String ?? "" }
    var session: String { object["session"] as? String ?? "" }
    var ts: String { object["ts"] as? String ?? "" }
    subscript(key: String) -> Any? { object[key] }
    func string(_ key: String) -> String? { object[key] as? String }
}

/// Reads a log, requiring every line to parse and the file to end with a newline.
func readLog(_ path: String) throws -> [LogLine] {
    let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    #expect(text.hasSuffix("\n"), "the log must end with a newline")
    return try text.split(separator: "\n").map { line in
        let object = try #require((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                                  "line does not parse: \(line.prefix(200))")
        return LogLine(text: String(line), object: object)
    }
}

/// The log's session lines grouped by session, in file order.
func sessions(_ lines: [LogLine]) -> [(id: String, lines: [LogLine])] {
    var result: [(id: String, lines: [LogLine])] = []
    for line in lines where line.type != "run" {
        if result.last?.id == line.session {
            result[result.count - 1].lines.append(line)
        } else {
            result.append((line.session, [line]))
        }
    }
    return result
}

/// Runs `remix` commands in process, as the binary runs them.
enum Remix {
    typealias Result = ProcessResult

    static func run(_ arguments: [String]) async -> Result {
        await RemixInProcess.run(arguments)
    }
}

/// FNV-1a 64 of `bytes`, written here independently of RunSource.
func fnv1a64(_ bytes: [UInt8]) -> String {
    var hash: UInt64 = 14_695_981_039_346_656_037
    for byte in bytes {
        hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211
    }
    let hex = String(hash, radix: 16)
    return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
}
