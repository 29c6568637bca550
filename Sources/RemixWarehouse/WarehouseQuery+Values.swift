import RemixAnalysis
import RemixFormats
import RemixStatistics

/// The value metrics' SQL: per-unit values summed exactly as decimals, capped, summed per
/// variation (as ``AggregatedFigures`` asks of a store), and the order statistics quantiles and
/// percentile caps read.
extension WarehouseQuery {
    /// The rows one metric that is not a plain proportion needs; `asked` holds the questions
    /// already answered.
    mutating func valueRows(_ metric: MetricDefinition, catalog: MetricCatalog, asked: inout Set<String>) {
        var first: MetricDefinition?, second: MetricDefinition?
        if metric.kind == .ratio {
            first = metric.numerator.flatMap { catalog[$0] }
            second = metric.denominator.flatMap { catalog[$0] }
        } else {
            first = metric
        }
        guard let part = first else { return }
        var x = AggregatedFigures.query(part), y = second.map { AggregatedFigures.query($0) }
        let xCap = capExpression(x, level: part.capPercentile, asked: &asked)
        var yCap = y.map { capExpression($0, level: second?.capPercentile, asked: &asked) } ?? nil
        if metric.cuped {
            var pre = AggregatedFigures.query(metric, pre: true)
            pre.cap = x.cap
            pre.capSource = x.capSource
            y = pre
            yCap = xCap
        }
        let question = Self.sumsKey(x: x, y: y)
        if asked.insert("sums " + question).inserted {
            let split = part.capPercentile != nil || (metric.kind == .ratio && second?.capPercentile != nil)
            sumRows(question: question, x: (unitTable(x), xCap), y: y.map { (unitTable($0), yCap) }, split: split)
        }
        if metric.kind == .quantile {
            quantileRows(metric, x: x, cap: xCap, asked: &asked)
        }
    }

    /// The SQL of `query`'s cap for the unit `s` (an exact decimal, or the percentile over the
    /// experiment's units from the CTE that computes it), nil without one.
    private mutating func capExpression(_ query: UnitValueQuery, level: Double?, asked: inout Set<String>) -> String? {
        if let level, let source = query.capSource {
            return percentileCap(query, level: level, source: source, asked: &asked)
        }
        guard let cap = query.cap, let exact = ExactDecimal.text(cap) else { return nil }
        return dialect.toDecimal(dialect.literal(exact))
    }

    /// The name of the CTE of `query`'s uncapped per-unit values (one per query): columns
    /// experiment, variation, u, v (exact), n (events), missing, non_numeric.
    mutating func unitTable(_ query: UnitValueQuery) -> String {
        var uncapped = query
        uncapped.cap = nil
        uncapped.capSource = nil
        if let name = unitValueTables[uncapped.key] { return name }
        let name = "pv\(unitValueTables.count)"
        let d = dialect
        var value = d.toDecimal("count(*)"), missing = "0", nonNumeric = "0", fields = ""
        if query.indicator {
            value = d.toDecimal("1")
        } else if let field = query.field {
            fields = ", \(d.exact(field)) AS f, CASE WHEN \(d.has(field)) THEN 1 ELSE 0 END AS has_f, "
                + "CASE WHEN \(d.isNumber(field)) THEN 1 ELSE 0 END AS number_f"
            value = "coalesce(sum(e.f), \(d.toDecimal("0")))"
            missing = "sum(1 - e.has_f)"
            nonNumeric = "sum(e.has_f - e.number_f)"
        }
        var window = query.pre ? "e.ms < s.first" : "e.ms >= s.first AND e.ms < s.until"
        if let ms = query.windowMs {
            window += query.pre ? " AND e.ms >= s.first - \(ms)" : " AND e.ms < s.first + \(ms)"
        }
        add(name, """
            SELECT s.experiment, s.variation, s.u, \(value) AS v, count(*) AS n, \(missing) AS missing, \(nonNumeric) AS non_numeric
            FROM su s JOIN (SELECT \(d.millis) AS ms, \(d.text("user")) AS u\(fields) FROM \(table)
                            WHERE \(d.text("type")) = \(d.literal(query.event))) e ON e.u = s.u
            WHERE \(window)
            GROUP BY s.experiment, s.variation, s.u
            """)
        unitValueTables[uncapped.key] = name
        return name
    }

