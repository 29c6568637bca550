import PostgresNIO
import RemixAnalysis
import RemixFormats

/// The value metrics' SQL: per-unit values summed exactly as `numeric`, capped at a cap sent as
/// its exact decimal, summed per variation; order statistics by rank from the scratch table.
extension StoreAggregates {
    /// SQL of per-unit values of `query` over experiment `$1`'s single-variation units, with
    /// columns `"user"`, `v` (uncapped), `n` (events), `missing` and `non_numeric`; appends its
    /// parameters to `binds`. A field's values come from their table (``valueTable(event:field:)``),
    /// a count or an indicator from the index of events by type and user.
    private func unitValues(_ query: UnitValueQuery,
                            _ binds: inout [any PostgresEncodable & Sendable]) async throws(AnalysisError) -> String {
        func parameter(_ value: any PostgresEncodable & Sendable) -> String {
            binds.append(value)
            return "$\(binds.count)"
        }
        var window = query.pre ? "e.ts < u.first" : "e.ts >= u.first"
        if let ms = query.windowMs {
            window += query.pre ? " AND e.ts >= u.first - \(parameter(ms)) * interval '1 millisecond'"
                : " AND e.ts < u.first + \(parameter(ms)) * interval '1 millisecond'"
        }
        var value = query.indicator ? "1" : "count(*)", missing = "0", nonNumeric = "0"
        let source: String, events: String
        if !query.indicator, let field = query.field {
            source = try await valueTable(event: query.event, field: field)
            events = "true"
            value = "coalesce(sum(e.t::numeric) FILTER (WHERE e.kind = 'number'), 0)"
            missing = "count(*) FILTER (WHERE NOT e.present)"
            nonNumeric = "count(*) FILTER (WHERE e.present AND e.kind <> 'number')"
        } else {
            source = "remix_events"
            events = "e.type = \(parameter(query.event)) AND e.\"user\" <> ''"
        }
        return """
            SELECT e."user", \(value) AS v, count(*) AS n, \(missing) AS missing, \(nonNumeric) AS non_numeric
            FROM \(source) e JOIN remix_units u ON u."user" = e."user" AND u.experiment = $1 AND u.variation IS NOT NULL
            WHERE \(events) AND \(window)
            GROUP BY e."user"
            """
    }

    /// The temporary table of the values of `field` in `event`'s events — each event's user, time,
    /// the field as text, its JSON type and whether it is there — made once per event type and
    /// field by one read of the events, so that every experiment's and metric's question about
    /// them reads it instead of each event's `jsonb`.
    private func valueTable(event: String, field: String) async throws(AnalysisError) -> String {
        let key = "\(event.utf8.count):\(event)|\(field)"
        if let name = valueTables[key] { return name }
        let name = "remix_values_\(valueTables.count)"
        try await execute("""
            CREATE TEMPORARY TABLE \(name) AS
            SELECT "user", ts, fields ->> $2 AS t, jsonb_typeof(fields -> $2) AS kind, fields ? $2 AS present
            FROM remix_events WHERE type = $1 AND "user" <> ''
            """, Self.binds([event, field]))
        try await execute("ANALYZE \(name)")
        valueTables[key] = name
        return name
    }

    /// The capped per-unit value of the rows `alias` (a unit without any counts 0).
    private func capped(_ alias: String, _ cap: Double?, _ binds: inout [any PostgresEncodable & Sendable]) throws(AnalysisError) -> String {
        let value = "coalesce(\(alias).v, 0)"
        guard let cap else { return value }
        guard let exact = ExactDecimal.text(cap) else { throw .store("a metric's cap is not a finite number (\(cap))") }
        binds.append(exact)
        return "least(\(value), $\(binds.count)::numeric)"
    }

