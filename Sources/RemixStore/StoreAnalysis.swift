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
        let queries = try await StoreAggregates.open(url, scopes: StoreScopes(options))
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

/// The SQL behind ``AggregateQueries``, on one connection and a second one working beside it
/// (``SideConnection``), both in one snapshot. Exposed units go into a temporary table
/// first (`remix_units`: experiment, user, the variation — NULL when several —, first exposure);
/// each family of events — exposures, screens, each metric event type — is read from its covering
/// index (``StoreSchema/indexes``), in user order where it meets the units, and a question about
/// one experiment is answered for every experiment at once where it can be; order statistics are
/// read from a scratch table of the values asked about. Each phase's own units are rows of
/// `remix_units` too, under the phase's scope name (``fillPhaseUnits(_:_:)``).
final class StoreAggregates: AggregateQueries {
    let store: PostgresStore
    /// What the scratch table holds now (so that a second question about it does not refill it).
    var scratch: String?
    var screenNames: (names: [String], otherEvents: Int)?
    /// What the second connection computes meanwhile (``SideConnection``).
    var side: SideConnection?
    /// Event type → every experiment's converted units per variation (asked once per type).
    private var conversionUnits: [String: [String: [String: Int]]] = [:]
    /// Event type and field → the temporary table of their values (``valueTable(event:field:)``).
    var valueTables: [String: String] = [:]
    /// Whether some experiment's phases were read (into `remix_phases` and `remix_units`).
    private(set) var readsPhases = false
    /// Whether the units were sliced by a dimension (`remix_slices`, and `remix_units`).
    private(set) var sliced = false

    private init(store: PostgresStore) {
        self.store = store
    }

    /// Connects to the store at `url`, checks it and fills the session's temporary tables (with
    /// the phases and slices `scopes` asks for).
    static func open(_ url: StoreURL, scopes: StoreScopes = StoreScopes()) async throws(AnalysisError) -> StoreAggregates {
        let queries: StoreAggregates
        do {
            queries = StoreAggregates(store: try await PostgresStore.connect(url))
        } catch {
            throw failure(error)
        }
        // A connection must be closed before it goes away, whatever fails after it opened.
        do {
            try await queries.prepare(url, scopes: scopes)
        } catch {
            await queries.close()
            throw error
        }
        return queries
    }

