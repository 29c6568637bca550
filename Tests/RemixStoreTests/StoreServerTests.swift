import Foundation
import PostgresNIO
import Testing
@testable import RemixStore

/// The store against a real PostgreSQL (`.ci/with-postgres`): the schema, and every way of not
/// getting there ending in a clear message within seconds.
@Suite(.enabled(if: StoreServer.shouldRun, StoreServer.skipReason))
struct StoreServerTests {
    @Test func schemaIsCreatedOnceAndThenChecked() async throws {
        try await StoreServer.withScratchSchema { store in
            #expect(try await store.installedVersion() == nil)
            #expect(try await store.prepareSchema() == StoreSchema.version)
            #expect(try await store.prepareSchema() == StoreSchema.version)
            #expect(try await store.installedVersion() == StoreSchema.version)
            let versions = try await store.rows("SELECT version FROM remix_schema", as: Int.self)
            #expect(versions == [StoreSchema.version])
            let indexes = try await store.rows(
                "SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'remix_events'",
                as: String.self)
            #expect(Set(indexes) == ["remix_events_order", "remix_events_exposures", "remix_events_screens", "remix_events_type_user"])
        }
    }

    @Test func aNewerSchemaIsAClearError() async throws {
        try await StoreServer.withScratchSchema { store in
            try await store.prepareSchema()
            try await store.run("INSERT INTO remix_schema (version) VALUES (\(StoreSchema.version + 1))")
            let error = await StoreServer.expectFailure(.schema) { try await store.prepareSchema() }
            #expect(error?.message.contains("has schema version \(StoreSchema.version + 1), newer than this remix knows "
                                            + "(\(StoreSchema.version)); use a newer remix") == true,
                    "\(error?.message ?? "")")
        }
    }

    @Test func aTableThatIsNotOursIsAClearError() async throws {
        try await StoreServer.withScratchSchema { store in
            try await store.run("CREATE TABLE remix_events (id integer, payload text)")
            let error = await StoreServer.expectFailure(.schema) { try await store.prepareSchema() }
            #expect(error?.message.contains("table remix_events in database \"remix\"") == true, "\(error?.message ?? "")")
            #expect(error?.message.contains("is not part of a Remix event store (there is no remix_schema table)") == true)
            #expect(try await store.rows("SELECT to_regclass('remix_schema') IS NULL", as: Bool.self) == [true],
                    "nothing was created beside the foreign table")
        }
    }

    @Test func changedColumnsAreAClearError() async throws {
        try await StoreServer.withScratchSchema { store in
            try await store.prepareSchema()
            try await store.run("ALTER TABLE remix_events DROP COLUMN hash_used")
            let error = await StoreServer.expectFailure(.schema) { try await store.prepareSchema() }
            #expect(error?.message.contains("table remix_events") == true, "\(error?.message ?? "")")
            #expect(error?.message.contains("expected run_id, shard") == true)
        }
    }

    @Test func aWrongPasswordIsAClearError() async throws {
        var url = try StoreServer.url()
        url.password = "not-the-password"
        let error = await StoreServer.expectFailure(.authentication) { [url] in _ = try await PostgresStore.connect(url) }
        #expect(error?.message.hasPrefix("authentication as \"\(url.user)\" with PostgreSQL at \(url.endpoint) failed") == true,
                "\(error?.message ?? "")")
        #expect(error?.message.contains("not-the-password") == false)
    }

    @Test func aMissingDatabaseSaysHowToCreateIt() async throws {
        var url = try StoreServer.url()
        url.database = "remix_no_such_database"
        let error = await StoreServer.expectFailure(.missingDatabase) { [url] in _ = try await PostgresStore.connect(url) }
        #expect(error?.message == "database \"remix_no_such_database\" does not exist on PostgreSQL at \(url.endpoint); "
            + "create it with: createdb -h \(url.host) -p \(url.port) -U \(url.user) remix_no_such_database")
    }

    @Test func requiredTLSThatIsNotOfferedIsAClearError() async throws {
        var url = try StoreServer.url()
        url.sslMode = .require
        let error = await StoreServer.expectFailure(.tls) { [url] in _ = try await PostgresStore.connect(url) }
        #expect(error?.message == "PostgreSQL at \(url.endpoint) does not offer TLS, but sslmode=require requires it")
    }
}

/// Connection failures that need no server at all.
@Suite struct StoreConnectionFailureTests {
    @Test func aRefusedConnectionAsksWhetherPostgreSQLRuns() async throws {
        let closed = try SilentSocket(listening: false)
        let url = StoreURL(user: "remix", password: "secret", host: "127.0.0.1", port: closed.port, database: "remix",
                           sslMode: .disable)
        let error = await StoreServer.expectFailure(.unreachable) { [url] in _ = try await PostgresStore.connect(url) }
        #expect(error?.message == "cannot connect to PostgreSQL at 127.0.0.1:\(closed.port): connection refused — "
            + "is PostgreSQL running on 127.0.0.1:\(closed.port)?")
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let silent = try SilentSocket(listening: true)
        let url = StoreURL(user: "remix", password: "secret", host: "127.0.0.1", port: silent.port, database: "remix",
                           sslMode: .disable)
        let error = await StoreServer.expectFailure(.timeout) {
            _ = try await PostgresStore.connect(url, timeout: .seconds(1))
        }
        #expect(error?.message.hasPrefix("PostgreSQL at 127.0.0.1:\(silent.port) did not answer within 1.0 s") == true,
                "\(error?.message ?? "")")
    }

    @Test func aMissingSocketIsAClearError() async throws {
        let url = StoreURL(user: "remix", password: nil, host: "/nonexistent-remix-socket", port: 5432, database: "remix",
                           sslMode: .disable)
        let error = await StoreServer.expectFailure(.unreachable) { [url] in _ = try await PostgresStore.connect(url) }
        #expect(error?.message.contains("/nonexistent-remix-socket/.s.PGSQL.5432") == true, "\(error?.message ?? "")")
    }
}