    func valueSums(experiment: String, x: UnitValueQuery, y: UnitValueQuery?) async throws(AnalysisError) -> [String: ValueSums] {
        var binds: [any PostgresEncodable & Sendable] = [experiment]
        let xRows = try await unitValues(x, &binds)
        var yRows: String?
        if let y { yRows = try await unitValues(y, &binds) }
        let xValue = try capped("x", x.cap, &binds)
        let yValue = try y.map { query throws(AnalysisError) in try capped("y", query.cap, &binds) } ?? "0"
        let found = try await decode(rows("""
            WITH x AS (\(xRows)), y AS (\(yRows ?? #"SELECT NULL::text AS "user", 0::numeric AS v WHERE false"#))
            SELECT u.variation, (count(*) FILTER (WHERE x.n > 0))::bigint,
                   sum(\(xValue))::float8, sum(\(xValue) * \(xValue))::float8,
                   sum(\(yValue))::float8, sum(\(yValue) * \(yValue))::float8, sum(\(xValue) * \(yValue))::float8,
                   coalesce(sum(x.missing), 0)::bigint, coalesce(sum(x.non_numeric), 0)::bigint
            FROM remix_units u LEFT JOIN x ON x."user" = u."user" LEFT JOIN y ON y."user" = u."user"
            WHERE u.experiment = $1 AND u.variation IS NOT NULL
            GROUP BY u.variation
            """, try Self.binds(binds)), (String, ValueSums).self) { row in
            let columns = try row.decode((String, Int, Double, Double, Double, Double, Double, Int, Int).self)
            var sums = ValueSums()
            sums.conversions = columns.1
            (sums.x, sums.xSquares, sums.y, sums.ySquares, sums.products) = (columns.2, columns.3, columns.4, columns.5, columns.6)
            (sums.missing, sums.nonNumeric) = (columns.7, columns.8)
            return (columns.0, sums)
        }
        return Dictionary(found, uniquingKeysWith: { first, _ in first })
    }

