import RemixAnalysis

/// The scopes of the warehouse query: each phase's own exposures, a dimension's slices and the
/// cuts of `--by` are reported under names of their own (``AggregateScope``), so every later
/// aggregate, grouped by `experiment`, covers them as it covers whole experiments. Units carry
/// `until`: a cut's units count only events before it (the whole report's: ``untilAll``).
extension WarehouseQuery {
    /// `until` of the whole report's units.
    static let untilAll = "CAST(9223372036854775807 AS BIGINT)"

    /// SQL of the name of `value`'s `scope` of the experiment (or scope) named by `inner`.
    func scoped(_ scope: AggregateScope, _ value: String, _ inner: String) -> String {
        let separator = "chr(31)"
        return "(\(separator) || \(dialect.literal(scope.rawValue)) || \(separator) || \(value) || \(separator) || \(inner))"
    }

    /// The units CTEs: `ex` (a unit's exposures to one variation), `un` (units, `variation` NULL
    /// when exposed to several) and `su` (units of one variation), each with `ek` (the experiment's
    /// key), `experiment` (what is reported: the experiment or a scope of it) and `until`.
    mutating func units(exposed: String, by bucket: TimeBucket?, phases: Bool, dimension: Bool) {
        let d = dialect
        var source = "SELECT experiment, variation, u, ms, vid, feature, phase, \(Self.untilAll) AS until FROM ev WHERE \(exposed)"
        if let bucket {
            cutRows(exposed: exposed, step: bucket.milliseconds)
            source += "\nUNION ALL\nSELECT e.experiment, e.variation, e.u, e.ms, e.vid, e.feature, e.phase, c.until FROM ev e JOIN cuts c ON e.ms < c.until WHERE \(exposed)"
            cutStep = bucket.milliseconds
        }
        add("evx", source)
        let name = "CASE WHEN until = \(Self.untilAll) THEN experiment ELSE \(scoped(.cut, d.asText("until"), "experiment")) END"
        let phased = "phase BETWEEN \(PhaseKey.numbers.lowerBound) AND \(PhaseKey.numbers.upperBound)"
        add("ex", """
            SELECT experiment AS ek, \(name) AS experiment, until, variation, u, min(ms) AS first, min(vid) AS vid,
                   min(NULLIF(feature, '')) AS feature
            FROM evx GROUP BY experiment, until, variation, u
            UNION ALL
            SELECT experiment AS ek, \(scoped(.phase, d.asText("phase"), name)) AS experiment, until, variation, u,
                   min(ms) AS first, min(vid) AS vid, min(NULLIF(feature, '')) AS feature
            FROM evx WHERE \(phased)
            GROUP BY experiment, until, phase, variation, u
            """)
        add("un0", """
            SELECT ek, experiment, until, u, CASE WHEN count(*) = 1 THEN min(variation) END AS variation, min(first) AS first
            FROM ex GROUP BY ek, experiment, until, u
            """)
        if dimension { dimensionSlices() } else { add("un", "SELECT ek, experiment, until, u, variation, first FROM un0") }
        add("su", "SELECT ek, experiment, until, u, variation, first FROM un WHERE variation IS NOT NULL")
        if phases { phaseRows(name: name, phased: phased) }
    }

    /// `cuts`: every whole `step` (ms) after the first exposure up to the end of the log, as
    /// ``Analyzer/addOverTime`` cuts a log (none past ``Analyzer/maximumCuts``), with rows of their
    /// number and the last cut (the whole report's).
    private mutating func cutRows(exposed: String, step: Int64) {
        add("bounds", """
            SELECT f - f % \(step) + \(step) AS first, l - l % \(step) + \(step) AS last
            FROM (SELECT (SELECT min(ms) FROM ev WHERE \(exposed)) AS f,
                         (SELECT max(ms) FROM ev WHERE type IS NOT NULL AND u IS NOT NULL) AS l) t
            """)
        add("cuts", dialect.series("first", "last - \(step)", step: step, as: "until",
                                   from: "bounds WHERE last - \(step) >= first AND (last - first) / \(step) < \(Analyzer.maximumCuts)"))
        row("cut", part: "'count'", n: "(last - first) / \(step) + 1", from: "bounds WHERE first IS NOT NULL")
        row("cut", part: "'last'", n: "last", from: "bounds WHERE first IS NOT NULL")
        row("cut", part: "'at'", n: "until", from: "cuts")
    }

