import Foundation
import PostgresNIO
import RemixAnalysis

/// `remix analyze postgresql://…`: the report of every event in the store, computed by SQL in
/// PostgreSQL. Only aggregates cross the wire — per variation counts, exact sums (`numeric`,
/// rounded once) and the few order statistics quantiles need — and the report is the one a JSON
/// Lines file of the same events gives. Experiment keys, variations, event and field names are
/// only ever bind parameters.
package enum StoreAnalysis {
    /// Analyses the events of the store at `url` as `options` ask (its `logs` are not read).
    package static func run(_ url: StoreURL, _ options: AnalysisOptions) async throws(AnalysisError) -> AnalysisReport {
        let queries = try await StoreAggregates.open(url)
        do {
            let report = try await Analyzer.run(options, queries: queries)
            await queries.close()
            return report
        } catch {
            await queries.close()
            throw error
        }
    }
}

/// The SQL behind ``AggregateQueries`` on one connection. Exposed units go into a temporary table
/// first (`remix_units`: experiment, user, the variation — NULL when several —, first exposure);
/// the events are read once per family — screens, each metric event type — into small temporary
/// tables, and a question about one experiment is answered for every experiment at once where it
/// can be; order statistics are read from a scratch table of the values asked about.
final class StoreAggregates: AggregateQueries {
    let store: PostgresStore
    /// What the scratch table holds now (so that a second question about it does not refill it).
    var scratch: String?
    private var screensReady = false
    /// Event type → the temporary tables of its events' times and of each user's last one.
    private var eventTables: [String: (times: String, last: String)] = [:]
    private var screenNames: (names: [String], otherEvents: Int)?
    /// Every experiment's units per variation and screen name, asked once for all experiments
    /// (nil until asked, or when some names fold into "other" and each experiment is asked alone).
    private var screenUnits: [String: [String: [String: Int]]]?
    /// Event type → every experiment's converted units per variation (asked once per type).
    private var conversionUnits: [String: [String: [String: Int]]] = [:]

    private init(store: PostgresStore) {
        self.store = store
    }

    /// Connects to the store at `url`, checks it and fills the session's temporary tables.
    static func open(_ url: StoreURL) async throws(AnalysisError) -> StoreAggregates {
        let queries: StoreAggregates
        do {
            queries = StoreAggregates(store: try await PostgresStore.connect(url))
        } catch {
            throw failure(error)
        }
        // A connection must be closed before it goes away, whatever fails after it opened.
        do {
            try await queries.prepare(url)
        } catch {
            await queries.close()
            throw error
        }
        return queries
    }

