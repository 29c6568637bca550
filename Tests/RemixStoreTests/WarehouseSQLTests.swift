import Foundation
import RemixTestSupport
import Testing

/// `remix analyze --sql postgresql` run for real (psql) over a table of the log's lines as
/// `jsonb`, and `remix analyze --aggregates`: the report equals the log's for every metric type.
@Suite(.enabled(if: StoreServer.shouldRun, StoreServer.skipReason))
struct WarehouseSQLTests {
    static var root: URL { Repository.root }

    /// Runs psql on `url` with `arguments`; returns its standard output.
    static func psql(_ url: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", url, "-q", "-v", "ON_ERROR_STOP=1"] + arguments
        let output = Pipe(), errors = Pipe()
        (process.standardOutput, process.standardError) = (output, errors)
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(problems)")
        return text
    }

    @Test func postgreSQLGivesTheLogsReport() async throws {
        try await StoreAnalysisTests.withOwnStore { url in
            let folder = try TemporaryFolder()
            let experiments = try ShippedExperiments.copy(into: folder)
            let log = folder.path("events.jsonl")
            #expect(try RemixProcess.run(["simulate", "--app", "calculator", "--users", "1500", "--seed", "19", "--no-report",
                                          "--experiments", experiments, "--log", log], in: Self.root).status == 0)
            _ = try Self.psql(url, ["-c", "CREATE TABLE events (line jsonb)"])
            _ = try Self.psql(url, ["-c", #"\copy events (line) FROM '\#(log)' WITH (FORMAT csv, QUOTE e'\x01', DELIMITER e'\x02')"#])
            let sets: [[String]] = [[], ["published", "published-first-day", "adverts-published", "time-in-sessions"],
                                    ["session-duration", "steps-per-session", "sums-analysed", "groups-viewed"],
                                    ["user-time-median", "session-time-p90", "time-to-publish", "time-in-sessions-p99-capped"]].map { $0.flatMap { ["--metric", $0] } }
            let phased = try PhasedLog.simulate(in: folder)
            _ = try Self.psql(url, ["-c", "CREATE TABLE phased (line jsonb)"])
            _ = try Self.psql(url, ["-c", #"\copy phased (line) FROM '\#(phased.log)' WITH (FORMAT csv, QUOTE e'\x01', DELIMITER e'\x02')"#])
            let runs = sets.map { (log, "events", ["--experiments", experiments] + $0) } + [
                (log, "events", ["--experiments", experiments, "--dimension", "persona"]),
                (phased.log, "phased", ["--experiments", phased.experiments, "--phase", "all", "--dimension", "platform", "--by", "day"]),
            ]
            for (log, table, options) in runs {
                let query = try RemixProcess.run(["analyze", "--sql", "postgresql", "--table", table] + options, in: Self.root)
                #expect(query.status == 0, "\(query.stderr)")
                let result = try folder.write("result.csv", Self.psql(url, ["-c", "COPY (\(query.stdout)) TO STDOUT WITH (FORMAT csv, HEADER)"]))
                let fromTable = try StoreAnalysisTests.report("--aggregates=" + result, options)
                #expect(fromTable == (try StoreAnalysisTests.report(log, options)), "\(options)")
            }
        }
    }
}
