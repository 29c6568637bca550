import RemixFormats

/// A shard of a simulation run that an event store holds only part of: its run record says which
/// users it simulates, and fewer of its blocks are stored (a `remix simulate` that was killed or
/// ran out of retries), or the run's other shards recorded themselves and this one did not start.
/// The report then covers fewer users than the run made, which it says, with how to complete it.
package struct UnfinishedShard: Sendable, Equatable {
    /// The run's id, and its seed as the run record gives it.
    package var run: String
    package var seed: String
    /// The shard (from 1) and the run's number of shards.
    package var shard: Int
    package var shards: Int
    /// The run's users (all shards), the shard's, and the shard's stored; the shard's are nil for
    /// a shard without a run record (not started).
    package var runUsers: Int
    package var users: Int?
    package var storedUsers: Int
    /// The users the run's complete shards hold (the same for every shard of a run).
    package var usersOfCompleteShards: Int

    package init(run: String, seed: String, shard: Int, shards: Int, runUsers: Int, users: Int?, storedUsers: Int,
                 usersOfCompleteShards: Int) {
        (self.run, self.seed, self.shard, self.shards, self.runUsers) = (run, seed, shard, shards, runUsers)
        (self.users, self.storedUsers, self.usersOfCompleteShards) = (users, storedUsers, usersOfCompleteShards)
    }

    /// One warning per run, naming each unfinished shard and the command that completes it.
    static func warnings(_ shards: [UnfinishedShard]) -> [String] {
        var runs: [String] = []
        var byRun: [String: [UnfinishedShard]] = [:]
        for shard in shards {
            if byRun[shard.run] == nil { runs.append(shard.run) }
            byRun[shard.run, default: []].append(shard)
        }
        return runs.compactMap { run in
            guard let parts = byRun[run]?.sorted(by: { $0.shard < $1.shard }), let first = parts.first else { return nil }
            let stored = first.usersOfCompleteShards + parts.reduce(0) { $0 + $1.storedUsers }
            let each = parts.map { part in
                let name = "shard \(part.shard)/\(part.shards)"
                guard let users = part.users else { return "\(name) has no run record (it has not started)" }
                return "\(name) holds \(CountText.grouped(part.storedUsers)) of its \(CountText.grouped(users)) users (it stopped, "
                    + "or is still running)"
            }
            return "the event store holds \(CountText.grouped(stored)) of the \(CountText.grouped(first.runUsers)) users of run "
                + "\(run) (seed \(first.seed)): " + each.joined(separator: ", ") + "; these results cover the stored users only — "
                + "run the same remix simulate command with --resume (and --shard I/N for each shard named) to complete the "
                + "run, then analyze again"
        }
    }
}