    /// Checks that the store is a Remix event store this binary reads, and fills the session's
    /// temporary tables of exposures and units.
    private func prepare(_ url: StoreURL) async throws(AnalysisError) {
        let version: Int?
        do {
            version = try await store.installedVersion()
        } catch {
            throw Self.failure(error)
        }
        guard version != nil else {
            throw .store("there is no Remix event store at \(url.redacted) (no remix_events table); write one with "
                         + "'remix simulate --log URL' or 'remix log copy FILE URL'")
        }
        // Work memory for this session's sorts and hash tables (the server's, not this process's).
        try await execute("SET work_mem = '64MB'")
        try await execute("""
            CREATE TEMPORARY TABLE remix_exposures AS
            SELECT experiment, variation, "user", min(ts) AS first, min(variation_id) AS variation_id,
                   min(NULLIF(fields ->> 'feature', '')) AS feature
            FROM remix_events
            WHERE type = 'exposure' AND in_experiment AND hash_used AND experiment <> '' AND variation <> '' AND "user" <> ''
            GROUP BY experiment, variation, "user"
            """)
        try await execute("""
            CREATE TEMPORARY TABLE remix_units AS
            SELECT experiment, "user", CASE WHEN count(*) = 1 THEN min(variation) END AS variation, min(first) AS first
            FROM remix_exposures GROUP BY experiment, "user"
            """)
        try await execute(#"CREATE INDEX ON remix_units ("user")"#)
        try await execute("ANALYZE remix_units")
        try await execute(#"CREATE TEMPORARY TABLE remix_scratch (variation text, "user" text, v float8)"#)
    }

    func close() async {
        await store.close()
    }

    /// An error of the store as the analysis reports it.
    static func failure(_ error: any Error) -> AnalysisError {
        .store((error as? StoreError)?.description ?? "the event store failed: \(error)")
    }

    /// Runs one statement.
    func execute(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) async throws(AnalysisError) {
        _ = try await rows(sql, binds)
    }

    /// Runs one query and returns its rows.
    func rows(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) async throws(AnalysisError) -> [PostgresRow] {
        do {
            var rows: [PostgresRow] = []
            for try await row in try await store.run(PostgresQuery(unsafeSQL: sql, binds: binds)) { rows.append(row) }
            return rows
        } catch {
            throw Self.failure(error)
        }
    }

    /// Decodes every row as `T`.
    func decode<T>(_ rows: [PostgresRow], _ type: T.Type, _ body: (PostgresRow) throws -> T) throws(AnalysisError) -> [T] {
        do {
            return try rows.map(body)
        } catch {
            throw .store("the event store sent a row Remix cannot read: \(error)")
        }
    }

    static func binds(_ values: [any PostgresEncodable & Sendable]) throws(AnalysisError) -> PostgresBindings {
        var bindings = PostgresBindings()
        do {
            for value in values { try bindings.append(value) }
        } catch {
            throw .store("cannot send a parameter to the event store: \(error)")
        }
        return bindings
    }

    func overview() async throws(AnalysisError) -> AggregateOverview {
        let counts = try await decode(rows("SELECT (SELECT count(*) FROM remix_events) + (SELECT count(*) FROM remix_runs)"),
                                Int.self) { try $0.decode(Int.self) }
        let time = "to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
        let records = try await decode(rows("""
            SELECT \(time), record::text FROM remix_runs ORDER BY run_id, shard LIMIT \(AnalysisReport.runRecordLimit)
            """), [UInt8].self) { row in
            let (ts, record) = try row.decode((String, String).self)
            return LogCopy.line(ts: ts, type: "run", session: "", user: "", exposure: nil, fields: record)
        }
        let variations = try await decode(rows("""
            SELECT experiment, variation, min(variation_id)::bigint, coalesce(min(feature), '')
            FROM remix_exposures GROUP BY experiment, variation ORDER BY experiment, variation
            """), (String, String, Int?, String).self) { try $0.decode((String, String, Int?, String).self) }
        var experiments: [String: [(key: String, id: Int, feature: String)]] = [:]
        for (experiment, variation, id, feature) in variations {
            experiments[experiment, default: []].append((variation, id ?? 0, feature))
        }
        return AggregateOverview(name: store.url.redacted, lines: counts.first ?? 0, runRecords: records,
                                 experiments: experiments)
    }

    func exposures(experiment: String) async throws(AnalysisError) -> ExposureAggregates {
        let found = try await decode(rows("""
            SELECT variation, count(*)::bigint,
                   (extract(epoch FROM min(first)) * 1000)::bigint, (extract(epoch FROM max(first)) * 1000)::bigint
            FROM remix_units WHERE experiment = $1 GROUP BY variation
            """, try Self.binds([experiment])), (String?, Int, Int64, Int64).self) { try $0.decode((String?, Int, Int64, Int64).self) }
        var variations: [String: (units: Int, first: Int64, last: Int64)] = [:]
        var multiple = 0
        for (variation, units, first, last) in found {
            if let variation { variations[variation] = (units, first, last) } else { multiple = units }
        }
        return ExposureAggregates(variations: variations, multiple: multiple)
    }

    func screens(experiment: String, limit: Int) async throws(AnalysisError) -> ScreenAggregates {
        if !screensReady {
            try await execute("""
                CREATE TEMPORARY TABLE remix_screens AS
                SELECT "user", split_part(fields ->> 'screen', '(', 1) AS name, max(ts) AS last, count(*) AS events
                FROM remix_events WHERE type = 'screen' AND coalesce(fields ->> 'screen', '') <> '' AND "user" <> ''
                GROUP BY 1, 2
                """)
            try await execute("ANALYZE remix_screens")
            screensReady = true
        }
        let (names, otherEvents) = try await screenNames(limit: limit)
        if otherEvents == 0 {
            // Every name has a step of its own: one join answers every experiment at once.
            let all = try await allScreenUnits()
            return ScreenAggregates(names: names, units: all[experiment] ?? [:], other: nil, otherEvents: 0)
        }
        let found = try await decode(rows("""
            SELECT u.variation, CASE WHEN s.name = ANY($2) THEN s.name END, count(DISTINCT u."user")::bigint
            FROM remix_units u JOIN remix_screens s ON s."user" = u."user"
            WHERE u.experiment = $1 AND u.variation IS NOT NULL AND s.last >= u.first
            GROUP BY 1, 2
            """, try Self.binds([experiment, names])), (String, String?, Int).self) { try $0.decode((String, String?, Int).self) }
        var units: [String: [String: Int]] = [:]
        var other: [String: Int] = [:]
        for (variation, name, count) in found {
            if let name { units[variation, default: [:]][name] = count } else { other[variation] = count }
        }
        return ScreenAggregates(names: names, units: units, other: other, otherEvents: otherEvents)
    }

    /// Per experiment, variation and screen name, the units shown it at or after their first
    /// exposure (a unit and a name meet in one row of `remix_screens`, so rows count units).
    private func allScreenUnits() async throws(AnalysisError) -> [String: [String: [String: Int]]] {
        if let screenUnits { return screenUnits }
        let found = try await decode(rows("""
            SELECT u.experiment, u.variation, s.name, count(*)::bigint
            FROM remix_units u JOIN remix_screens s ON s."user" = u."user"
            WHERE u.variation IS NOT NULL AND s.last >= u.first
            GROUP BY 1, 2, 3
            """), (String, String, String, Int).self) { try $0.decode((String, String, String, Int).self) }
        var all: [String: [String: [String: Int]]] = [:]
        for (experiment, variation, name, count) in found { all[experiment, default: [:]][variation, default: [:]][name] = count }
        screenUnits = all
        return all
    }

    /// The screen names with a funnel step of their own and the screen events of the others (once).
    private func screenNames(limit: Int) async throws(AnalysisError) -> (names: [String], otherEvents: Int) {
        if let screenNames { return screenNames }
        let all = try await decode(rows("SELECT name, sum(events)::bigint FROM remix_screens GROUP BY name"), (String, Int).self) {
            try $0.decode((String, Int).self)
        }
        var names = all.map(\.0).sorted(), otherEvents = 0
        if names.count > limit {
            // As a log file's funnel: the first screens seen get a count of their own.
            names = try await decode(rows("""
                SELECT name FROM (
                  SELECT DISTINCT ON (name) name, run_id, shard, block, seq FROM (
                    SELECT split_part(fields ->> 'screen', '(', 1) AS name, run_id, shard, block, seq
                    FROM remix_events WHERE type = 'screen' AND coalesce(fields ->> 'screen', '') <> '' AND "user" <> '') s
                  ORDER BY name, run_id, shard, block, seq) f
                ORDER BY run_id, shard, block, seq LIMIT \(limit)
                """), String.self) { try $0.decode(String.self) }
            let kept = Set(names)
            otherEvents = all.filter { !kept.contains($0.0) }.reduce(0) { $0 + $1.1 }
        }
        screenNames = (names, otherEvents)
        return (names, otherEvents)
    }

    func conversions(experiment: String, event: String) async throws(AnalysisError) -> [String: Int] {
        if let all = conversionUnits[event] { return all[experiment] ?? [:] }
        let table = try await eventTables(event).last
        let found = try await decode(rows("""
            SELECT u.experiment, u.variation, count(*)::bigint FROM remix_units u JOIN \(table) e ON e."user" = u."user"
            WHERE u.variation IS NOT NULL AND e.last >= u.first
            GROUP BY 1, 2
            """), (String, String, Int).self) { try $0.decode((String, String, Int).self) }
        var all: [String: [String: Int]] = [:]
        for (experiment, variation, count) in found { all[experiment, default: [:]][variation, default: 0] += count }
        conversionUnits[event] = all
        return all[experiment] ?? [:]
    }

    /// Temporary tables of `event`'s times per user (every one) and of each user's last one, made
    /// once per event type and connection by one read of the events.
    func eventTables(_ event: String) async throws(AnalysisError) -> (times: String, last: String) {
        if let tables = eventTables[event] { return tables }
        let tables = (times: "remix_times_\(eventTables.count)", last: "remix_last_\(eventTables.count)")
        try await execute("""
            CREATE TEMPORARY TABLE \(tables.times) AS
            SELECT "user", ts FROM remix_events WHERE type = $1 AND "user" <> ''
            """, Self.binds([event]))
        try await execute("ANALYZE \(tables.times)")
        try await execute(#"CREATE TEMPORARY TABLE \#(tables.last) AS SELECT "user", max(ts) AS last FROM \#(tables.times) GROUP BY "user""#)
        try await execute("ANALYZE \(tables.last)")
        eventTables[event] = tables
        return tables
    }
}
