import PostgresNIO

/// The tables of an event store (docs/storage.md), created on first use in one transaction and
/// versioned in `remix_schema`: a store newer than this binary, or tables of the same names that
/// are not a Remix store, are errors rather than something to write into.
public enum StoreSchema {
    /// The schema version this binary writes and reads.
    public static let version = 1

    /// The tables and their columns, in order; an existing store must have exactly these.
    static let tables: [(name: String, columns: [String])] = [
        ("remix_schema", ["version", "applied_at", "applied_by"]),
        ("remix_runs", ["run_id", "shard", "shards", "ts", "app", "seed", "record", "written_at"]),
        ("remix_blocks", ["run_id", "shard", "block", "events", "written_at"]),
        ("remix_events", eventColumns),
    ]

    /// The columns of `remix_events`, in order.
    static let eventColumns = ["run_id", "shard", "block", "seq", "ts", "type", "session", "user", "experiment",
                               "variation", "variation_id", "in_experiment", "hash_used", "fields"]

    /// Version 1, statement by statement (the extended protocol takes one at a time).
    static let create: [String] = [
        """
        CREATE TABLE remix_schema (
            version integer PRIMARY KEY,
            applied_at timestamptz NOT NULL DEFAULT now(),
            applied_by text NOT NULL DEFAULT current_user)
        """,
        """
        CREATE TABLE remix_runs (
            run_id text NOT NULL,
            shard integer NOT NULL,
            shards integer NOT NULL,
            ts timestamptz NOT NULL,
            app text NOT NULL,
            seed text NOT NULL,
            record jsonb NOT NULL,
            written_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (run_id, shard))
        """,
        """
        CREATE TABLE remix_blocks (
            run_id text NOT NULL,
            shard integer NOT NULL,
            block bigint NOT NULL,
            events integer NOT NULL,
            written_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (run_id, shard, block))
        """,
        """
        CREATE TABLE remix_events (
            run_id text NOT NULL,
            shard integer NOT NULL,
            block bigint NOT NULL,
            seq integer NOT NULL,
            ts timestamptz NOT NULL,
            type text NOT NULL,
            session text NOT NULL,
            "user" text NOT NULL,
            experiment text,
            variation text,
            variation_id integer,
            in_experiment boolean,
            hash_used boolean,
            fields jsonb NOT NULL DEFAULT '{}')
        """,
        "CREATE INDEX remix_events_order ON remix_events (run_id, shard, block, seq)",
        "CREATE INDEX remix_events_type ON remix_events (type, ts)",
        "CREATE INDEX remix_events_exposure ON remix_events (experiment, variation, \"user\") WHERE type = 'exposure'",
        "CREATE INDEX remix_events_user ON remix_events (\"user\", ts)",
        "INSERT INTO remix_schema (version) VALUES (1)",
    ]
}

extension PostgresStore {
    /// Creates the store's tables if the database has none, or checks the ones it has; returns the
    /// schema version. Safe to call from many hosts at once (they queue on an advisory lock).
    @discardableResult
    public func prepareSchema() async throws(StoreError) -> Int {
        try await run("BEGIN")
        do {
            try await run("SELECT pg_advisory_xact_lock(hashtext('remix_schema'))")
            let version: Int
            if let found = try await installedVersion() {
                version = found
            } else {
                for statement in StoreSchema.create { try await run(PostgresQuery(unsafeSQL: statement)) }
                version = StoreSchema.version
            }
            try await run("COMMIT")
            return version
        } catch {
            _ = try? await run("ROLLBACK")
            throw error
        }
    }

    /// The schema version of the store, or nil when the database has no Remix tables; an error
    /// when the tables are not a store this binary can use.
    public func installedVersion() async throws(StoreError) -> Int? {
        var present: [String] = []
        for table in StoreSchema.tables {
            let found = try await rows("SELECT to_regclass(\(table.name)) IS NOT NULL", as: Bool.self)
            if found.first == true { present.append(table.name) }
        }
        guard present.contains("remix_schema") else {
            guard let first = present.first else { return nil }
            throw StoreError(.schema, "table \(first) in database \"\(url.database)\" at \(url.endpoint) is not part of a "
                + "Remix event store (there is no remix_schema table); use another database, or rename or drop that table")
        }
        let versions: [Int?]
        do {
            versions = try await rows("SELECT max(version)::integer FROM remix_schema", as: Int?.self)
        } catch let error where error.kind == .server {
            throw notOurs("remix_schema", "reading its version failed (\(error.message))")
        }
        guard let version = versions.first ?? nil else { throw notOurs("remix_schema", "it holds no version") }
        guard version <= StoreSchema.version else {
            throw StoreError(.schema, "the event store at \(url.redacted) has schema version \(version), newer than this "
                + "remix knows (\(StoreSchema.version)); use a newer remix")
        }
        for table in StoreSchema.tables {
            let columns = try await rows("""
                SELECT column_name::text FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = \(table.name) ORDER BY ordinal_position
                """, as: String.self)
            guard columns == table.columns else {
                let detail = columns.isEmpty ? "it is missing" : "its columns are \(columns.joined(separator: ", "))"
                throw notOurs(table.name, "\(detail); expected \(table.columns.joined(separator: ", "))")
            }
        }
        return version
    }

    private func notOurs(_ table: String, _ why: String) -> StoreError {
        StoreError(.schema, "table \(table) in database \"\(url.database)\" at \(url.endpoint) is not what a Remix "
            + "event store of schema version \(StoreSchema.version) has: \(why)")
    }
}
