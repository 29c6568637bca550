import Foundation
import RemixTestSupport
import RemixHost
import RemixSimulation
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
