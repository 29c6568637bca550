import Foundation
import RemixTestSupport
import Testing

/// The outputs `OutputsOverInputsTests` does not reach: files written beside `--output` (a fit's
/// replicates), files both read and written (a sticky-bucket file), and inputs named by options
/// other than the main ones (`--aggregates`, `--bandit-log`). Each is refused before anything is
/// written, every file as it was.
@Suite struct OutputAuditTests {
    @Test func fitNeverWritesAReplicateOverItsInputs() throws {
        let folder = try OutputsOverInputsTests.project()
        try FileManager.default.createDirectory(atPath: folder.path("f.population.replicates"), withIntermediateDirectories: true)
        try FileManager.default.linkItem(atPath: folder.path("ev.jsonl"), toPath: folder.path("f.population.replicates/1.population.yaml"))
        try OutputsOverInputsTests.expectRefused(["fit", "ev.jsonl", "--output", "f.population.yaml", "--replicates", "2"], in: folder,
                                                 saying: "--output f.population.replicates/1.population.yaml: it is the log ev.jsonl")
        // The folder is replaced whole, so a log inside it is refused too, and so is a folder
        // holding files the fit did not write.
        try FileManager.default.removeItem(atPath: folder.path("f.population.replicates/1.population.yaml"))
        try FileManager.default.copyItem(atPath: folder.path("ev.jsonl"), toPath: folder.path("f.population.replicates/ev.jsonl"))
        try OutputsOverInputsTests.expectRefused(["fit", "f.population.replicates/ev.jsonl", "--output", "f.population.yaml",
                                                  "--replicates", "2"], in: folder,
                                                 saying: "--output f.population.replicates: it is a folder that holds the log")
        try OutputsOverInputsTests.expectRefused(["fit", "ev.jsonl", "--output", "f.population.yaml", "--replicates", "2"], in: folder,
                                                 saying: "--output f.population.replicates: it is a folder that holds files")
    }

    @Test func aStickyBucketFileIsNeitherAnInputNorAnotherOutput() throws {
        let folder = try OutputsOverInputsTests.project()
        try OutputsOverInputsTests.expectRefused(["simulate", "--users", "5", "--log", "new.jsonl", "--sticky", "./new.jsonl"], in: folder,
                                                 saying: "--sticky ./new.jsonl: it is the same file as --log new.jsonl")
        try OutputsOverInputsTests.expectRefused(["simulate", "--users", "5", "--log", "new.jsonl", "--sticky",
                                                  "experiments/population.yaml"], in: folder,
                                                 saying: "--sticky experiments/population.yaml: it is the population file")
        try OutputsOverInputsTests.expectRefused(["assign", "insertion-flow", "--attributes", #"{"id":"u1"}"#, "--sticky",
                                                  "experiments/insertion-flow.yaml"], in: folder,
                                                 saying: "--sticky experiments/insertion-flow.yaml: it is a file of the experiments folder")
        try OutputsOverInputsTests.expectRefused(["run", "--experiments", "experiments", "--sticky", "experiments/saved-groups.yaml"],
                                                 in: folder,
                                                 saying: "--sticky experiments/saved-groups.yaml: it is a file of the experiments folder")
    }

    @Test func everyFileAnOptionReadsIsAnInput() throws {
        let folder = try OutputsOverInputsTests.project()
        try "experiment,variation,units\n".write(toFile: folder.path("result.csv"), atomically: false, encoding: .utf8)
        try OutputsOverInputsTests.expectRefused(["analyze", "--aggregates", "result.csv", "--output", "result.csv"], in: folder,
                                                 saying: "--output result.csv: it is the aggregates file result.csv")
        try OutputsOverInputsTests.expectRefused(["export", "growthbook", "experiments", "--bandit-log", "ev.jsonl", "--output", "ev.jsonl"],
                                                 in: folder, saying: "--output ev.jsonl: it is the bandit log ev.jsonl")
    }
}
