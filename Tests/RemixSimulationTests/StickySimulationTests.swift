import Foundation
import RemixTestSupport
import Testing

/// `remix simulate --sticky`: a returning user keeps their variation across runs and a weight
/// change, exposures say `stickyBucketUsed` only with a store, and the log and the store's lines
/// are byte-identical whatever `--jobs`.
@Suite struct StickySimulationTests {
    static func experiment(weights: String) -> String {
        """
        key: calculator-entry
        app: calculator
        slot: entry
        hashVersion: 2
        hashAttribute: id
        variations:
          - {key: two-fields, feature: TwoFieldEntry}
          - {key: expression, feature: ExpressionEntry}
        weights: \(weights)
        metrics:
          primary: sum_analysed
        """
    }

    /// Runs `simulate` on `folder`'s experiments and population; returns the log's lines.
    static func simulate(_ folder: TemporaryFolder, log: String, jobs: Int, sticky: String?) async throws -> [LogLine] {
        let result = await Remix.run(["simulate", "--users", "120", "--seed", "5", "--jobs", String(jobs), "--no-report",
                                      "--experiments", folder.path("experiments"), "--population", folder.path("population.yaml"),
                                      "--log", folder.path(log)] + (sticky.map { ["--sticky", folder.path($0)] } ?? []))
        try #require(result.status == 0, "\(result.stderr)")
        return try readLog(folder.path(log))
    }

    /// Each user's exposed variation (the users of these runs see one variation each).
    static func variations(_ lines: [LogLine]) -> [String: String] {
        var found: [String: String] = [:]
        for line in lines where line.type == "exposure" && line["inExperiment"] as? Bool == true {
            found[line.string("user") ?? ""] = line.string("variation")
        }
        return found
    }

    @Test func returningUsersKeepTheirVariationAcrossAWeightChange() async throws {
        let folder = try TemporaryFolder()
        try folder.write("population.yaml", ReturningUsersTests.yaml)
        try folder.write("experiments/calculator-entry.yaml", Self.experiment(weights: "[0.5, 0.5]"))
        let first = try await Self.simulate(folder, log: "first.jsonl", jobs: 2, sticky: "sticky.jsonl")
        let exposures = first.filter { $0.type == "exposure" }
        #expect(!exposures.isEmpty && exposures.allSatisfy { $0["stickyBucketUsed"] != nil })
        // Within the first run, a regular's later sessions use the bucket their first one stored.
        #expect(exposures.contains { $0["stickyBucketUsed"] as? Bool == true })
        let stored = try String(contentsOfFile: folder.path("sticky.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(stored.count >= Self.variations(first).count && !stored.isEmpty)

        try folder.write("experiments/calculator-entry.yaml", Self.experiment(weights: "[0.05, 0.95]"))
        for name in ["a", "b"] {
            try FileManager.default.copyItem(atPath: folder.path("sticky.jsonl"), toPath: folder.path("sticky-\(name).jsonl"))
        }
        let sticky = try await Self.simulate(folder, log: "sticky-run.jsonl", jobs: 1, sticky: "sticky-a.jsonl")
        #expect(Self.variations(sticky) == Self.variations(first), "every user kept their variation")
        #expect(sticky.filter { $0.type == "exposure" }.allSatisfy { $0["stickyBucketUsed"] as? Bool == true })
        let plain = try await Self.simulate(folder, log: "plain.jsonl", jobs: 1, sticky: nil)
        let moved = Self.variations(plain).filter { Self.variations(first)[$0.key] != $0.value }
        #expect(moved.count > 20, "without a store the new weights move users: \(moved.count)")
        #expect(plain.allSatisfy { $0["stickyBucketUsed"] == nil })

        // The same run with three jobs writes the same log and the same store lines.
        _ = try await Self.simulate(folder, log: "sticky-run-3.jsonl", jobs: 3, sticky: "sticky-b.jsonl")
        #expect(FileManager.default.contents(atPath: folder.path("sticky-run.jsonl"))
                == FileManager.default.contents(atPath: folder.path("sticky-run-3.jsonl")))
        #expect(FileManager.default.contents(atPath: folder.path("sticky-a.jsonl"))
                == FileManager.default.contents(atPath: folder.path("sticky-b.jsonl")))
    }

    /// Two shards run at once as two processes, appending to one sticky file: the file ends up with
    /// the lines of the whole run (whole lines, each shard's in its user order).
    @Test func concurrentShardsShareOneStickyFile() async throws {
        let folder = try TemporaryFolder()
        try folder.write("population.yaml", ReturningUsersTests.yaml)
        try folder.write("experiments/calculator-entry.yaml", Self.experiment(weights: "[0.5, 0.5]"))
        func arguments(_ log: String, _ sticky: String, shard: String?) -> [String] {
            ["simulate", "--users", "400", "--seed", "8", "--jobs", "1", "--no-report", "--experiments", folder.path("experiments"),
             "--population", folder.path("population.yaml"), "--log", folder.path(log), "--sticky", folder.path(sticky)]
                + (shard.map { ["--shard", $0] } ?? [])
        }
        let whole = try RemixProcess.run(arguments("whole.jsonl", "whole-sticky.jsonl", shard: nil))
        #expect(whole.status == 0, "\(whole.stderr)")
        let (firstArguments, secondArguments) = (arguments("one.jsonl", "shared.jsonl", shard: "1/2"),
                                                 arguments("two.jsonl", "shared.jsonl", shard: "2/2"))
        async let first = Task.detached { try RemixProcess.run(firstArguments) }.value
        async let second = Task.detached { try RemixProcess.run(secondArguments) }.value
        let (one, two) = try await (first, second)
        #expect(one.status == 0 && two.status == 0, "\(one.stderr)\(two.stderr)")
        let lines = { (name: String) in
            (try? String(contentsOfFile: folder.path(name), encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        }
        #expect(!lines("whole-sticky.jsonl").isEmpty)
        #expect(lines("shared.jsonl").sorted() == lines("whole-sticky.jsonl").sorted())
    }
}
