import Foundation
import RemixBuiltIns
import RemixHost
import RemixSimulation
import RemixTestSupport
import Testing

/// Shards: contiguous ranges that together are exactly one full run.
@Suite struct ShardTests {
    @Test func concatenatedShardsEqualTheFullRun() throws {
        let folder = try TemporaryFolder()
        let registry = try BuiltInModules.registry()
        let population = try Fixture.population()
        let experiments = try Fixture.experiments(registry: registry)
        func run(_ shard: String, jobs: Int) throws -> [LogLine] {
            let path = folder.path("\(shard.replacingOccurrences(of: "/", with: "of")).jsonl")
            try Fixture.run(sessions: 700, seed: 3, jobs: jobs, shard: shard, population: population,
                            experiments: experiments, registry: registry, to: path)
            return try readLog(path)
        }
        let full = try run("1/1", jobs: 2)
        var concatenated: [String] = []
        var ranges: [[Int]] = []
        for (index, shard) in ["1/3", "2/3", "3/3"].enumerated() {
            let lines = try run(shard, jobs: index + 1)
            #expect(lines.first?.type == "run")
            #expect(lines.filter { $0.type == "run" }.count == 1)
            #expect(lines.first?.string("shard") == shard)
            #expect((lines.first?["users"] as? NSNumber)?.intValue == 700)
            ranges.append(((lines.first?["userIndices"] as? [Any]) ?? []).compactMap { ($0 as? NSNumber)?.intValue })
            concatenated += lines.dropFirst().map(\.text)
        }
        #expect(full.first?.type == "run")
        let fullSessions = full.dropFirst().map(\.text)
        #expect(fullSessions.count > 7000)
        #expect(concatenated.count == fullSessions.count)
        #expect(concatenated == fullSessions)
        #expect(ranges == [[0, 233], [233, 466], [466, 700]])
    }

    /// More shards than users leave some empty: such a shard is refused with one message naming
    /// the fix, exit 1, and the log is not touched — not a run of nothing that warns about every
    /// screen its users never saw.
    @Test func aShardWithNoUsersIsRefusedOnce() async throws {
        let folder = try TemporaryFolder()
        let log = try folder.write("kept.jsonl", "{\"type\":\"run\"}\n")
        let result = await Remix.run(["simulate", "--shard", "3/1000", "--users", "10", "--log", log])
        #expect(result.status == 1)
        #expect(result.stderr == "remix: --shard 3/1000 holds none of the run's 10 users (1000 shards of 10 users leave 990 "
                + "empty); split the run into at most 10 shards, or give more --users\n")
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "{\"type\":\"run\"}\n")
        // The line is no simulate run's record: replacing it takes --overwrite.
        #expect(await Remix.run(["simulate", "--shard", "100/1000", "--users", "10", "--no-report", "--overwrite", "--log", log]).status
                == 0, "a shard that holds a user runs")
    }

    @Test func rangesCoverEverySessionOnceForManySizes() throws {
        for sessions in [0, 1, 2, 3, 5, 7, 10, 99, 100, 101, 255, 256, 257, 1000, 9999, 200_000, 1_000_003] {
            for count in [1, 2, 3, 4, 5, 7, 8, 16, 64, 100, 1000] {
                var next = 0
                for index in 1...count {
                    let shard = try #require(Shard(spec: "\(index)/\(count)"))
                    let range = shard.range(of: sessions)
                    #expect(range.lowerBound == next, "gap or overlap at \(index)/\(count) of \(sessions)")
                    // Shards differ in size by at most one session.
                    #expect(range.count >= sessions / count && range.count <= sessions / count + 1)
                    next = range.upperBound
                }
                #expect(next == sessions, "\(count) shards of \(sessions) end at \(next)")
            }
        }
    }

    @Test func wholeIsOneOfOne() throws {
        #expect(Shard.whole == Shard(spec: "1/1"))
        #expect(Shard.whole.range(of: 42) == 0..<42)
        #expect(Shard(spec: "2/4")?.description == "2/4")
        #expect(Shard(spec: "2/4")?.index == 2)
        #expect(Shard(spec: "2/4")?.count == 4)
        #expect(Shard(spec: "3/3") != nil)
    }

    @Test(arguments: ["0/3", "4/3", "1/0", "a/b", "1", "", "/", "1/", "/3", "-1/3", "1/-3", "1/3/3", " 1/3", "1.0/3",
                      "0/0"])
    func malformedSpecsAreRejected(_ spec: String) {
        #expect(Shard(spec: spec) == nil, "'\(spec)' should be rejected")
    }
}