    /// Checks that the store is a Remix event store of this binary's schema version, opens the
    /// snapshot both connections read, starts the second, and fills the session's units.
    private func prepare(_ url: StoreURL, scopes: StoreScopes) async throws(AnalysisError) {
        let version: Int?
        do {
            version = try await store.installedVersion()
        } catch {
            throw Self.failure(error)
        }
        guard let version else {
            throw .store("there is no Remix event store at \(url.redacted) (no remix_events table); write one with "
                         + "'remix simulate --log URL' or 'remix log copy FILE URL'")
        }
        guard version == StoreSchema.version else {
            throw .store("the event store at \(url.redacted) has schema version \(version); analysing it needs version "
                         + "\(StoreSchema.version): run 'remix log upgrade URL' once (it derives two columns from the events' "
                         + "fields and rebuilds three indexes), then analyze again")
        }
        // One snapshot for every statement, on both connections: events written meanwhile are in
        // none of the report's figures, or in all of them.
        try await execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        let snapshot = try await decode(rows("SELECT pg_export_snapshot()"), String.self) { try $0.decode(String.self) }.first
        side = snapshot.map { SideConnection(url, snapshot: $0, scopes: scopes) }
        (readsPhases, sliced) = try await Self.fillUnits(store, scopes: scopes)
        try await execute(#"CREATE TEMPORARY TABLE remix_scratch (variation text, "user" text, v float8)"#)
    }

    /// Sets the session's work memory and fills its temporary table of units (`remix_units`), with
    /// the phases' and slices' units `scopes` asks for; says whether it read phases, and sliced.
    @discardableResult
    static func fillUnits(_ store: PostgresStore, scopes: StoreScopes) async throws(AnalysisError) -> (phases: Bool, sliced: Bool) {
        // Work memory for this session's sorts and hash tables (the server's, not this process's).
        try await execute(store, "SET work_mem = '64MB'")
        // Straight from the exposures' index, in its (experiment, user) order.
        try await execute(store, """
            CREATE TEMPORARY TABLE remix_units AS
            SELECT experiment, "user", CASE WHEN min(variation) = max(variation) THEN min(variation) END AS variation,
                   min(ts) AS first
            FROM remix_events WHERE \(countedExposures)
            GROUP BY experiment, "user"
            """)
        let readsPhases = try await fillPhaseUnits(store, scopes)
        let sliced = try await fillSliceUnits(store, scopes)
        try await execute(store, #"CREATE INDEX ON remix_units ("user")"#)
        try await execute(store, "ANALYZE remix_units")
        return (readsPhases, sliced)
    }

    /// The exposures that make units: counted, with an experiment, a variation and a user.
    static let countedExposures = "\(StoreSchema.countedExposure) AND experiment <> '' AND variation <> '' AND \"user\" <> ''"

    func close() async {
        await side?.end()
        await store.close()
    }

    /// An error of the store as the analysis reports it.
    static func failure(_ error: any Error) -> AnalysisError {
        .store((error as? StoreError)?.description ?? "the event store failed: \(error)")
    }

    /// Runs one statement.
    func execute(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) async throws(AnalysisError) {
        try await Self.execute(store, sql, binds)
    }

    /// Runs one query and returns its rows.
    func rows(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) async throws(AnalysisError) -> [PostgresRow] {
        try await Self.rows(store, sql, binds)
    }

    /// Runs one statement on `store`.
    static func execute(_ store: PostgresStore, _ sql: String, _ binds: PostgresBindings = PostgresBindings()) async throws(AnalysisError) {
        _ = try await rows(store, sql, binds)
    }

    /// Runs one query on `store` and returns its rows.
    static func rows(_ store: PostgresStore, _ sql: String, _ binds: PostgresBindings = PostgresBindings()) async throws(AnalysisError) -> [PostgresRow] {
        do {
            var rows: [PostgresRow] = []
            for try await row in try await store.run(PostgresQuery(unsafeSQL: sql, binds: binds)) { rows.append(row) }
            return rows
        } catch {
            throw failure(error)
        }
    }

    /// Decodes every row as `T`.
    func decode<T>(_ rows: [PostgresRow], _ type: T.Type, _ body: (PostgresRow) throws -> T) throws(AnalysisError) -> [T] {
        try Self.decode(rows, type, body)
    }

    /// Decodes every row as `T`.
    static func decode<T>(_ rows: [PostgresRow], _ type: T.Type, _ body: (PostgresRow) throws -> T) throws(AnalysisError) -> [T] {
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
        // Each block's row and its events are written in one transaction, so the blocks count the events.
        let counts = try await decode(rows("""
            SELECT (SELECT coalesce(sum(events), 0) FROM remix_blocks)::bigint + (SELECT count(*) FROM remix_runs)
            """),
                                Int.self) { try $0.decode(Int.self) }
        let time = "to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
        let records = try await decode(rows("""
            SELECT \(time), record::text FROM remix_runs ORDER BY run_id, shard LIMIT \(AnalysisReport.runRecordLimit)
            """), [UInt8].self) { row in
            let (ts, record) = try row.decode((String, String).self)
            return LogCopy.line(ts: ts, type: "run", session: "", user: "", exposure: nil, fields: record)
        }
        var variations: [(String, String, Int?, String)]
        if let found = try? await side?.overview.value.1 { variations = found } else { variations = try await Self.variations(store) }
        variations += try await phaseVariations()
        var experiments: [String: [(key: String, id: Int, feature: String)]] = [:]
        for (experiment, variation, id, feature) in variations {
            experiments[experiment, default: []].append((variation, id ?? 0, feature))
        }
        var overview = AggregateOverview(name: store.url.redacted, lines: counts.first ?? 0, runRecords: records,
                                         experiments: experiments)
        overview.unfinishedShards = try await unfinishedShards()
        return overview
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

    func conversions(experiment: String, event: String) async throws(AnalysisError) -> [String: Int] {
        if let all = conversionUnits[event] { return all[experiment] ?? [:] }
        let found = try await decode(rows("""
            SELECT u.experiment, u.variation, count(*)::bigint
            FROM remix_units u JOIN (\(Self.lastTimes)) e ON e."user" = u."user"
            WHERE u.variation IS NOT NULL AND e.last >= u.first
            GROUP BY 1, 2
            """, Self.binds([event])), (String, String, Int).self) { try $0.decode((String, String, Int).self) }
        var all: [String: [String: Int]] = [:]
        for (experiment, variation, count) in found { all[experiment, default: [:]][variation, default: 0] += count }
        conversionUnits[event] = all
        return all[experiment] ?? [:]
    }

    /// Each user's last event of the type `$1`, from the index of events by type and user.
    static let lastTimes = #"SELECT "user", max(ts) AS last FROM remix_events WHERE type = $1 AND "user" <> '' GROUP BY "user""#
}
