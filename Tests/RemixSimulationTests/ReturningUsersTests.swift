import Foundation
import RemixTestSupport
import Testing

/// Returning users: a persona may visit several times; every session of a user carries the user's
/// id and gets the same variation, logs stay byte-identical across jobs, shards hold whole users,
/// and the analysis counts users, not sessions.
@Suite struct ReturningUsersTests {
    static let yaml = """
        app: calculator
        start: 2026-11-23T09:00:00Z
        sessionGapSeconds: 10
        attributes:
          platform: {phone: 0.5, tablet: 0.5}
        intents:
          add:
            success: sum_analysed
            values:
              - {number: ["12", "30"], expression: "12 + 30"}
        personas:
          - {name: once, weight: 1, intents: {add: 1}}
          - {name: regular, weight: 2, intents: {add: 0.9}, visits: [2, 4], daysBetweenVisits: [1, 3]}
        """

    @Test func everySessionOfAUserCarriesItsIdAndVariation() throws {
        let folder = try TemporaryFolder()
        let log = folder.path("events.jsonl")
        let summary = try Fixture.run(sessions: 300, seed: 9, jobs: 2, population: try Fixture.population(yaml: Self.yaml), to: log)
        let lines = try readLog(log)
        #expect(summary.users == 300)
        let started = lines.filter { $0.type == "session_started" }
        #expect(started.count == summary.sessions && summary.sessions > 600, "sessions \(summary.sessions)")
        var visits: [String: [LogLine]] = [:]
        for line in started { visits[line.string("user") ?? "", default: []].append(line) }
        #expect(visits.count == 300)
        var returning = 0
        for (user, sessions) in visits {
            let index: Substring = user.dropFirst("u9-".count)
            let visitNumbers: [Int] = sessions.map { (session: LogLine) -> Int in (session["visit"] as? NSNumber)?.intValue ?? 0 }
            let expectedVisits: [Int] = Array(1...sessions.count)
            #expect(visitNumbers == expectedVisits)
            let sessionIds: [String] = sessions.map(\.session)
            let laterIds: [String] = sessions.count > 1
                ? (2...sessions.count).map { (visit: Int) -> String in "s9-\(index)-\(visit)" } : []
            let expectedIds: [String] = ["s9-\(index)"] + laterIds
            #expect(sessionIds == expectedIds)
            let persona: String? = sessions[0].string("persona")
            #expect(sessions.allSatisfy { (session: LogLine) -> Bool in session.string("persona") == persona })
            let visitsFit: Bool = persona == "once" ? sessions.count == 1 : (2...4).contains(sessions.count)
            #expect(visitsFit, "\(user): \(sessions.count)")
            if sessions.count > 1 { returning += 1 }
            // Visits are one to three days apart, and the same attributes come back.
            let starts = sessions.compactMap { (session: LogLine) in Self.seconds(session.ts) }
            for (earlier, later) in zip(starts, starts.dropFirst()) {
                let gap = later - earlier
                #expect(gap >= 86_400 && gap <= 3 * 86_400 + 3_600, "\(user) visits \(starts)")
            }
            let attributes: [[String: String]] = sessions.map { (session: LogLine) -> [String: String] in
                (session["attributes"] as? [String: String]) ?? [:]
            }
            #expect(attributes.allSatisfy { (each: [String: String]) -> Bool in each == attributes[0] && each["id"] == user })
        }
        #expect(returning > 150, "two thirds of users are regulars: \(returning)")
        // Every exposure of a user is to the same variation: assignment hashes the user id.
        var variations: [String: Set<String>] = [:]
        for line in lines where line.type == "exposure" { variations[line.string("user") ?? "", default: []].insert(line.string("variation") ?? "") }
        #expect(variations.count > 250)
        #expect(variations.values.allSatisfy { $0.count == 1 })
    }

    static func seconds(_ timestamp: String) -> Double? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: timestamp)?.timeIntervalSince1970
    }

    @Test func logsAreByteIdenticalAcrossJobsAndShardsHoldWholeUsers() throws {
        let folder = try TemporaryFolder()
        let population = try Fixture.population(yaml: Self.yaml)
        var logs: [Data] = []
        for jobs in [1, 2, 3] {
            try Fixture.run(sessions: 600, seed: 4, jobs: jobs, population: population, to: folder.path("j\(jobs).jsonl"))
            logs.append(try Data(contentsOf: URL(fileURLWithPath: folder.path("j\(jobs).jsonl"))))
        }
        #expect(logs[1] == logs[0] && logs[2] == logs[0])
        var shards: [String] = []
        for shard in ["1/3", "2/3", "3/3"] {
            let path = folder.path("shard\(shard.prefix(1)).jsonl")
            try Fixture.run(sessions: 600, seed: 4, jobs: 2, shard: shard, population: population, to: path)
            let lines = try readLog(path)
            shards += lines.dropFirst().map(\.text)
            let users = Set(lines.dropFirst().map { $0.string("user") ?? "" })
            let range = ((lines.first?["userIndices"] as? [NSNumber]) ?? []).map(\.intValue)
            #expect(range.count == 2 && users.count == range[1] - range[0], "shard \(shard) holds whole users")
        }
        let full = try readLog(folder.path("j1.jsonl")).dropFirst().map(\.text)
        #expect(shards == full)
    }

    @Test func theAnalysisCountsUsersNotSessions() async throws {
        let folder = try TemporaryFolder()
        let log = folder.path("events.jsonl")
        let population = try folder.write("calculator.population.yaml", Self.yaml)
        let simulated = await Remix.run(["simulate", "--app", "calculator", "--users", "400", "--population", population,
                                         "--no-report", "--log", log])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        #expect(simulated.stdout.contains("users      400 ("))
        let lines = try readLog(log)
        let exposedUsers = Set(lines.filter { $0.type == "exposure" }.map { $0.string("user") ?? "" })
        let exposedSessions = Set(lines.filter { $0.type == "exposure" }.map(\.session))
        #expect(exposedSessions.count > exposedUsers.count + 200)
        let report = await Remix.run(["analyze", log, "--format", "csv", "--metric", "sum_analysed"])
        #expect(report.status == 0, "\(report.stderr)")
        let rows = report.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let units = rows.filter { $0.count > 5 && $0[5] == "sum_analysed" }.compactMap { Int($0[4]) }
        #expect(units.count == 2 && units.reduce(0, +) == exposedUsers.count, "\(report.stdout)")
    }
}
