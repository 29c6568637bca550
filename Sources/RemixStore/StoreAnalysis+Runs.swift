import PostgresNIO
import RemixAnalysis

/// The simulation runs a store holds only part of. A shard of `remix simulate` records its run
/// record (with its users' indices) first, then stores its users in blocks of
/// ``simulationBlockUsers``, each block a row of `remix_blocks` with its events: a shard with fewer
/// blocks than its users fill stopped before the end (killed, or out of retries), and a shard
/// without a record while others of its run have one has not started. Read from the small tables
/// of runs and blocks; only such a shard's users are counted from its events.
extension StoreAggregates {
    /// The users of a block of `remix simulate` (its `SimulationRunner.blockSize`).
    static let simulationBlockUsers = 256

    /// The unfinished shards of the store's simulation runs (not copies, nor terminal sessions).
    func unfinishedShards() async throws(AnalysisError) -> [UnfinishedShard] {
        let recorded = try decode(await rows("""
            SELECT r.run_id, r.shard, r.shards, coalesce(r.seed, ''), (r.record ->> 'users')::bigint,
                   (r.record -> 'userIndices' ->> 0)::bigint, (r.record -> 'userIndices' ->> 1)::bigint,
                   (SELECT count(*) FROM remix_blocks b WHERE b.run_id = r.run_id AND b.shard = r.shard)::bigint
            FROM remix_runs r
            WHERE NOT r.record ? 'mode' AND jsonb_typeof(r.record -> 'users') = 'number'
              AND jsonb_typeof(r.record -> 'userIndices' -> 0) = 'number' AND jsonb_typeof(r.record -> 'userIndices' -> 1) = 'number'
            ORDER BY r.run_id, r.shard
            """), Recorded.self) { row in
            let columns = try row.decode((String, Int, Int, String, Int, Int, Int, Int).self)
            return Recorded(run: columns.0, shard: columns.1, shards: columns.2, seed: columns.3, runUsers: columns.4,
                            users: max(columns.6 - columns.5, 0), blocks: columns.7)
        }
        var byRun: [String: [Recorded]] = [:]
        for shard in recorded { byRun[shard.run, default: []].append(shard) }
        var found: [UnfinishedShard] = []
        for run in byRun.keys.sorted() {
            guard let shards = byRun[run], let first = shards.first else { continue }
            let stopped = shards.filter { $0.blocks < ($0.users + Self.simulationBlockUsers - 1) / Self.simulationBlockUsers }
            let present = Set(shards.map(\.shard))
            let missing = (1...max(first.shards, 1)).filter { !present.contains($0) }
            guard !stopped.isEmpty || !missing.isEmpty else { continue }
            let complete = shards.filter { shard in !stopped.contains { $0.shard == shard.shard } }.reduce(0) { $0 + $1.users }
            var unfinished: [UnfinishedShard] = []
            for shard in stopped {
                unfinished.append(UnfinishedShard(run: run, seed: first.seed, shard: shard.shard, shards: shard.shards,
                                                  runUsers: first.runUsers, users: shard.users,
                                                  storedUsers: try await storedUsers(run: run, shard: shard.shard),
                                                  usersOfCompleteShards: complete))
            }
            for shard in missing {
                unfinished.append(UnfinishedShard(run: run, seed: first.seed, shard: shard, shards: first.shards, runUsers: first.runUsers,
                                                  users: nil, storedUsers: 0, usersOfCompleteShards: complete))
            }
            found += unfinished.sorted { $0.shard < $1.shard }
        }
        return found
    }

    /// The users with a session in the stored blocks of `run`'s `shard`.
    private func storedUsers(run: String, shard: Int) async throws(AnalysisError) -> Int {
        try decode(await rows("""
            SELECT count(DISTINCT "user")::bigint FROM remix_events WHERE run_id = $1 AND shard = $2 AND type = 'session_started'
            """, Self.binds([run, shard])), Int.self) { try $0.decode(Int.self) }.first ?? 0
    }

    /// A shard's run record and its stored blocks.
    private struct Recorded {
        var run: String
        var shard: Int, shards: Int
        var seed: String
        var runUsers: Int, users: Int, blocks: Int
    }
}