    /// Fills the scratch table by `select` (columns variation, user, v) unless it holds `key`'s rows.
    private func fillScratch(_ key: String, _ select: String, _ binds: [any PostgresEncodable & Sendable]) async throws(AnalysisError) {
        guard scratch != key else { return }
        scratch = nil
        try await execute("TRUNCATE remix_scratch")
        try await execute(#"INSERT INTO remix_scratch (variation, "user", v) "# + select, Self.binds(binds))
        scratch = key
    }

    /// Counts per variation in the scratch table.
    private func scratchCounts() async throws(AnalysisError) -> [String: Int] {
        let found = try await decode(rows("SELECT variation, count(*)::bigint FROM remix_scratch GROUP BY variation"),
                               (String, Int).self) { try $0.decode((String, Int).self) }
        return Dictionary(found, uniquingKeysWith: +)
    }

    /// The scratch table's values at `wanted` ranks (group, 0-based rank), each group being the
    /// variations `groups` lists.
    private func scratchRanks(groups: [[String]], wanted: [(group: Int, rank: Int)]) async throws(AnalysisError) -> [Int: [Int: Double]] {
        guard !wanted.isEmpty else { return [:] }
        let members = groups.enumerated().flatMap { group, variations in variations.map { (group, $0) } }
        let found = try await decode(rows("""
            SELECT t.g, t.r, t.v FROM (
              SELECT m.g, s.v, row_number() OVER (PARTITION BY m.g ORDER BY s.v) - 1 AS r
              FROM remix_scratch s JOIN unnest($1::text[], $2::bigint[]) AS m(variation, g) ON m.variation = s.variation) t
            JOIN unnest($3::bigint[], $4::bigint[]) AS want(g, r) ON want.g = t.g AND want.r = t.r
            """, try Self.binds([members.map(\.1), members.map { Int64($0.0) }, wanted.map { Int64($0.group) },
                             wanted.map { Int64($0.rank) }])),
            (Int, Int, Double).self) { try $0.decode((Int, Int, Double).self) }
        var values: [Int: [Int: Double]] = [:]
        for (group, rank, value) in found { values[group, default: [:]][rank] = value }
        return values
    }

    func unitValues(experiment: String, x: UnitValueQuery, groups: [[String]],
                    ranks: (Int, Int) -> [Int]) async throws(AnalysisError) -> [RankedValues<Double>] {
        var binds: [any PostgresEncodable & Sendable] = [experiment]
        let rows = try await unitValues(x, &binds)
        let value = try capped("x", x.cap, &binds)
        binds.append(Array(Set(groups.joined())))
        try await fillScratch("units \(experiment) \(x) \(groups)", """
            SELECT u.variation, u."user", (\(value))::float8
            FROM remix_units u LEFT JOIN (\(rows)) x ON x."user" = u."user"
            WHERE u.experiment = $1 AND u.variation = ANY($\(binds.count))
            """, binds)
        return try await ranked(groups: groups, counts: scratchCounts(), ranks: ranks)
    }

    /// Each group's count and its values at the ranks `ranks` asks for.
    private func ranked(groups: [[String]], counts: [String: Int],
                        ranks: (Int, Int) -> [Int]) async throws(AnalysisError) -> [RankedValues<Double>] {
        let sizes = groups.map { $0.reduce(0) { $0 + (counts[$1] ?? 0) } }
        let wanted = sizes.enumerated().flatMap { group, count in ranks(group, count).map { (group, $0) } }
        let found = try await scratchRanks(groups: groups, wanted: wanted)
        return sizes.enumerated().map { group, count in RankedValues(count: count, values: found[group] ?? [:]) }
    }

    func eventValues(experiment: String, x: UnitValueQuery,
                     ranks: (Int) -> [Int]) async throws(AnalysisError) -> [String: RankedValues<Double>] {
        try await fillEvents(experiment: experiment, x: x)
        let counts = try await scratchCounts()
        let keys = counts.keys.sorted()
        let found = try await ranked(groups: keys.map { [$0] }, counts: counts) { _, count in ranks(count) }
        return Dictionary(uniqueKeysWithValues: zip(keys, found))
    }

    /// The scratch table with the numeric values of `x`'s events.
    private func fillEvents(experiment: String, x: UnitValueQuery) async throws(AnalysisError) {
        guard let field = x.field else { throw .store("an event-level quantile needs a value field") }
        let table = try await valueTable(event: x.event, field: field)
        var binds: [any PostgresEncodable & Sendable] = [experiment]
        var window = x.pre ? "e.ts < u.first" : "e.ts >= u.first"
        if let ms = x.windowMs {
            binds.append(ms)
            window += x.pre ? " AND e.ts >= u.first - $2 * interval '1 millisecond'" : " AND e.ts < u.first + $2 * interval '1 millisecond'"
        }
        try await fillScratch("events \(experiment) \(x)", """
            SELECT u.variation, e."user", e.t::float8
            FROM \(table) e JOIN remix_units u ON u."user" = e."user" AND u.experiment = $1 AND u.variation IS NOT NULL
            WHERE e.kind = 'number' AND \(window)
            """, binds)
    }

    func clusterSums(experiment: String, x: UnitValueQuery, quantiles: [String: Double]) async throws(AnalysisError) -> [String: ClusterSums] {
        try await fillEvents(experiment: experiment, x: x)
        let keys = quantiles.keys.sorted()
        let found = try await decode(rows("""
            SELECT variation, count(*)::bigint, sum(b)::float8, sum(b * b)::float8, sum(c)::float8, sum(c * c)::float8,
                   sum(b * c)::float8
            FROM (SELECT s.variation, s."user", count(*) FILTER (WHERE s.v <= q.q)::float8 AS b, count(*)::float8 AS c
                  FROM remix_scratch s JOIN unnest($1::text[], $2::float8[]) AS q(variation, q) ON q.variation = s.variation
                  GROUP BY s.variation, s."user") t
            GROUP BY variation
            """, try Self.binds([keys, keys.map { quantiles[$0] ?? 0 }])), (String, ClusterSums).self) { row in
            let columns = try row.decode((String, Int, Double, Double, Double, Double, Double).self)
            var sums = ClusterSums()
            sums.units = columns.1
            (sums.main, sums.mainSquares, sums.count, sums.countSquares, sums.products) =
                (columns.2, columns.3, columns.4, columns.5, columns.6)
            return (columns.0, sums)
        }
        return Dictionary(found, uniquingKeysWith: { first, _ in first })
    }

    func durations(experiment: String, event: String, ranks: (Int) -> [Int]) async throws(AnalysisError) -> [String: RankedValues<Int64>] {
        try await fillScratch("durations \(experiment) \(event)", """
            SELECT u.variation, u."user", (extract(epoch FROM min(e.ts) - u.first) * 1000)::float8
            FROM remix_units u JOIN remix_events e ON e.type = $2 AND e."user" = u."user" AND e."user" <> '' AND e.ts >= u.first
            WHERE u.experiment = $1 AND u.variation IS NOT NULL
            GROUP BY u.variation, u."user", u.first
            """, [experiment, event])
        let counts = try await scratchCounts()
        let keys = counts.keys.sorted()
        let found = try await ranked(groups: keys.map { [$0] }, counts: counts) { _, count in ranks(count) }
        var result: [String: RankedValues<Int64>] = [:]
        for (key, values) in zip(keys, found) {
            result[key] = RankedValues(count: values.count, values: values.values.mapValues { Int64($0) })
        }
        return result
    }
}
