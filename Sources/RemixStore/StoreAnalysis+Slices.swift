import PostgresNIO
import RemixAnalysis

/// `--dimension` on the store, as a log's analysis slices (``DimensionSlicer``): a unit's value is
/// that of its earliest `session_started` event with one (on a tie, the smaller value by bytes) —
/// a top-level field such as `persona`, else one of its `attributes`; in each experiment (and
/// phase) the values with most units of one variation get a slice each (then by value), the rest
/// share `(other)`, units without a value are `(none)`. Each slice's units are rows of
/// `remix_units` under the slice's scope name (``AggregateScope/slice``), so every question about
/// units answers for slices as for whole experiments.
extension StoreAggregates {
    /// The SQL of the slice's scope name of a unit `u` of `remix_units` ranked `l.r` in `l.name`.
    private static let sliceScope = """
        chr(31) || 'slice' || chr(31) || CASE WHEN l.r <= \(DimensionSlicer.shown) THEN l.name ELSE '\(DimensionSlicer.otherName)' END \
        || chr(31) || u.experiment
        """

    /// Reads each user's value of the dimension `scopes` names into `remix_dimension`, ranks each
    /// experiment's values in `remix_slices`, and adds every unit again under its slice to
    /// `remix_units`; false (and nothing made) without a dimension.
    static func fillSliceUnits(_ store: PostgresStore, _ scopes: StoreScopes) async throws(AnalysisError) -> Bool {
        guard let name = scopes.dimension else { return false }
        let value = DimensionSlicer.isTopLevelField(name) ? "fields -> $1" : "fields -> 'attributes' -> $1"
        // As a log's value: a string's text, a number's or a boolean's JSON text, `null` for null.
        let text = "CASE WHEN jsonb_typeof(\(value)) IN ('object', 'array') THEN NULL WHEN jsonb_typeof(\(value)) = 'null' "
            + "THEN 'null' ELSE \(value) #>> '{}' END"
        try await execute(store, """
            CREATE TEMPORARY TABLE remix_dimension AS
            SELECT "user", value FROM (
              SELECT "user", value, row_number() OVER (PARTITION BY "user" ORDER BY ts, value COLLATE "C") AS r
              FROM (SELECT "user", ts, \(text) AS value FROM remix_events WHERE type = 'session_started' AND "user" <> '') s
              WHERE value IS NOT NULL) t
            WHERE r = 1
            """, binds([name]))
        try await execute(store, #"CREATE INDEX ON remix_dimension ("user")"#)
        let named = "coalesce(d.value, '\(DimensionSlicer.noneName)')"
        try await execute(store, """
            CREATE TEMPORARY TABLE remix_slices AS
            SELECT u.experiment, \(named) AS name,
                   row_number() OVER (PARTITION BY u.experiment ORDER BY count(*) DESC, \(named) COLLATE "C") AS r
            FROM remix_units u LEFT JOIN remix_dimension d ON d."user" = u."user"
            WHERE u.variation IS NOT NULL
            GROUP BY u.experiment, \(named)
            """)
        try await execute(store, """
            INSERT INTO remix_units (experiment, "user", variation, first)
            SELECT \(sliceScope), u."user", u.variation, u.first
            FROM remix_units u LEFT JOIN remix_dimension d ON d."user" = u."user"
                 LEFT JOIN remix_slices l ON l.experiment = u.experiment AND l.name = \(named)
            """)
        return true
    }

    func slices(experiment: String) async throws(AnalysisError) -> [String] {
        guard sliced else { throw .notFromStore(option: "--dimension") }
        let ranked = try decode(await rows("""
            SELECT name FROM remix_slices WHERE experiment = $1 AND r <= $2 ORDER BY r
            """, Self.binds([experiment, DimensionSlicer.shown + 1])), String.self) { try $0.decode(String.self) }
        let shown = Array(ranked.prefix(DimensionSlicer.shown))
        return ranked.count > DimensionSlicer.shown ? shown + [DimensionSlicer.otherName] : shown
    }
}
