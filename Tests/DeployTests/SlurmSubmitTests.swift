import Foundation
import RemixTestSupport
import Testing

/// deploy/slurm/submit refuses bad settings before it submits anything (docs/scale.md).
@Suite struct SlurmSubmitTests {
    /// A runner with a fake `sbatch` (answers a job id) and a fake `remix` on PATH.
    private func runner() throws -> DeployScriptRunner {
        let runner = try DeployScriptRunner()
        try runner.fake("sbatch", "echo 4211")
        try runner.fake("remix", "exit 0")
        return runner
    }

    private let store = ["--store", "postgresql://remix@db.example/remix"]

    @Test func submitsTheArrayAndTheAnalysisAfterIt() throws {
        let runner = try runner()
        let population = try runner.folder.write("people.population.yaml", "app: marketplace\n")
        let result = try runner.run("slurm/submit", store + ["--shards", "4", "--tasks", "2,4", "--population", population])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(runner.calls.count == 2)
        #expect(runner.calls.first?.contains("--array=2,4") == true)
        #expect(runner.calls.last?.contains("--dependency=afterok:4211") == true)
    }

    @Test func aMissingFileIsRefusedBeforeSubmitting() throws {
        let runner = try runner()
        for option in ["--population", "--experiments", "--plugins", "--remix"] {
            let result = try runner.run("slurm/submit", store + ["--shards", "4", option, "nowhere/missing"])
            #expect(result.status == 1, "\(option)")
            #expect(result.stderr.contains("\(option): 'nowhere/missing' does not exist"), "\(result.stderr)")
        }
        #expect(runner.calls.isEmpty)
    }

    @Test func aTaskListIsNeverExpandedAsAGlob() throws {
        let runner = try runner()
        // A folder of files named like shards: an unquoted `*` would expand to them and pass as "1 2".
        try FileManager.default.createDirectory(atPath: runner.folder.path("shards"), withIntermediateDirectories: true)
        _ = try runner.folder.write("shards/1", "")
        _ = try runner.folder.write("shards/2", "")
        for tasks in ["*", "2,,3", "2,", "1-3", "02", "5"] {
            let result = try runner.run("slurm/submit", store + ["--shards", "4", "--tasks", tasks], in: runner.folder.path("shards"))
            #expect(result.status == 1, "--tasks \(tasks)")
            #expect(result.stderr.contains("submit: "), "\(result.stderr)")
        }
        #expect(runner.calls.isEmpty)
    }

    @Test func countsAreWholeNumbersAboveZero() throws {
        let runner = try runner()
        for (option, value) in [("--shards", "00"), ("--shards", "0"), ("--shards", "08"), ("--shards", "x"),
                                ("--users", "0"), ("--users", "-5"), ("--cpus-per-task", "0")] {
            var arguments = store + [option, value]
            if option != "--shards" { arguments += ["--shards", "4"] }
            let result = try runner.run("slurm/submit", arguments)
            #expect(result.status == 1, "\(option) \(value)")
            #expect(result.stderr.contains("'\(value)'"), "\(result.stderr)")
        }
        #expect(runner.calls.isEmpty)
    }
}
