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

    /// `--table SCHEMA.Events` is quoted as the name PostgreSQL would read unquoted (lower case,
    /// its schema first) and the query runs; the report of its result keeps, in each dimension
    /// slice, the units of variations the experiment file does not declare, as the log's does.
    @Test func aSchemaQualifiedTableRunsAndSlicesKeepUndeclaredVariations() async throws {
        try await StoreAnalysisTests.withOwnStore { url in
            let schema = try #require(url.components(separatedBy: "search_path%3D").last)
            let folder = try TemporaryFolder()
            var lines: [String] = []
            for index in 0..<60 {
                let user = "u\(index)", platform = index % 3 == 0 ? "ios" : "android"
                let variation = index % 5 == 4 ? "ghost" : index % 2 == 0 ? "control" : "treatment"
                lines.append(#"{"ts":"2026-11-23T09:00:00.000Z","type":"session_started","session":"s\#(index)","user":"\#(user)","persona":"p","attributes":{"platform":"\#(platform)"}}"#)
                lines.append(#"{"ts":"2026-11-23T09:00:01.000Z","type":"exposure","session":"s\#(index)","user":"\#(user)","experiment":"e","variation":"\#(variation)","variationId":\#(variation == "ghost" ? 7 : index % 2),"inExperiment":true,"hashUsed":true,"feature":"F"}"#)
                if index % 4 == 0 {
                    lines.append(#"{"ts":"2026-11-23T09:00:02.000Z","type":"advert_published","session":"s\#(index)","user":"\#(user)"}"#)
                }
            }
            let log = try folder.write("events.jsonl", lines.joined(separator: "\n") + "\n")
            try folder.write("experiments/e.yaml", """
                key: e
                app: marketplace
                slot: insertion
                variations:
                  - {key: control, feature: ManualGroupInsertion}
                  - {key: treatment, feature: AutoGroupInsertion}
                metrics:
                  primary: advert_published

                """)
            _ = try Self.psql(url, ["-c", "CREATE TABLE events (line jsonb)"])
            _ = try Self.psql(url, ["-c", #"\copy events (line) FROM '\#(log)' WITH (FORMAT csv, QUOTE e'\x01', DELIMITER e'\x02')"#])
            let options = ["--experiments", folder.path("experiments"), "--dimension", "platform"]
            let query = try RemixProcess.run(["analyze", "--sql", "postgresql", "--table", schema + ".Events"] + options, in: Self.root)
            #expect(query.status == 0, "\(query.stderr)")
            #expect(query.stdout.contains(#"FROM "\#(schema)"."events""#))
            let result = try folder.write("result.csv", Self.psql(url, ["-c", "COPY (\(query.stdout)) TO STDOUT WITH (FORMAT csv, HEADER)"]))
            let fromTable = try StoreAnalysisTests.report("--aggregates=" + result, options)
            let fromLog = try StoreAnalysisTests.report(log, options)
            #expect(fromTable == fromLog)
            let slices = (fromLog["experiments"] as? [[String: Any]])?.first?["slices"] as? [[String: Any]] ?? []
            #expect(slices.count == 2 && slices.allSatisfy { slice in
                (slice["undeclaredVariations"] as? [Any])?.isEmpty == false
            }, "\(slices)")
        }
    }
}
