import PostgresNIO
import RemixAnalysis

/// What the store's analysis reports besides whole experiments (``AggregateScope``): each phase's
/// own units, of the experiments whose `phase` it reads (it is in each exposure's `fields`, so
/// reading it visits those exposures' rows, where the units come from the exposures' index
/// alone) — every experiment with `--phase`; else those whose experiment file has phases, and
/// those without a file read (a log's analysis finds phases in any experiment) — and, with
/// `--dimension`, the slices of each experiment and phase by that attribute.
struct StoreScopes: Sendable {
    /// Read every experiment's phases.
    var all = false
    /// Experiments whose file has phases.
    var withPhases: Set<String> = []
    /// Experiments with a file.
    var defined: Set<String> = []
    /// The attribute (or top-level field) of `session_started` to slice by, if any.
    var dimension: String?

    /// Every experiment's phases are read (none has a file), and nothing is sliced.
    init() {}

    /// What `options` (their `--phase`, `--dimension` and experiment files) ask for.
    init(_ options: AnalysisOptions) {
        all = options.phaseRequested
        withPhases = Set(options.definitions.filter { !$0.value.phases.isEmpty }.keys)
        defined = Set(options.definitions.keys)
        dimension = options.dimension
    }

    /// Whether the phases of experiment `key` are read.
    func readsPhases(of key: String) -> Bool { all || withPhases.contains(key) || !defined.contains(key) }
}

/// Each phase's own exposures, as a log's analysis keeps them (`--phase`): a unit of phase N is a
/// user exposed with `"phase": N` (a whole number from 0 to 9 999), at their first exposure in
/// that phase, in the variation they saw in it (none when several). They are reported under the
/// phase's scope name (``AggregateScope/phase``), as rows of `remix_units` of their own, so every
/// question about units answers for phases as for whole experiments.
extension StoreAggregates {
    /// The SQL of a phase's scope name for the rows of `remix_phases`.
    static let phaseScope = "chr(31) || 'phase' || chr(31) || phase::text || chr(31) || experiment"

    /// Keeps the exposures with a phase of the experiments `scopes` reads the phases of in the
    /// temporary table `remix_phases`, and adds their units to `remix_units`; false (and no table)
    /// when none is read.
    static func fillPhaseUnits(_ store: PostgresStore, _ scopes: StoreScopes) async throws(AnalysisError) -> Bool {
        let keys = try decode(await rows(store, "SELECT DISTINCT experiment FROM remix_units"), String.self) { try $0.decode(String.self) }
        let read = keys.filter(scopes.readsPhases(of:))
        guard !read.isEmpty else { return false }
        try await execute(store, """
            CREATE TEMPORARY TABLE remix_phases AS
            SELECT experiment, "user", variation, ts, variation_id, feature, phase FROM (
              SELECT experiment, "user", variation, ts, variation_id, feature,
                     CASE WHEN jsonb_typeof(fields -> 'phase') = 'number' AND fields ->> 'phase' ~ '^[0-9]{1,4}$'
                          THEN (fields ->> 'phase')::integer END AS phase
              FROM remix_events WHERE \(countedExposures) AND experiment = ANY($1)) exposures
            WHERE phase IS NOT NULL
            """, binds([read]))
        try await execute(store, """
            INSERT INTO remix_units (experiment, "user", variation, first)
            SELECT \(phaseScope), "user", CASE WHEN min(variation) = max(variation) THEN min(variation) END, min(ts)
            FROM remix_phases GROUP BY experiment, phase, "user"
            """)
        return true
    }

    /// Each phase's variations with their smallest id and feature (as ``variations(_:)``), under the phase's scope name.
    func phaseVariations() async throws(AnalysisError) -> [(String, String, Int?, String)] {
        guard readsPhases else { return [] }
        return try decode(await rows("""
            SELECT \(Self.phaseScope), variation, min(variation_id)::bigint, coalesce(min(feature), '')
            FROM remix_phases GROUP BY experiment, phase, variation
            """), (String, String, Int?, String).self) { try $0.decode((String, String, Int?, String).self) }
    }

    func phaseAggregates(experiment: String) async throws(AnalysisError) -> PhaseAggregates {
        var found = PhaseAggregates()
        guard readsPhases else { return found }
        let binds = try Self.binds([experiment])
        // Phases follow one another in time: a unit's first phase is the lowest it was exposed in.
        for (phase, units) in try decode(await rows("""
            SELECT p, count(*)::bigint FROM (SELECT "user", min(phase) AS p FROM remix_phases WHERE experiment = $1 GROUP BY "user") t
            GROUP BY p
            """, binds), (Int, Int).self, { try $0.decode((Int, Int).self) }) {
            found.firstExposed[phase] = units
        }
        let crossing = try decode(await rows("""
            SELECT count(*) FILTER (WHERE np > 1)::bigint, count(*) FILTER (WHERE np > 1 AND nv > 1)::bigint
            FROM (SELECT "user", count(DISTINCT phase) AS np, count(DISTINCT variation) AS nv
                  FROM remix_phases WHERE experiment = $1 GROUP BY "user") t
            """, binds), (Int, Int).self) { try $0.decode((Int, Int).self) }
        if let first = crossing.first { (found.unitsInSeveralPhases, found.switching) = first }
        return found
    }
}