    /// Per variation: units with x's events, the exact sums of x, x², y, y², x·y over its
    /// units (without events: 0), and x's events without a numeric field.
    private mutating func sumRows(question: String, x: (table: String, cap: String?), y: (table: String, cap: String?)?,
                                  split: Bool) {
        let d = dialect
        if split {
            splitSumRows(question: question, x: x, y: y)
            return
        }
        func capped(_ alias: String, _ cap: String?) -> String {
            let value = "coalesce(\(alias).v, \(d.toDecimal("0")))"
            return cap.map { "least(\(value), \($0))" } ?? value
        }
        let xv = capped("x", x.cap), yv = y.map { capped("y", $0.cap) } ?? d.toDecimal("0")
        let name = "sm\(ctes.count)"
        let yJoin = y.map { " LEFT JOIN \($0.table) y ON y.experiment = s.experiment AND y.u = s.u" } ?? ""
        add(name, """
            SELECT s.experiment, s.variation, sum(CASE WHEN x.n > 0 THEN 1 ELSE 0 END) AS conversions,
                   sum(\(xv)) AS sx, sum(\(xv) * \(xv)) AS sxx, sum(\(yv)) AS sy, sum(\(yv) * \(yv)) AS syy, sum(\(xv) * \(yv)) AS sxy,
                   coalesce(sum(x.missing), 0) AS missing, coalesce(sum(x.non_numeric), 0) AS non_numeric
            FROM su s LEFT JOIN \(x.table) x ON x.experiment = s.experiment AND x.u = s.u\(yJoin)
            GROUP BY s.experiment, s.variation
            """)
        let counts = ["conversions", "missing", "non_numeric"].map { ($0, $0) }
        let sums = [("x", "sx"), ("xx", "sxx"), ("y", "sy"), ("yy", "syy"), ("xy", "sxy")]
        rows("sums", question: d.literal(question), counts: counts, values: sums, from: name)
    }
}

/// Order statistics: percentile caps and unit- and event-level quantiles.
extension WarehouseQuery {
    /// The cap at the `level` percentile of `query`'s uncapped per-unit values over the units of
    /// every reported variation together (PERCENTILE_CONT, as ``AggregatedFigures`` computes it):
    /// its ranks as rows, and an SQL expression of its value for the unit `s`.
    fileprivate mutating func percentileCap(_ query: UnitValueQuery, level: Double, source: String,
                                            asked: inout Set<String>) -> String {
        var uncapped = query
        uncapped.cap = nil
        uncapped.capSource = nil
        let values = unitTable(uncapped)
        let name = "cv\(ctes.count)"
        add(name, """
            SELECT s.experiment, \(dialect.toDouble("coalesce(x.v, \(dialect.toDecimal("0")))")) AS v
            FROM su s LEFT JOIN \(values) x ON x.experiment = s.experiment AND x.u = s.u WHERE \(slotCondition)
            """)
        let ranked = rankedRows("cap_values", question: dialect.literal(uncapped.key), from: name, partition: "experiment",
                                variation: "'*'", wanted: rankCondition(level: dialect.double(level)))
        let cap = interpolated(ranked, partition: "experiment", level: dialect.double(level))
        return "(SELECT max(q) FROM \(cap) WHERE \(cap).experiment = s.experiment)"
    }

    /// A CTE of PERCENTILE_CONT at `level` per partition of the ranked CTE `ranked` (column q),
    /// interpolated as ``QuantileSample/percentile(count:_:rank:)`` does, in doubles.
    private mutating func interpolated(_ ranked: String, partition: String, level: String) -> String {
        let d = dialect.doubleType
        let position = "CAST(c - 1 AS \(d)) * \(level)"
        let name = "pc\(ctes.count)"
        add(name, """
            SELECT \(partition), CASE WHEN f >= 0.5 THEN b - (b - a) * (CAST(1 AS \(d)) - f) ELSE a + (b - a) * f END AS q
            FROM (SELECT \(partition), \(position) - floor(\(position)) AS f,
                         max(CASE WHEN r = floor(\(position)) THEN v END) AS a,
                         max(CASE WHEN r = least(floor(\(position)) + 1, c - 1) THEN v END) AS b
                  FROM \(ranked) GROUP BY \(partition), c) t
            """)
        return name
    }

    /// SQL true for the ranks ``QuantileSample/ranks(count:level:)`` reads: the quantile's and its
    /// bounds' at level ∓ z·√(level (1 − level) / n*), n* the largest grid size below `c`.
    private func quantileRankCondition(level: Double) -> String {
        let d = dialect
        let grid = QuantileSample.nStarGrid.reversed().map { "WHEN c > \($0) THEN \($0)" }.joined(separator: " ")
        let nStar = "CAST(CASE \(grid) ELSE \(QuantileSample.nStarGrid[0]) END AS \(d.doubleType))"
        let l = d.double(level)
        let spread = "\(d.double(QuantileSample.multiplier)) * sqrt(\(l) * (CAST(1 AS \(d.doubleType)) - \(l)) / \(nStar))"
        return [l, "greatest(\(l) - \(spread), \(d.double(0.00000001)))", "least(\(l) + \(spread), \(d.double(0.99999999)))"]
            .map { rankCondition(level: $0) }.joined(separator: " OR ")
    }

