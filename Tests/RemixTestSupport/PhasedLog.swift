import Foundation

/// A simulated log of an experiment whose weights change mid-run (bench/phases-data: GroupBrowser's
/// navigation experiment, 50/50 then 20/80 two days in), for tests of `--phase`.
package enum PhasedLog {
    /// Simulates `users` users into `folder`: the log and the experiments folder it was made with.
    package static func simulate(in folder: TemporaryFolder, users: Int = 1500) throws -> (log: String, experiments: String) {
        let data = Repository.root.appendingPathComponent("bench/phases-data")
        let experiments = folder.path("phased-experiments")
        try FileManager.default.createDirectory(atPath: experiments, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: data.appendingPathComponent("navigation-reweight.yaml"),
                                         to: URL(fileURLWithPath: experiments + "/navigation-reweight.yaml"))
        let log = folder.path("phased.jsonl")
        let result = try RemixProcess.run(["simulate", "--app", "groupbrowser", "--population",
                                           data.appendingPathComponent("groupbrowser.population.yaml").path,
                                           "--experiments", experiments, "--users", String(users), "--seed", "3",
                                           "--no-report", "--log", log], in: Repository.root)
        guard result.status == 0 else { throw Failure(description: "remix simulate failed: \(result.stderr)") }
        return (log, experiments)
    }

    /// The simulation failed.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }
}
