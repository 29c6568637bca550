import Foundation
import RemixTestSupport
import Testing

/// `remix analyze --sql DIALECT` run for real in DuckDB and Spark over a simulated log, and
/// `remix analyze --aggregates RESULT.csv`: the report equals the log's for every metric type.
@Suite(.enabled(if: WarehousePython.shouldRun, WarehousePython.skipReason), .serialized)
struct WarehouseAnalysisTests {
    static var root: URL { Repository.root }

    /// Metric sets by type: proportions (with a window) and means; ratios and CUPED; quantiles
    /// (unit and event level) and a percentile cap.
    static let optionSets: [[String]] = [
        [],
        ["published", "published-first-day", "adverts-published", "time-in-sessions", "sessions", "steps"].flatMap { ["--metric", $0] },
        ["session-duration", "steps-per-session", "sums-analysed", "groups-viewed"].flatMap { ["--metric", $0] },
        ["user-time-median", "session-time-p90", "time-to-publish", "time-in-sessions-p99-capped"].flatMap { ["--metric", $0] },
    ]

    /// A simulated log and the experiments folder it was made with (CUPED gets a pre-exposure
    /// window: the calculator experiment starts after the users' first visits).
    static func simulatedLog(in folder: TemporaryFolder, app: String) throws -> (log: String, experiments: String) {
        let experiments = try ShippedExperiments.copy(into: folder)
        let log = folder.path("events.jsonl")
        let simulate = try RemixProcess.run(["simulate", "--app", app, "--users", "1500", "--seed", "19", "--no-report",
                                             "--experiments", experiments, "--log", log], in: root)
        #expect(simulate.status == 0, "\(simulate.stderr)")
        return (log, experiments)
    }

    /// The JSON report `remix analyze` prints for `arguments`, without its `log` part (which names the source).
    static func report(_ arguments: [String]) throws -> NSDictionary {
        let result = try RemixProcess.run(["analyze", "--format", "json"] + arguments, in: root)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        return NSDictionary(dictionary: object.filter { $0.key != "log" })
    }

    /// Each run's query in `engine`'s dialect, run by `engine` over the run's log (one session
    /// for all), and each report from its result compared with the log's.
    static func check(engine: String, runs: [(log: String, options: [String])], in folder: TemporaryFolder) throws {
        var jobs: [String] = []
        for (index, run) in runs.enumerated() {
            let query = try RemixProcess.run(["analyze", "--sql", engine] + run.options, in: root)
            #expect(query.status == 0, "\(query.stderr)")
            jobs.append([try folder.write("query\(index).sql", query.stdout), folder.path("result\(index).csv"), run.log].joined(separator: "="))
        }
        try WarehousePython.run(engine: engine, jobs: jobs)
        for (index, run) in runs.enumerated() {
            let fromTable = try report(["--aggregates", folder.path("result\(index).csv")] + run.options)
            let fromLog = try report([run.log] + run.options)
            #expect((fromLog["experiments"] as? [Any])?.isEmpty == false)
            #expect(fromTable == fromLog, "\(engine) \(run.options)")
        }
    }

    @Test(arguments: ["marketplace", "calculator"])
    func duckDBGivesTheLogsReport(app: String) throws {
        let folder = try TemporaryFolder()
        let (log, experiments) = try Self.simulatedLog(in: folder, app: app)
        try Self.check(engine: "duckdb", runs: Self.optionSets.map { (log, ["--experiments", experiments] + $0) }, in: folder)
    }

    /// `--dimension` (attributes and top-level fields), `--phase` (each phase, all, the latest) and
    /// `--by` (hourly and daily cuts, phases in cuts) over a log of an experiment with phases.
    static func phasedRuns(in folder: TemporaryFolder) throws -> [(log: String, options: [String])] {
        let (log, experiments) = try PhasedLog.simulate(in: folder)
        let sets = [["--phase", "all", "--dimension", "visit", "--metric", "group_viewed", "--metric", "session-duration", "--by", "day"],
                    ["--dimension", "platform"], ["--phase", "0", "--dimension", "persona"],
                    ["--by", "hour", "--phase", "1", "--metric", "session-duration", "--metric", "time-in-sessions-p99-capped"]]
        return sets.map { (log, ["--experiments", experiments] + $0) }
    }

    @Test func slicesPhasesAndCutsEqualTheLogs() throws {
        let folder = try TemporaryFolder()
        let runs = try Self.phasedRuns(in: folder)
        try Self.check(engine: "duckdb", runs: runs, in: folder)
        // The runs are not trivial: two phases, slices and over a hundred cuts.
        let report = try Self.report([runs[0].log] + runs[1].options + ["--phase", "all", "--by", "hour"])
        let experiment = (report["experiments"] as? [[String: Any]])?.first
        #expect((experiment?["phases"] as? [Any])?.count == 2)
        #expect((experiment?["slices"] as? [Any])?.count == 2)
        #expect(((experiment?["overTime"] as? [Any])?.count ?? 0) > 100)
    }