    /// A quantile metric's order statistics: unit level, the capped per-unit values' per variation;
    /// event level, the event values' per variation and the clusters' sums at each variation's quantile.
    fileprivate mutating func quantileRows(_ metric: MetricDefinition, x: UnitValueQuery, cap: String?, asked: inout Set<String>) {
        let level = metric.quantile ?? 0.5
        let d = dialect
        let question = d.literal(x.key)
        if metric.level == .unit {
            guard asked.insert("unit \(x.key) \(level)").inserted else { return }
            let value = "coalesce(x.v, \(d.toDecimal("0")))"
            let name = "uv\(ctes.count)"
            // A percentile cap is a double: the value is capped as a double, as Swift does.
            let capped = cap.map { metric.capPercentile != nil ? "least(\(d.toDouble(value)), \($0))" : d.toDouble("least(\(value), \($0))") }
            add(name, """
                SELECT s.experiment, s.variation, \(capped ?? d.toDouble(value)) AS v
                FROM su s LEFT JOIN \(unitTable(x)) x ON x.experiment = s.experiment AND x.u = s.u
                """)
            rankedRows("unit_values", question: question, from: name, partition: "experiment, variation",
                       wanted: quantileRankCondition(level: level))
            return
        }
        guard let field = x.field, asked.insert("event \(x.key) \(level)").inserted else { return }
        var window = x.pre ? "e.ms < s.first" : "e.ms >= s.first AND e.ms < s.until"
        if let ms = x.windowMs { window += x.pre ? " AND e.ms >= s.first - \(ms)" : " AND e.ms < s.first + \(ms)" }
        let events = "ev\(ctes.count)"
        add(events, """
            SELECT s.experiment, s.variation, s.u, e.v
            FROM su s JOIN (SELECT \(d.millis) AS ms, \(d.text("user")) AS u, \(d.eventDouble(field)) AS v FROM \(table)
                            WHERE \(d.text("type")) = \(d.literal(x.event)) AND \(d.isNumber(field))) e ON e.u = s.u
            WHERE \(window)
            """)
        let ranked = rankedRows("event_values", question: question, from: events, partition: "experiment, variation",
                                wanted: quantileRankCondition(level: level))
        let quantile = interpolated(ranked, partition: "experiment, variation", level: d.double(level))
        let clusters = "cl\(ctes.count)"
        add(clusters, """
            SELECT experiment, variation, count(*) AS units, sum(b) AS main, sum(b * b) AS main_squares, sum(c) AS count,
                   sum(c * c) AS count_squares, sum(b * c) AS products
            FROM (SELECT e.experiment, e.variation, e.u, sum(CASE WHEN e.v <= q.q THEN 1 ELSE 0 END) AS b, count(*) AS c
                  FROM \(events) e JOIN \(quantile) q ON q.experiment = e.experiment AND q.variation = e.variation
                  GROUP BY e.experiment, e.variation, e.u) t
            GROUP BY experiment, variation
            """)
        rows("clusters", question: question, counts: [("units", "units")],
             values: ["main", "main_squares", "count", "count_squares", "products"].map { ($0, $0) }, from: clusters)
    }
}

/// Sums under a percentile cap, which is a double with more digits than a warehouse decimal holds.
extension WarehouseQuery {
    /// Per variation, split at the caps: sums over the units at or below them (x, x², y, y², x·y),
    /// the units above them (kx, ky, both kxy) and the other part's sums over the units above one
    /// cap only (xa_y, ya_x); ``TableAggregates`` adds the caps' share exactly.
    fileprivate mutating func splitSumRows(question: String, x: (table: String, cap: String?), y: (table: String, cap: String?)?) {
        let d = dialect
        let zero = d.toDecimal("0")
        func parts(_ alias: String, _ cap: String?) -> (below: String, above: String) {
            let raw = "coalesce(\(alias).v, \(zero))"
            guard let cap else { return (raw, "0") }
            let above = "\(d.toDouble(raw)) > \(cap)"
            return ("CASE WHEN \(above) THEN \(zero) ELSE \(raw) END", "CASE WHEN \(above) THEN 1 ELSE 0 END")
        }
        let (xb, xa) = parts("x", x.cap)
        let (yb, ya) = y.map { parts("y", $0.cap) } ?? (zero, "0")
        let name = "sm\(ctes.count)"
        let yJoin = y.map { " LEFT JOIN \($0.table) y ON y.experiment = s.experiment AND y.u = s.u" } ?? ""
        add(name, """
            SELECT s.experiment, s.variation, sum(CASE WHEN x.n > 0 THEN 1 ELSE 0 END) AS conversions,
                   sum(\(xb)) AS sx, sum(\(xb) * \(xb)) AS sxx, sum(\(yb)) AS sy, sum(\(yb) * \(yb)) AS syy, sum(\(xb) * \(yb)) AS sxy,
                   sum(\(xa)) AS kx, sum(\(ya)) AS ky, sum(\(xa) * \(ya)) AS kxy, sum(\(xa) * \(yb)) AS xa_y, sum(\(ya) * \(xb)) AS ya_x,
                   coalesce(sum(x.missing), 0) AS missing, coalesce(sum(x.non_numeric), 0) AS non_numeric
            FROM su s LEFT JOIN \(x.table) x ON x.experiment = s.experiment AND x.u = s.u\(yJoin)
            GROUP BY s.experiment, s.variation
            """)
        let counts = ["conversions", "missing", "non_numeric", "kx", "ky", "kxy"].map { ($0, $0) }
        let sums = [("x", "sx"), ("xx", "sxx"), ("y", "sy"), ("yy", "syy"), ("xy", "sxy"), ("xa_y", "xa_y"), ("ya_x", "ya_x")]
        rows("sums", question: d.literal(question), counts: counts, values: sums, from: name)
    }
}
