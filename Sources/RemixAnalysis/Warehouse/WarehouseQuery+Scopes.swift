/// The scopes of the warehouse query: each phase's own exposures and a dimension's slices are
/// reported under names of their own (``AggregateScope``), so every later aggregate, grouped by
/// `experiment`, covers them as it covers whole experiments.
extension WarehouseQuery {
    /// SQL of the name of `value`'s `scope` of the experiment (or scope) named by `inner`.
    func scoped(_ scope: AggregateScope, _ value: String, _ inner: String) -> String {
        let separator = "chr(31)"
        return "(\(separator) || \(dialect.literal(scope.rawValue)) || \(separator) || \(value) || \(separator) || \(inner))"
    }

    /// `un`: the units of `un0` and, again, under their slice of the dimension: the value of their
    /// earliest `session_started` event that has one (a tie: the smaller value), units of one
    /// variation ranking the values (most units first, then by value); values past
    /// ``DimensionSlicer/shown`` share the slice `(other)`, units without a value are `(none)`.
    mutating func dimensionSlices() {
        let d = dialect
        add("dv", """
            SELECT u, dim FROM (SELECT u, dim, row_number() OVER (PARTITION BY u ORDER BY ms, \(d.binary("dim"))) AS r
                                FROM ev WHERE type = 'session_started' AND u <> '' AND dim IS NOT NULL) t
            WHERE r = 1
            """)
        let name = "coalesce(d.dim, \(d.literal(DimensionSlicer.noneName)))"
        add("sl", """
            SELECT s.experiment, \(name) AS name, row_number() OVER (PARTITION BY s.experiment ORDER BY count(*) DESC, \(d.binary(name))) AS r
            FROM un0 s LEFT JOIN dv d ON d.u = s.u WHERE s.variation IS NOT NULL
            GROUP BY s.experiment, \(name)
            """)
        let slice = "CASE WHEN l.r <= \(DimensionSlicer.shown) THEN l.name ELSE \(d.literal(DimensionSlicer.otherName)) END"
        add("un", """
            SELECT ek, experiment, u, variation, first FROM un0
            UNION ALL
            SELECT s.ek, \(scoped(.slice, slice, "s.experiment")) AS experiment, s.u, s.variation, s.first
            FROM un0 s LEFT JOIN dv d ON d.u = s.u LEFT JOIN sl l ON l.experiment = s.experiment AND l.name = \(name)
            """)
        row("slice", experiment: "experiment", question: "name", rank: "r", from: "sl WHERE r <= \(DimensionSlicer.shown + 1)")
    }

    /// Per experiment with phases: units by the phase they were first exposed in, and the units
    /// exposed in several phases with how many of them saw more than one variation.
    mutating func phaseRows(_ phased: String) {
        add("xp", "SELECT experiment, u, phase, variation FROM ev WHERE \(phased)")
        row("phase_first", experiment: "experiment", rank: "p", n: "count(*)",
            from: "(SELECT experiment, u, min(phase) AS p FROM xp GROUP BY experiment, u) t GROUP BY experiment, p")
        let crossing = "(SELECT experiment, u, count(DISTINCT phase) AS np, count(DISTINCT variation) AS nv FROM xp GROUP BY experiment, u) t"
        row("phase_crossing", experiment: "experiment", part: "'units'", n: "count(*)", from: "\(crossing) WHERE np > 1 GROUP BY experiment")
        row("phase_crossing", experiment: "experiment", part: "'switching'", n: "count(*)",
            from: "\(crossing) WHERE np > 1 AND nv > 1 GROUP BY experiment")
    }
}