    /// Quotes, backslashes and SQL in experiment, variation, event, field and screen names (the
    /// table needs the columns the query reads: the log has `feature` and `screen`).
    static func hostileRun(in folder: TemporaryFolder) throws -> (log: String, options: [String]) {
        var lines: [String] = []
        for index in 0..<40 {
            let ts = String(format: "2026-11-23T09:%02d:00.000Z", index)
            let later = String(format: "2026-11-23T10:%02d:00.000Z", index)
            lines.append(#"{"ts":"\#(ts)","type":"exposure","session":"s","user":"u\#(index)","experiment":"x'); drop table events;--","variation":"v\#(index % 2)'\"","variationId":\#(index % 2),"inExperiment":true,"hashUsed":true,"feature":"f'\""}"#)
            lines.append(#"{"ts":"\#(later)","type":"screen","session":"s","user":"u\#(index)","screen":"s'\"(x)"}"#)
            if index % 3 != 0 {
                lines.append(#"{"ts":"\#(later)","type":"e\"'; drop table events;--\\","session":"s","user":"u\#(index)","am`ount'":\#(index * 3)}"#)
            }
        }
        let log = try folder.write("hostile.jsonl", lines.joined(separator: "\n") + "\n")
        let metrics = try folder.write("metrics.yaml", #"""
            metrics:
              - key: amount
                type: mean
                event: "e\"'; drop table events;--\\"
                value: "am`ount'"
            """# + "\n")
        return (log, ["--metrics", metrics, "--metric", "amount", "--metric", #"e"'; drop table events;--\"#])
    }

    /// Hostile names, read from the events table named with its schema (`--table main.Events`,
    /// quoted as `"main"."Events"`, which DuckDB matches regardless of case).
    @Test func hostileNamesStayData() throws {
        let folder = try TemporaryFolder()
        let run = try Self.hostileRun(in: folder)
        try Self.check(engine: "duckdb", runs: [(run.log, run.options + ["--table", "main.Events"])], in: folder)
    }

}

/// The same checks in Spark, a suite of its own so that it runs beside the DuckDB ones rather than
/// after them (its session spends most of a minute starting and compiling on two cores).
@Suite(.enabled(if: WarehousePython.shouldRun, WarehousePython.skipReason))
struct WarehouseSparkTests {
    /// One Spark session (local[2]) runs three queries: every metric type of the option sets in
    /// one, slices with phases and daily cuts, and the hostile names (a Spark query costs seconds
    /// on two cores, whatever its size here).
    @Test func sparkGivesTheLogsReport() throws {
        let folder = try TemporaryFolder()
        let (log, experiments) = try WarehouseAnalysisTests.simulatedLog(in: folder, app: "calculator")
        let everyMetric = ["--experiments", experiments] + WarehouseAnalysisTests.optionSets.joined()
        let runs = [(log, everyMetric), try WarehouseAnalysisTests.phasedRuns(in: folder)[0],
                    try WarehouseAnalysisTests.hostileRun(in: folder)]
        try WarehouseAnalysisTests.check(engine: "spark", runs: runs, in: folder)
    }
}

/// The Python with DuckDB (and PySpark) the warehouse tests run the queries in: `REMIX_PYTHON`
/// (set by .ci/run), else the private venv `.build-venv`; skipped without one, failed under CI.
enum WarehousePython {
    static var path: String? {
        if let given = ProcessInfo.processInfo.environment["REMIX_PYTHON"], !given.isEmpty { return given }
        let venv = Repository.root.appendingPathComponent(".build-venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : nil
    }

    static var shouldRun: Bool { path != nil || RequiredUnderCI.holds() }

    static let skipReason: Comment = "no Python with duckdb and pyspark: set REMIX_PYTHON, or run .ci/run (it makes .build-venv)"

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs the queries of `jobs` (`QUERY.sql=RESULT.csv=LOG`) in one `engine` session.
    static func run(engine: String, jobs: [String]) throws {
        guard let path else { throw Failed(description: "CI=true but there is no Python: set REMIX_PYTHON, or run .ci/run") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [Repository.root.appendingPathComponent("Tests/RemixAnalysisTests/Warehouse/run_queries.py").path,
                             engine] + jobs
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failed(description: "\(engine) failed: \(text)") }
    }
}
