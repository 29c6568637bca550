import RemixAnalysis

/// `remix analyze --sql DIALECT`: one query that computes, in a warehouse, every aggregate the
/// report of the experiments and metrics `options` name needs (the questions ``AggregateQueries``
/// asks), as the long table ``AggregateTable`` reads back. Ranks are chosen in SQL with the Swift
/// formulas (floor((n − 1)·q) in doubles); names only ever appear as quoted identifiers or
/// escaped literals.
package struct WarehouseQuery {
    let dialect: WarehouseDialect
    /// The events table, quoted.
    let table: String
    private(set) var ctes: [(name: String, sql: String)] = []
    private(set) var selects: [String] = []
    /// Per-unit value CTEs made so far, by their query's key (without cap).
    var unitValueTables: [String: String] = [:]
    /// SQL true for a unit `s` of a reported variation (a defined experiment's own, any other's).
    var slotCondition = "true"
    /// With `--by`, the cuts' step (ms): units then count only events before their `until`.
    var cutStep: Int64?

    /// The query for `options` in `dialect`, reading the flat events table `table` (a table or
    /// view, optionally schema-qualified: ``WarehouseDialect/table(_:)``); nil when `table` is no such name.
    package static func sql(_ options: AnalysisOptions, dialect: WarehouseDialect, table: String) -> String? {
        guard let table = dialect.table(table) else { return nil }
        var query = WarehouseQuery(dialect: dialect, table: table)
        query.build(options)
        return query.text
    }

    /// The `question` of a value metric's sums (x and y by their keys).
    static func sumsKey(x: UnitValueQuery, y: UnitValueQuery?) -> String { x.key + " & " + (y?.key ?? "-") }

    private mutating func build(_ options: AnalysisOptions) {
        let d = dialect
        let selected = options.experiment.map { " AND experiment = \(d.literal($0))" } ?? ""
        let dimension = options.dimension.map { ", \(d.attribute($0)) AS dim" } ?? ""
        // A table has a `phase` column only when some exposure has one: read where phases are expected.
        let readsPhases = options.phaseRequested || options.definitions.values.contains { !$0.phases.isEmpty }
        let phase = readsPhases ? "CAST(\(d.integer("phase")) AS BIGINT)" : "CAST(NULL AS BIGINT)"
        add("ev", """
            SELECT \(d.millis) AS ms, \(d.text("type")) AS type, \(d.text("user")) AS u,
                   \(d.text("experiment")) AS experiment, \(d.text("variation")) AS variation,
                   \(d.integer("variationId")) AS vid, \(d.boolean("inExperiment")) AS in_experiment,
                   \(d.boolean("hashUsed")) AS hash_used, \(d.text("feature")) AS feature, \(d.text("screen")) AS screen,
                   \(phase) AS phase\(dimension)
            FROM \(table)
            """)
        let exposed = "type = 'exposure' AND in_experiment AND hash_used AND experiment <> '' AND variation <> '' AND u <> ''\(selected)"
        units(exposed: exposed, by: options.by, phases: readsPhases, dimension: options.dimension != nil)
        row("lines", n: "count(*)", from: table)
        row("variation", experiment: "experiment", variation: "variation", n: "min(vid)", value: "coalesce(min(feature), '')",
            from: "ex GROUP BY experiment, variation")
        row("units", experiment: "experiment", variation: "coalesce(variation, '')", n: "count(*)", from: "un GROUP BY experiment, variation")
        row("units", experiment: "experiment", variation: "variation", part: "'first'", n: "min(first)", from: "su GROUP BY experiment, variation")
        row("units", experiment: "experiment", variation: "variation", part: "'last'", n: "max(first)", from: "su GROUP BY experiment, variation")
        screens()
        let defined = options.definitions.keys.sorted()
        if !defined.isEmpty {
            let others = "s.ek NOT IN (\(defined.map(d.literal).joined(separator: ", ")))"
            slotCondition = "(" + ([others] + defined.compactMap { key in
                options.definitions[key].map { definition in
                    "(s.ek = \(d.literal(key)) AND s.variation IN (\(definition.variations.map { d.literal($0.key) }.joined(separator: ", "))))"
                }
            }).joined(separator: " OR ") + ")"
        }
        let tracked = Analyzer.trackedMetrics(options)
        var metrics: [MetricDefinition] = []
        var keys = options.definitions.keys.sorted()
        if let wanted = options.experiment { keys = keys.filter { $0 == wanted } }
        for name in keys.map({ Analyzer.metrics(of: options.definitions[$0], options: options, tracked: tracked) }).joined()
            + Analyzer.metrics(of: nil, options: options, tracked: tracked) {
            let definition = options.catalog.resolve(name)
            if !metrics.contains(where: { $0 == definition }) { metrics.append(definition) }
        }
        var conversions: [String] = []
        for metric in metrics where metric.isSimpleProportion {
            if let event = metric.event, !conversions.contains(event) { conversions.append(event) }
        }
        conversionRows(conversions)
        durationRows(Analyzer.timedMetrics(options, tracked: tracked).sorted())
        var asked: Set<String> = []
        for metric in metrics where !metric.isSimpleProportion {
            valueRows(metric, catalog: options.catalog, asked: &asked)
        }
    }

    /// Screens shown to units at or after their first exposure, by name (the text before `(`);
    /// names ranked by when first seen, those past ``ScreenTally/limit`` counted as other.
    private mutating func screens() {
        if let step = cutStep { return cutScreens(step: step) }
        add("sc", """
            SELECT u, split_part(screen, '(', 1) AS name, max(ms) AS last, min(ms) AS seen, count(*) AS events
            FROM ev WHERE type = 'screen' AND coalesce(screen, '') <> '' AND u <> '' GROUP BY u, split_part(screen, '(', 1)
            """)
        add("sn", "SELECT name, sum(events) AS events, row_number() OVER (ORDER BY min(seen), name) AS r FROM sc GROUP BY name")
        row("screen_events", question: "name", rank: "r", n: "events", from: "sn")
        let joined = "su s JOIN sc c ON c.u = s.u JOIN sn ON sn.name = c.name WHERE c.last >= s.first AND sn.r"
        row("screen", experiment: "s.experiment", variation: "s.variation", question: "c.name", n: "count(DISTINCT s.u)",
            from: "\(joined) <= \(ScreenTally.limit) GROUP BY s.experiment, s.variation, c.name")
        row("screen", experiment: "s.experiment", variation: "s.variation", part: "'other'", n: "count(DISTINCT s.u)",
            from: "\(joined) > \(ScreenTally.limit) GROUP BY s.experiment, s.variation")
    }

    /// The funnel with cuts: names and their events before each cut (counted by whole steps, as
    /// cuts fall on them), units shown each before their cut.
    private mutating func cutScreens(step: Int64) {
        add("scr", "SELECT u, split_part(screen, '(', 1) AS name, ms FROM ev WHERE type = 'screen' AND coalesce(screen, '') <> '' AND u <> ''")
        add("sb", "SELECT name, ms - ms % \(step) AS b, min(ms) AS seen, count(*) AS events FROM scr GROUP BY name, ms - ms % \(step)")
        add("sn", """
            SELECT c.until, b.name, sum(b.events) AS events, row_number() OVER (PARTITION BY c.until ORDER BY min(b.seen), b.name) AS r
            FROM sb b JOIN \(scopes) c ON b.b < c.until GROUP BY c.until, b.name
            """)
        let cut = "CASE WHEN until = \(Self.untilAll) THEN '' ELSE \(scoped(.cut, dialect.asText("until"), "''")) END"
        row("screen_events", experiment: cut, question: "name", rank: "r", n: "events", from: "sn")
        let joined = "su s JOIN scr c ON c.u = s.u AND c.ms >= s.first AND c.ms < s.until JOIN sn ON sn.until = s.until AND sn.name = c.name WHERE sn.r"
        row("screen", experiment: "s.experiment", variation: "s.variation", question: "c.name", n: "count(DISTINCT s.u)",
            from: "\(joined) <= \(ScreenTally.limit) GROUP BY s.experiment, s.variation, c.name")
        row("screen", experiment: "s.experiment", variation: "s.variation", part: "'other'", n: "count(DISTINCT s.u)",
            from: "\(joined) > \(ScreenTally.limit) GROUP BY s.experiment, s.variation")
    }

    /// Units with each of `events` at or after their first exposure (one pass over the events of
    /// those types; `question` the type).
    private mutating func conversionRows(_ events: [String]) {
        guard !events.isEmpty else { return }
        let types = "type IN (\(events.map(dialect.literal).joined(separator: ", "))) AND u <> ''"
        if cutStep != nil {
            row("conversions", experiment: "s.experiment", variation: "s.variation", question: "e.type", n: "count(DISTINCT s.u)",
                from: "su s JOIN (SELECT u, type, ms FROM ev WHERE \(types)) e ON e.u = s.u AND e.ms >= s.first AND e.ms < s.until "
                    + "GROUP BY s.experiment, s.variation, e.type")
            return
        }
        add("la", "SELECT u, type, max(ms) AS last FROM ev WHERE \(types) GROUP BY u, type")
        row("conversions", experiment: "s.experiment", variation: "s.variation", question: "e.type", n: "count(*)",
            from: "su s JOIN la e ON e.u = s.u WHERE e.last >= s.first GROUP BY s.experiment, s.variation, e.type")
    }

    /// Times from first exposure to the first of each of `events` at or after it: their number and
    /// the values at the ranks the median and p90 read (one pass; `question` the type).
    private mutating func durationRows(_ events: [String]) {
        guard !events.isEmpty else { return }
        add("du", """
            SELECT s.experiment, s.variation, e.type AS q, min(e.ms) - s.first AS v
            FROM su s JOIN ev e ON e.u = s.u AND e.type IN (\(events.map(dialect.literal).joined(separator: ", ")))
                 AND e.ms >= s.first AND e.ms < s.until
            GROUP BY s.experiment, s.variation, e.type, s.u, s.first
            """)
        rankedRows("durations", question: "q", from: "du", partition: "experiment, variation, q",
                   wanted: [0.5, 0.9].map { rankCondition(level: dialect.double($0)) }.joined(separator: " OR "))
    }

    /// Rows of `section`: the count of `from`'s values `v` per partition and the values at the
    /// ranks `wanted` (SQL over `r`, the 0-based rank, and `c`, the count) selects.
    @discardableResult
    mutating func rankedRows(_ section: String, question: String, from: String, partition: String, variation: String = "variation",
                             wanted: String) -> String {
        let ranked = "rk\(ctes.count)"
        add(ranked, """
            SELECT \(partition), v, row_number() OVER (PARTITION BY \(partition) ORDER BY v) - 1 AS r,
                   count(*) OVER (PARTITION BY \(partition)) AS c
            FROM \(from)
            """)
        // One pass: each partition's first value gives its count row, the wanted ones their rank rows.
        let parts = "(SELECT 'count' AS part UNION ALL SELECT 'rank' AS part) p"
        row(section, experiment: "experiment", variation: variation, question: question, part: "p.part",
            rank: "CASE WHEN p.part = 'rank' THEN r END", n: "CASE WHEN p.part = 'count' THEN c END",
            value: "CASE WHEN p.part = 'rank' THEN \(dialect.asText("v")) END",
            from: "\(ranked) CROSS JOIN \(parts) WHERE (p.part = 'count' AND r = 0) OR (p.part = 'rank' AND (\(wanted)))")
        return ranked
    }

    /// SQL true for the two ranks PERCENTILE_CONT at `level` (an SQL double) reads of `c` values.
    func rankCondition(level: String) -> String {
        let below = "floor(CAST(c - 1 AS \(dialect.doubleType)) * \(level))"
        return "(r = \(below) OR r = least(\(below) + 1, c - 1))"
    }

    /// Adds a CTE.
    mutating func add(_ name: String, _ sql: String) {
        ctes.append((name, sql))
    }

    /// Adds a SELECT of one section's rows (every column an SQL expression).
    mutating func row(_ section: String, experiment: String = "''", variation: String = "''", question: String = "''",
                      part: String = "''", rank: String? = nil, n: String? = nil, value: String? = nil, from: String) {
        let d = dialect
        let columns = [d.literal(section), "CAST(\(experiment) AS \(d.textType))", "CAST(\(variation) AS \(d.textType))",
                       "CAST(\(question) AS \(d.textType))", "CAST(\(part) AS \(d.textType))",
                       "CAST(\(rank ?? "NULL") AS BIGINT)", "CAST(\(n ?? "NULL") AS BIGINT)", "CAST(\(value ?? "NULL") AS \(d.textType))"]
        let names = AggregateTable.columns
        selects.append("SELECT " + zip(columns, names).map { "\($0) AS \($1)" }.joined(separator: ", ") + " FROM " + from)
    }

    /// Adds one SELECT of a section's rows per variation of `from` (a CTE with columns experiment
    /// and variation): a row per part, `counts` (part, column) into `n`, `values` (part, column)
    /// as text into `value` — one pass over `from`, where a SELECT per part would compute it again
    /// in an engine that does not keep a CTE's result (Spark).
    mutating func rows(_ section: String, question: String, counts: [(String, String)], values: [(String, String)], from: String) {
        let d = dialect
        let parts = "(" + (counts + values).map { "SELECT \(d.literal($0.0)) AS part" }.joined(separator: " UNION ALL ") + ") p"
        func choice(_ pairs: [(String, String)], _ convert: (String) -> String) -> String? {
            pairs.isEmpty ? nil : "CASE p.part " + pairs.map { "WHEN \(d.literal($0.0)) THEN \(convert($0.1))" }.joined(separator: " ") + " END"
        }
        row(section, experiment: "experiment", variation: "variation", question: question, part: "p.part",
            n: choice(counts) { $0 }, value: choice(values, d.asText), from: "\(from) CROSS JOIN \(parts)")
    }

    /// The whole query.
    var text: String {
        "WITH " + ctes.map { "\($0.name) AS (\n\($0.sql)\n)" }.joined(separator: ",\n")
            + "\n" + selects.joined(separator: "\nUNION ALL\n") + "\n"
    }
}