    /// The report's and each cut's `until` (the whole report's as ``untilAll``).
    var scopes: String {
        cutStep != nil ? "(SELECT until FROM cuts UNION ALL SELECT \(Self.untilAll) AS until)" : "(SELECT \(Self.untilAll) AS until)"
    }

    /// `un`: the units of `un0` and, again, under their slice of the dimension: the value of their
    /// earliest `session_started` event that has one (a tie: the smaller value), units of one
    /// variation ranking the values (most units first, then by value); values past
    /// ``DimensionSlicer/shown`` share the slice `(other)`, units without a value are `(none)`.
    /// Cuts are not sliced.
    private mutating func dimensionSlices() {
        let d = dialect
        add("dv", """
            SELECT u, dim FROM (SELECT u, dim, row_number() OVER (PARTITION BY u ORDER BY ms, \(d.binary("dim"))) AS r
                                FROM ev WHERE type = 'session_started' AND u <> '' AND dim IS NOT NULL) t
            WHERE r = 1
            """)
        let name = "coalesce(d.dim, \(d.literal(DimensionSlicer.noneName)))"
        let whole = "s.until = \(Self.untilAll)"
        add("sl", """
            SELECT s.experiment, \(name) AS name, row_number() OVER (PARTITION BY s.experiment ORDER BY count(*) DESC, \(d.binary(name))) AS r
            FROM un0 s LEFT JOIN dv d ON d.u = s.u WHERE s.variation IS NOT NULL AND \(whole)
            GROUP BY s.experiment, \(name)
            """)
        let slice = "CASE WHEN l.r <= \(DimensionSlicer.shown) THEN l.name ELSE \(d.literal(DimensionSlicer.otherName)) END"
        add("un", """
            SELECT ek, experiment, until, u, variation, first FROM un0
            UNION ALL
            SELECT s.ek, \(scoped(.slice, slice, "s.experiment")) AS experiment, s.until, s.u, s.variation, s.first
            FROM un0 s LEFT JOIN dv d ON d.u = s.u LEFT JOIN sl l ON l.experiment = s.experiment AND l.name = \(name)
            WHERE \(whole)
            """)
        row("slice", experiment: "experiment", question: "name", rank: "r", from: "sl WHERE r <= \(DimensionSlicer.shown + 1)")
    }

    /// Per experiment (and cut) with phases: units by the phase they were first exposed in, and
    /// the units exposed in several phases with how many of them saw more than one variation.
    private mutating func phaseRows(name: String, phased: String) {
        add("xp", "SELECT \(name) AS experiment, u, phase, variation FROM evx WHERE \(phased)")
        row("phase_first", experiment: "experiment", rank: "p", n: "count(*)",
            from: "(SELECT experiment, u, min(phase) AS p FROM xp GROUP BY experiment, u) t GROUP BY experiment, p")
        let crossing = "(SELECT experiment, u, count(DISTINCT phase) AS np, count(DISTINCT variation) AS nv FROM xp GROUP BY experiment, u) t"
        row("phase_crossing", experiment: "experiment", part: "'units'", n: "count(*)", from: "\(crossing) WHERE np > 1 GROUP BY experiment")
        row("phase_crossing", experiment: "experiment", part: "'switching'", n: "count(*)",
            from: "\(crossing) WHERE np > 1 AND nv > 1 GROUP BY experiment")
    }
}
