import PostgresNIO
import RemixAnalysis

/// What a second connection to the store computes while the first fills its units and answers
/// the metrics, in two parts: first the experiments' variations and the screen names with their
/// events, then every experiment's units per variation and screen name (from units of its own).
/// The server then works on two statements at once, both connections reading one snapshot. A
/// second connection that fails costs only its time: the first then asks the same questions itself.
struct SideConnection {
    /// The connection, the variations (experiment, variation, smallest id, feature or "") and
    /// every screen name with its screen events.
    let overview: Task<(PostgresStore, [(String, String, Int?, String)], [(String, Int)]), any Error>
    /// Experiment → variation → screen name → units shown it at or after their first exposure;
    /// closes the connection when done.
    let screenUnits: Task<[String: [String: [String: Int]]], any Error>

    /// Connects to `url` and starts both parts, in a transaction that sees the exported
    /// `snapshot` (the first connection's); its units hold the phases and slices `scopes` asks for.
    init(_ url: StoreURL, snapshot: String, scopes: StoreScopes = StoreScopes()) {
        let overview = Task {
            let store = try await PostgresStore.connect(url)
            do {
                try await StoreAggregates.execute(store, "BEGIN ISOLATION LEVEL REPEATABLE READ")
                // The server's own identifier (hex digits and dashes), checked before it is sent.
                guard snapshot.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
                    throw AnalysisError.store("the event store sent a snapshot Remix cannot use: \(snapshot)")
                }
                try await StoreAggregates.execute(store, "SET TRANSACTION SNAPSHOT '\(snapshot)'")
                return (store, try await StoreAggregates.variations(store), try await StoreAggregates.screenTotals(store))
            } catch {
                await store.close()
                throw error
            }
        }
        self.overview = overview
        screenUnits = Task {
            let store = try await overview.value.0
            do {
                try await StoreAggregates.fillUnits(store, scopes: scopes)
                let units = try await StoreAggregates.allScreenUnits(store)
                await store.close()
                return units
            } catch {
                await store.close()
                throw error
            }
        }
    }

    /// Waits for both parts (their connection is closed after).
    func end() async {
        overview.cancel()
        screenUnits.cancel()
        _ = await screenUnits.result
    }
}

extension StoreAggregates {
    /// Every experiment's variations with their smallest id and feature, from the exposures' index.
    static func variations(_ store: PostgresStore) async throws(AnalysisError) -> [(String, String, Int?, String)] {
        try decode(await rows(store, """
            SELECT experiment, variation, min(variation_id)::bigint, coalesce(min(feature), '')
            FROM remix_events WHERE \(countedExposures) GROUP BY experiment, variation ORDER BY experiment, variation
            """), (String, String, Int?, String).self) { try $0.decode((String, String, Int?, String).self) }
    }

    /// Every screen name and its screen events, from the screens' index.
    static func screenTotals(_ store: PostgresStore) async throws(AnalysisError) -> [(String, Int)] {
        try decode(await rows(store, """
            SELECT screen, count(*)::bigint FROM remix_events WHERE screen IS NOT NULL AND "user" <> '' GROUP BY screen
            """), (String, Int).self) { try $0.decode((String, Int).self) }
    }

    /// Per experiment, variation and screen name, the units (of `store`'s `remix_units`) shown it
    /// at or after their first exposure: the screens' index meets the units in user order, and a
    /// unit counts once a name.
    static func allScreenUnits(_ store: PostgresStore) async throws(AnalysisError) -> [String: [String: [String: Int]]] {
        let found = try decode(await rows(store, """
            SELECT experiment, variation, name, count(*)::bigint FROM (
              SELECT u.experiment, u.variation, e.screen AS name
              FROM remix_units u JOIN remix_events e ON e."user" = u."user" AND e.screen IS NOT NULL AND e.ts >= u.first
              WHERE u.variation IS NOT NULL
              GROUP BY e."user", e.screen, u.experiment, u.variation) shown
            GROUP BY 1, 2, 3
            """), (String, String, String, Int).self) { try $0.decode((String, String, String, Int).self) }
        var all: [String: [String: [String: Int]]] = [:]
        for (experiment, variation, name, count) in found { all[experiment, default: [:]][variation, default: [:]][name] = count }
        return all
    }

    func screens(experiment: String, limit: Int) async throws(AnalysisError) -> ScreenAggregates {
        let (names, otherEvents) = try await screenNames(limit: limit)
        if otherEvents == 0 {
            // Every name has a step of its own: one join answers every experiment at once.
            let all = try await allScreenUnits()
            return ScreenAggregates(names: names, units: all[experiment] ?? [:], other: nil, otherEvents: 0)
        }
        let found = try await decode(rows("""
            SELECT variation, name, count(*)::bigint FROM (
              SELECT u.variation, CASE WHEN e.screen = ANY($2) THEN e.screen END AS name
              FROM remix_units u JOIN remix_events e ON e."user" = u."user" AND e.screen IS NOT NULL AND e.ts >= u.first
              WHERE u.experiment = $1 AND u.variation IS NOT NULL
              GROUP BY e."user", 2, u.variation) shown
            GROUP BY 1, 2
            """, try Self.binds([experiment, names])), (String, String?, Int).self) { try $0.decode((String, String?, Int).self) }
        var units: [String: [String: Int]] = [:]
        var other: [String: Int] = [:]
        for (variation, name, count) in found {
            if let name { units[variation, default: [:]][name] = count } else { other[variation] = count }
        }
        return ScreenAggregates(names: names, units: units, other: other, otherEvents: otherEvents)
    }

    /// Every experiment's units per variation and screen name: the side's, or asked here.
    private func allScreenUnits() async throws(AnalysisError) -> [String: [String: [String: Int]]] {
        if let units = try? await side?.screenUnits.value { return units }
        return try await Self.allScreenUnits(store)
    }

    /// The screen names with a funnel step of their own and the screen events of the others (once).
    private func screenNames(limit: Int) async throws(AnalysisError) -> (names: [String], otherEvents: Int) {
        if let screenNames { return screenNames }
        let all: [(String, Int)]
        if let totals = try? await side?.overview.value.2 { all = totals } else { all = try await Self.screenTotals(store) }
        var names = all.map(\.0).sorted(), otherEvents = 0
        if names.count > limit {
            // As a log file's funnel: the first screens seen get a count of their own.
            names = try await decode(rows("""
                SELECT name FROM (
                  SELECT DISTINCT ON (screen) screen AS name, run_id, shard, block, seq
                  FROM remix_events WHERE screen IS NOT NULL AND "user" <> ''
                  ORDER BY screen, run_id, shard, block, seq) f
                ORDER BY run_id, shard, block, seq LIMIT \(limit)
                """), String.self) { try $0.decode(String.self) }
            let kept = Set(names)
            otherEvents = all.filter { !kept.contains($0.0) }.reduce(0) { $0 + $1.1 }
        }
        screenNames = (names, otherEvents)
        return (names, otherEvents)
    }
}
