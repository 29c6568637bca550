import Foundation
import PostgresNIO
import RemixEventLog
import RemixKit
import Testing
@testable import RemixStore

/// Writing blocks of events: COPY into the columns, and a block written twice stored once.
@Suite(.enabled(if: StoreServer.shouldRun, StoreServer.skipReason))
struct StoreWriterTests {
    static let tricky = "tab\there, new\nline, back\\slash, \"quote\", ünïcode ✓"

    static let events: [LoggedEvent] = [
        LoggedEvent(timestamp: 1_795_424_401_553, type: "session_started", session: "s1-0", user: "u1",
                    fields: [EventField("app", .string("Marketplace")), EventField("persona", .string("seller"))]),
        LoggedEvent(timestamp: 1_795_424_401_554, type: "exposure", session: "s1-0", user: "u1", fields: [
            EventField("experiment", .string("insertion-flow")), EventField("variation", .string("auto")),
            EventField("variationId", .int(1)), EventField("feature", .string("AutoGroupInsertion")),
            EventField("bucket", .double(0.25)), EventField("hashUsed", .bool(true)), EventField("inExperiment", .bool(true)),
        ]),
        LoggedEvent(timestamp: 1_795_424_402_000, type: "advert_published", session: "s1-0", user: "u1",
                    fields: [EventField("title", .string(tricky)), EventField("group", .null)]),
    ]

    @Test func aBlockIsWrittenOnceHoweverOftenItIsSent() async throws {
        try await StoreServer.withScratchSchema { store in
            try await store.prepareSchema()
            let key = BlockKey(run: "run-1", shard: 0, block: 7)
            #expect(try await store.write(Self.events, as: key) == true)
            #expect(try await store.write(Self.events, as: key) == false, "a retried block is a no-op")
            #expect(try await store.write(Self.events, as: BlockKey(run: "run-1", shard: 1, block: 7)) == true)
            let counts = try await store.rows(
                "SELECT count(*)::integer FROM remix_events WHERE run_id = 'run-1' AND shard = 0", as: Int.self)
            #expect(counts == [3])
            let blocks = try await store.rows("SELECT events FROM remix_blocks ORDER BY shard", as: Int.self)
            #expect(blocks == [3, 3])
        }
    }

    @Test func columnsAndFieldsHoldTheEvent() async throws {
        try await StoreServer.withScratchSchema { store in
            try await store.prepareSchema()
            try await store.write(Self.events, as: BlockKey(run: "r", shard: 0, block: 0))
            let stored = try await store.rows("""
                SELECT concat_ws('|', (extract(epoch FROM ts) * 1000)::bigint, type, session, "user",
                                 coalesce(experiment, '-'), coalesce(variation, '-'), coalesce(variation_id::text, '-'),
                                 coalesce(in_experiment::text, '-'), coalesce(hash_used::text, '-'), fields::text)
                FROM remix_events ORDER BY seq
                """, as: String.self)
            #expect(stored == [
                #"1795424401553|session_started|s1-0|u1|-|-|-|-|-|{"app": "Marketplace", "persona": "seller"}"#,
                #"1795424401554|exposure|s1-0|u1|insertion-flow|auto|1|true|true|{"bucket": 0.25, "feature": "AutoGroupInsertion"}"#,
                "1795424402000|advert_published|s1-0|u1|-|-|-|-|-|"
                    + #"{"group": null, "title": "tab\there, new\nline, back\\slash, \"quote\", ünïcode ✓"}"#,
            ])
            let title = try await store.rows("SELECT fields->>'title' FROM remix_events WHERE seq = 2", as: String.self)
            #expect(title == [Self.tricky])
        }
    }

    @Test func aFailedBlockLeavesNothingAndCanBeRetried() async throws {
        try await StoreServer.withScratchSchema { store in
            try await store.prepareSchema()
            let key = BlockKey(run: "r", shard: 0, block: 1)
            var bad = Self.events
            bad[2].fields = [EventField("title", .string("nul \u{0} inside"))]
            await #expect(throws: StoreError.self) { try await store.write(bad, as: key) }
            #expect(try await store.rows("SELECT count(*)::integer FROM remix_blocks", as: Int.self) == [0])
            #expect(try await store.write(Self.events, as: key) == true)
            #expect(try await store.rows("SELECT count(*)::integer FROM remix_events", as: Int.self) == [3])
        }
    }

    /// A sink that stored a bulk write's events vacuums the events table as it finishes, so that an
    /// analysis right after reads the covering indexes alone (the visibility map marks the new
    /// pages); a smaller write leaves it to autovacuum.
    @Test func aSinkThatStoredABulkWriteVacuumsTheTableWhenItFinishes() async throws {
        try await StoreServer.withScratchURL { url, _ in
            func vacuumed() async throws -> [Bool] {
                try await PostgresStore.with(url) { store in
                    try await store.rows(
                        "SELECT last_vacuum IS NOT NULL FROM pg_stat_user_tables WHERE relid = 'remix_events'::regclass",
                        as: Bool.self)
                }
            }
            let small = StoreBlockSink(url: url, run: "small", shard: 1, shards: 1, resume: false, retrySeconds: 1)
            try await small.open()
            try await small.write(block: 0, lines: [], events: Self.events, users: 1)
            await small.finish()
            #expect(try await vacuumed() == [false], "three events are not a bulk write")
            let bulk = StoreBlockSink(url: url, run: "bulk", shard: 1, shards: 1, resume: false, retrySeconds: 1,
                                      vacuumAfterEvents: Self.events.count)
            try await bulk.open()
            try await bulk.write(block: 0, lines: [], events: Self.events, users: 1)
            await bulk.finish()
            #expect(try await vacuumed() == [true])
        }
    }
}
