/// How a run with a controller (epoch by epoch, RemixSimulation) numbers its blocks, so that the
/// shards of one run can meet at each boundary in an event store: epoch `e`'s blocks of users
/// are `e × 2³²` on; the block of its decisions (shard 1's only) and each shard's mark that it
/// stored the epoch (a block without events) end it.
package enum EpochBlocks {
    private static let span: Int64 = 1 << 32

    /// Block `index` of epoch `epoch`'s users.
    package static func block(epoch: Int, _ index: Int) -> Int64 { Int64(epoch) * span + Int64(index) }

    /// The block of the decisions at the end of epoch `epoch`.
    package static func decisions(epoch: Int) -> Int64 { Int64(epoch) * span + span - 2 }

    /// The block that marks epoch `epoch` stored by a shard.
    package static func stored(epoch: Int) -> Int64 { Int64(epoch) * span + span - 1 }

    /// The blocks of epoch `epoch`'s users (its decisions not among them).
    package static func users(epoch: Int) -> Range<Int64> { Int64(epoch) * span..<(Int64(epoch) * span + span - 2) }
}

/// Where the shards of one run with a controller meet at each boundary (an event store's sink):
/// each shard has stored its part of the epoch, and every shard then observes every shard's
/// lines of it, in shard order — the lines a whole run observes.
package protocol ShardMeeting: Sendable {
    /// Marks epoch `epoch` stored by this shard, waits (bounded) until every shard of the run has
    /// stored it, and returns the epoch's lines of every shard in shard order, `own` as this shard's.
    func meet(epoch: Int, own: [UInt8]) async throws -> [UInt8]
}
