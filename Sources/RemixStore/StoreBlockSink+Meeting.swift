import PostgresNIO
import RemixEventLog
import RemixKit

extension StoreBlockSink: ShardMeeting {
    /// At most this long a shard waits at a boundary for the others (they run the same epochs, so
    /// they arrive close together once all have started): the larger of `retrySeconds` and 10 minutes.
    var meetingSeconds: Double { max(retrySeconds, 600) }

    /// Stores the mark that this shard stored epoch `epoch`, polls the store until every shard's
    /// mark is there — 10 ms, then doubling up to 1 s between looks, for at most
    /// ``meetingSeconds`` — and reads the other shards' events of the epoch, in the order they
    /// were written, as JSON lines (``LogCopy/line``).
    package func meet(epoch: Int, own: [UInt8]) async throws -> [UInt8] {
        let (run, shard, shards) = (self.run, self.shard, self.shards)
        let mark = BlockKey(run: run, shard: shard, block: EpochBlocks.stored(epoch: epoch))
        _ = try await withRetries { store async throws(StoreError) in try await store.write([], as: mark) }
        let started = clock.now()
        var pause = Duration.milliseconds(10)
        while true {
            let arrived = try await withRetries { store async throws(StoreError) in
                try await store.shardsStored(run: run, block: EpochBlocks.stored(epoch: epoch))
            }
            if arrived.count >= shards { break }
            guard clock.now() - started + pause <= .seconds(meetingSeconds) else {
                let missing = (1...shards).filter { !arrived.contains($0) }.map { "\($0)/\(shards)" }
                throw StoreError(.timeout, "shard \(shard)/\(shards) waited \(Int(meetingSeconds)) s (the longer of --retry-seconds and "
                    + "10 minutes) at boundary \(epoch + 1) of the rollout or bandit for shard(s) \(missing.joined(separator: ", ")) of run "
                    + "\(run), which had not stored their sessions before it; start every shard at once with the same options and "
                    + "--log, then run this one again with --resume")
            }
            try await clock.sleep(pause)
            pause = min(pause * 2, .seconds(1))
        }
        var lines: [UInt8] = []
        for other in 1...shards {
            if other == shard {
                lines += own
                continue
            }
            lines += try await withRetries { store async throws(StoreError) in
                try await store.lines(run: run, shard: other, blocks: EpochBlocks.users(epoch: epoch))
            }
        }
        return lines
    }
}

extension PostgresStore {
    /// The shards of `run` that stored block `block`.
    func shardsStored(run: String, block: Int64) async throws(StoreError) -> Set<Int> {
        Set(try await rows("SELECT shard FROM remix_blocks WHERE run_id = \(run) AND block = \(block)", as: Int.self))
    }

    /// The events of `run`'s shard `shard` in `blocks`, in the order they were written, as JSON lines.
    func lines(run: String, shard: Int, blocks: Range<Int64>) async throws(StoreError) -> [UInt8] {
        let time = "to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
        var lines: [UInt8] = []
        do {
            let events = try await self.run(PostgresQuery(unsafeSQL: """
                SELECT \(time), type, session, "user", experiment, variation, variation_id, in_experiment, hash_used, fields::text
                FROM remix_events WHERE run_id = $1 AND shard = $2 AND block >= $3 AND block < $4 ORDER BY block, seq
                """, binds: Self.binds(run, shard, blocks)))
            for try await row in events.decode((String, String, String, String, String?, String?, Int?, Bool?, Bool?, String).self) {
                let exposure = row.1 == "exposure" ? (row.4, row.5, row.6, row.7, row.8) : nil
                lines += LogCopy.line(ts: row.0, type: row.1, session: row.2, user: row.3, exposure: exposure, fields: row.9)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreFailure.map(error, url)
        }
        return lines
    }

    private static func binds(_ run: String, _ shard: Int, _ blocks: Range<Int64>) -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(run)
        bindings.append(shard)
        bindings.append(blocks.lowerBound)
        bindings.append(blocks.upperBound)
        return bindings
    }
}
