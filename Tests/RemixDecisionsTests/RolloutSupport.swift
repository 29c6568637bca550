import Foundation
import RemixApp
import RemixTestSupport
import Testing

/// A folder with a rollout of AutoGroupInsertion on Marketplace's insertion slot, the shipped
/// metrics and population (with `effects` appended), simulated in process by `remix simulate`'s use case.
struct RolloutFixture {
    let folder: URL
    let log: String

    /// Population effects that make AutoGroupInsertion's users leave far more often: more `insertion_cancelled`.
    static let harmful = """

        effects:
          - feature: AutoGroupInsertion
            abandon: {title: 10, default: 4}
        """

    static let rollout = """
        key: auto-rollout
        app: marketplace
        slot: insertion
        hashVersion: 2
        rollout:
          feature: AutoGroupInsertion
          steps: [0.25, 0.5, 1.0]
          stepHours: 0.5
          guardrails: [cancelled]
          signals: [published]
        """

    init(effects: String = "", rollout: String = Self.rollout) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("remix-rollout-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let shipped = Repository.root.appendingPathComponent("experiments")
        try FileManager.default.copyItem(at: shipped.appendingPathComponent("metrics.yaml"), to: folder.appendingPathComponent("metrics.yaml"))
        let population = try String(contentsOf: shipped.appendingPathComponent("population.yaml"), encoding: .utf8) + effects
        try population.write(to: folder.appendingPathComponent("population.yaml"), atomically: true, encoding: .utf8)
        try rollout.write(to: folder.appendingPathComponent("auto-rollout.yaml"), atomically: true, encoding: .utf8)
        log = FileManager.default.temporaryDirectory.appendingPathComponent("remix-rollout-test-\(UUID().uuidString).jsonl").path
    }

    /// Simulates `users` users (2 s apart: 3 000 span 1 h 40 min, past three half-hour steps) and returns the log's lines.
    func simulate(users: Int = 3_000, jobs: Int = 2, log: String? = nil) async throws -> [[String: Any]] {
        var simulate = Simulate()
        simulate.users = users
        simulate.jobs = jobs
        simulate.experiments = folder.path
        simulate.log = log ?? self.log
        simulate.report = false
        _ = try await simulate.run(NoticeLog().context(cores: 4))
        return try Self.lines(log ?? self.log)
    }

    static func lines(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
    }

    /// `remix analyze`'s report of the fixture's log with its experiments, in `format` (the use case, in process).
    func report(_ format: Analyze.Format) async throws -> String {
        var analyze = Analyze(logs: [log])
        analyze.experiments = folder.path
        analyze.format = format
        return try #require(try await analyze.run(NoticeLog().context()).text)
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
        try? FileManager.default.removeItem(atPath: log)
    }
}

extension Array where Element == [String: Any] {
    /// The lines of one event type.
    func of(_ type: String) -> [[String: Any]] { filter { $0["type"] as? String == type } }
}

/// What `remix validate` (its use case) says of one experiment file beside the shipped metrics.yaml.
enum ValidationFixture {
    /// The diagnostics of the file `name` holding `text`, its folder's path left out.
    static func problems(file name: String, _ text: String) async throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remix-validate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(at: Repository.root.appendingPathComponent("experiments/metrics.yaml"),
                                         to: folder.appendingPathComponent("metrics.yaml"))
        var validate = Validate()
        validate.paths = [folder.path]
        let validation = try await validate.run(NoticeLog().context())
        // The shipped metrics.yaml's own warning (a metric of a plugin's event) is not the file's.
        return validation.diagnostics.map { $0.description.replacingOccurrences(of: folder.path + "/", with: "") }
            .filter { $0.hasPrefix(name) }
    }
}
