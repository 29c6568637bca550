import Foundation
import PostgresNIO
import RemixEventLog
import Synchronization
import Testing
@testable import RemixStore

/// The writer against a real server that fails its writes with a given SQLSTATE (a trigger raises
/// it): a code of the moment is retried on a new connection until the block is stored, any other
/// ends the write at once with the server's code. Pauses are counted, never waited for.
@Suite(.enabled(if: StoreServer.shouldRun, StoreServer.skipReason))
struct StoreRetryTests {
    /// A writer for a fresh schema of its own, with its clock and warnings, and the admin
    /// connection that injects failures there.
    struct Writer {
        let sink: StoreBlockSink
        let clock = CountingClock()
        let warnings = Recorder<String>()
        let admin: PostgresStore

        init(admin: PostgresStore, retrySeconds: Double = 30) async throws {
            self.admin = admin
            let schema = try await admin.rows("SELECT current_schema()::text", as: String.self).first ?? ""
            let url = try StoreURL(parsing: try StoreServer.urlText(inSchema: schema), environment: [:])
            let warnings = self.warnings
            sink = StoreBlockSink(url: url, run: "retry", shard: 1, shards: 1, resume: false, retrySeconds: retrySeconds,
                                  clock: clock.clock) { warnings.append($0) }
            try await sink.open()
        }

        /// Makes the next `count` block writes fail with SQLSTATE `code`, raised by the server.
        func failNext(_ count: Int, with code: String) async throws {
            for statement in [
                "CREATE SEQUENCE remix_failures",
                """
                CREATE FUNCTION remix_fail() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                  IF nextval('remix_failures') <= \(count) THEN
                    RAISE EXCEPTION 'injected failure' USING ERRCODE = '\(code)';
                  END IF;
                  RETURN NEW;
                END $$
                """,
                "CREATE TRIGGER remix_fail BEFORE INSERT ON remix_blocks FOR EACH ROW EXECUTE FUNCTION remix_fail()",
            ] {
                try await admin.run(PostgresQuery(unsafeSQL: statement))
            }
        }

        func write() async throws {
            try await sink.write(block: 0, lines: [], events: StoreWriterTests.events, users: 1)
        }

        /// Events stored by the writer.
        func stored() async throws -> Int {
            try await admin.rows("SELECT count(*)::integer FROM remix_events WHERE run_id = 'retry'", as: Int.self).first ?? -1
        }
    }

    @Test(arguments: StoreErrorCodeTests.transient)
    func aCodeOfTheMomentIsRetriedUntilTheBlockIsStored(_ code: String) async throws {
        try await StoreServer.withScratchSchema { admin in
            let writer = try await Writer(admin: admin)
            try await writer.failNext(2, with: code)
            try await writer.write()
            #expect(await writer.sink.blocksWritten == 1)
            #expect(try await writer.stored() == StoreWriterTests.events.count, "stored once")
            #expect(writer.clock.pauses == [.milliseconds(250), .milliseconds(500)])
            let warnings = writer.warnings.all
            #expect(warnings.count == 2 && warnings.allSatisfy { $0.contains("(SQLSTATE \(code))") }, "\(warnings)")
            await writer.sink.close()
        }
    }

    @Test(arguments: ["57014", "57P04", "53100", "42501", "23505", "22P02", "XX000", "0A000"])
    func anyOtherCodeEndsTheWriteAtOnce(_ code: String) async throws {
        try await StoreServer.withScratchSchema { admin in
            let writer = try await Writer(admin: admin)
            try await writer.failNext(1, with: code)
            let error = await StoreServer.expectFailure(.server) { try await writer.write() }
            #expect(error?.sqlState?.rawValue == code)
            #expect(writer.clock.pauses.isEmpty && writer.warnings.all.isEmpty, "no retry")
            #expect(try await writer.stored() == 0)
            await writer.sink.close()
        }
    }

    /// Retries stop once the next pause would pass `retrySeconds`, saying how to complete the run.
    @Test func retriesGiveUpAfterRetrySeconds() async throws {
        try await StoreServer.withScratchSchema { admin in
            let writer = try await Writer(admin: admin, retrySeconds: 1)
            try await writer.failNext(1000, with: "40001")
            let error = await StoreServer.expectFailure(.server) { try await writer.write() }
            #expect(error?.sqlState == SQLState(rawValue: "40001"))
            #expect(error?.message.contains("gave up after 1 s of retries (--retry-seconds). 0 users of this shard are "
                                            + "stored; run the same command with --resume") == true, "\(error?.message ?? "")")
            #expect(writer.clock.pauses == [.milliseconds(250), .milliseconds(500)])
            await writer.sink.close()
        }
    }
}

/// A retry clock whose time is the sum of the pauses asked of it, which it only records.
final class CountingClock: Sendable {
    private let recorded = Recorder<Duration>()

    var pauses: [Duration] { recorded.all }

    var clock: RetryClock {
        RetryClock(now: { [recorded] in recorded.all.reduce(.zero, +) }, sleep: { [recorded] in recorded.append($0) })
    }
}

/// Values handed in from any task, in order.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    var all: [Value] { values.withLock { $0 } }

    func append(_ value: Value) {
        values.withLock { $0.append(value) }
    }
}
