import Foundation
import PostgresNIO
import Testing
@testable import RemixStore
@testable import RemixStoreURL

/// The schema check beyond column names: the keys, indexes, types and NOT NULLs the store relies
/// on, each named with the statement that restores it; and a server error while checking is
/// reported as what it is, not blamed on the schema.
@Suite(.enabled(if: StoreServer.shouldRun, StoreServer.skipReason))
struct StoreSchemaCheckTests {
    /// A change to a store, and what the error must say about it.
    struct Alteration: Sendable, CustomTestStringConvertible {
        var sql: String
        var expected: [String]
        var testDescription: String { sql }
    }

    static let alterations: [Alteration] = [
        Alteration(sql: "ALTER TABLE remix_blocks DROP CONSTRAINT remix_blocks_pkey", expected: [
            "remix_blocks has no primary key (run_id, shard, block)", "would store events twice",
            "ALTER TABLE remix_blocks ADD PRIMARY KEY (run_id, shard, block)",
        ]),
        Alteration(sql: "ALTER TABLE remix_runs DROP CONSTRAINT remix_runs_pkey", expected: [
            "remix_runs has no primary key (run_id, shard)", "ALTER TABLE remix_runs ADD PRIMARY KEY (run_id, shard)",
        ]),
        Alteration(sql: "ALTER TABLE remix_events ALTER COLUMN ts TYPE text", expected: [
            "column remix_events.ts is text, not timestamp with time zone",
            "ALTER TABLE remix_events ALTER COLUMN ts TYPE timestamp with time zone USING ts::timestamp with time zone",
        ]),
        Alteration(sql: "ALTER TABLE remix_events ALTER COLUMN type DROP NOT NULL", expected: [
            "column remix_events.type may be NULL", "ALTER TABLE remix_events ALTER COLUMN type SET NOT NULL",
        ]),
        Alteration(sql: "DROP INDEX remix_events_exposures", expected: [
            "remix_events has no index on (experiment, \"user\", variation)",
            "CREATE INDEX remix_events_exposures ON remix_events (experiment, \"user\", variation) INCLUDE (ts, variation_id, "
                + "feature) WHERE type = 'exposure' AND in_experiment AND hash_used",
        ]),
        Alteration(sql: "ALTER TABLE remix_events ALTER COLUMN screen DROP EXPRESSION", expected: [
            "column remix_events.screen is not derived from the event's fields",
            "ALTER TABLE remix_events DROP COLUMN screen, ADD COLUMN screen text GENERATED ALWAYS AS (CASE WHEN type = 'screen'",
        ]),
    ]

    @Test(arguments: alterations)
    func aChangedStoreNamesWhatIsWrongAndHowToRestoreIt(_ alteration: Alteration) async throws {
        try await StoreServer.withScratchSchema { store in
            try await store.prepareSchema()
            try await store.run(PostgresQuery(unsafeSQL: alteration.sql))
            let error = await StoreServer.expectFailure(.schema) { try await store.prepareSchema() }
            for expected in alteration.expected {
                #expect(error?.message.contains(expected) == true, "\(expected) in: \(error?.message ?? "")")
            }
            #expect(error?.message.contains("at \(store.url.redacted)") == true, "\(error?.message ?? "")")
        }
    }

    @Test func restoringWhatTheMessageSaysMakesTheStoreUsableAgain() async throws {
        try await StoreServer.withScratchSchema { store in
            try await store.prepareSchema()
            try await store.run("ALTER TABLE remix_blocks DROP CONSTRAINT remix_blocks_pkey")
            try await store.run("DROP INDEX remix_events_type_user")
            let error = await StoreServer.expectFailure(.schema) { try await store.prepareSchema() }
            let statements = try #require(error?.message.firstMatch(of: #/restore it with: (.*); or use another database/#)?.1)
            for statement in statements.split(separator: "; ") { try await store.run(PostgresQuery(unsafeSQL: String(statement))) }
            #expect(try await store.prepareSchema() == StoreSchema.version)
        }
    }

    /// The version is read while another session holds the table: the statement timeout the URL
    /// sets cancels the read, and the message says so (SQLSTATE 57014), not that the table is wrong.
    @Test func aStatementTimeoutIsReportedAsOneWithAdvice() async throws {
        try await StoreServer.withScratchSchema { store in
            try await store.prepareSchema()
            let schema = try #require(try await store.rows("SELECT current_schema()::text", as: String.self).first)
            var url = try StoreServer.url()
            url.settings = [.init(name: "search_path", value: schema), .init(name: "statement_timeout", value: "50")]
            try await store.run("BEGIN")
            try await store.run("LOCK TABLE remix_schema IN ACCESS EXCLUSIVE MODE")
            let error = await StoreServer.expectFailure(.server) { [url] in
                _ = try await PostgresStore.with(url) { try await $0.installedVersion() }
            }
            try await store.run("ROLLBACK")
            #expect(error?.message.contains("statement timeout (SQLSTATE 57014)") == true, "\(error?.message ?? "")")
            #expect(error?.message.contains("options=-c%20statement_timeout%3D0") == true, "\(error?.message ?? "")")
            #expect(error?.message.contains("is not what a Remix event store") == false, "\(error?.message ?? "")")
        }
    }
}
