import PostgresNIO

/// The tables of an event store (docs/storage.md), created on first use in one transaction and
/// versioned in `remix_schema`: a store newer than this binary, or tables of the same names that
/// are not a Remix store, are errors rather than something to write into. One description makes
/// the tables and checks them (``StoreSchemaCheck``).
package enum StoreSchema {
    /// The schema version this binary writes and reads.
    package static let version = 1

    /// A column: its name, its type as PostgreSQL's `format_type` names it, whether it may be
    /// NULL, and its default.
    struct Column: Sendable {
        var name: String
        var type: String
        var nullable = false
        var defaultValue: String?

        /// `"name" type NOT NULL DEFAULT …`, as `CREATE TABLE` takes it.
        var definition: String {
            "\(StoreSchema.quoted(name)) \(type)" + (nullable ? "" : " NOT NULL") + (defaultValue.map { " DEFAULT \($0)" } ?? "")
        }
    }

    /// A primary key, and what would go wrong without it (for the message when it is missing).
    struct Key: Sendable {
        var columns: [String]
        var purpose: String
    }

    /// A table: its columns in order and its primary key.
    struct Table: Sendable {
        var name: String
        var columns: [Column]
        var key: Key?

        var create: String {
            let constraint = key.map { ["PRIMARY KEY (\(StoreSchema.list($0.columns)))"] } ?? []
            return "CREATE TABLE \(name) (" + (columns.map(\.definition) + constraint).joined(separator: ", ") + ")"
        }
    }

    /// An index the store reads through: its name, table, key columns, any predicate, and what
    /// reads through it (for the message when it is missing).
    struct Index: Sendable {
        var name: String
        var table: String
        var columns: [String]
        var predicate: String?
        var purpose: String

        var create: String {
            "CREATE INDEX \(name) ON \(table) (\(StoreSchema.list(columns)))" + (predicate.map { " WHERE \($0)" } ?? "")
        }
    }

    static let timestamp = "timestamp with time zone"

    /// The tables, in the order they are created and checked (`remix_schema` first: it says
    /// which version the others are).
    static let tables: [Table] = [
        Table(name: "remix_schema", columns: [
            Column(name: "version", type: "integer"),
            Column(name: "applied_at", type: timestamp, defaultValue: "now()"),
            Column(name: "applied_by", type: "text", defaultValue: "current_user"),
        ], key: Key(columns: ["version"], purpose: "a version could be recorded twice")),
        Table(name: "remix_runs", columns: [
            Column(name: "run_id", type: "text"), Column(name: "shard", type: "integer"),
            Column(name: "shards", type: "integer"), Column(name: "ts", type: timestamp), Column(name: "app", type: "text"),
            Column(name: "seed", type: "text"), Column(name: "record", type: "jsonb"),
            Column(name: "written_at", type: timestamp, defaultValue: "now()"),
        ], key: Key(columns: ["run_id", "shard"], purpose: "a run's record would be stored again on every retry, and a "
                    + "copied file would not be known as copied")),
        Table(name: "remix_blocks", columns: [
            Column(name: "run_id", type: "text"), Column(name: "shard", type: "integer"), Column(name: "block", type: "bigint"),
            Column(name: "events", type: "integer"), Column(name: "written_at", type: timestamp, defaultValue: "now()"),
        ], key: Key(columns: ["run_id", "shard", "block"], purpose: "retried blocks and --resume would store events twice")),
        Table(name: "remix_events", columns: [
            Column(name: "run_id", type: "text"), Column(name: "shard", type: "integer"), Column(name: "block", type: "bigint"),
            Column(name: "seq", type: "integer"), Column(name: "ts", type: timestamp), Column(name: "type", type: "text"),
            Column(name: "session", type: "text"), Column(name: "user", type: "text"),
            Column(name: "experiment", type: "text", nullable: true), Column(name: "variation", type: "text", nullable: true),
            Column(name: "variation_id", type: "integer", nullable: true),
            Column(name: "in_experiment", type: "boolean", nullable: true),
            Column(name: "hash_used", type: "boolean", nullable: true),
            Column(name: "fields", type: "jsonb", defaultValue: "'{}'"),
        ], key: nil),
    ]

    /// The indexes on `remix_events`: the log's order (`log copy`), events by type and time,
    /// assignment counts and SRM, a user's conversions after their exposure.
    static let indexes: [Index] = [
        Index(name: "remix_events_order", table: "remix_events", columns: ["run_id", "shard", "block", "seq"],
              purpose: "log copy reads a run in its order"),
        Index(name: "remix_events_type", table: "remix_events", columns: ["type", "ts"],
              purpose: "the analysis finds events by type"),
        Index(name: "remix_events_exposure", table: "remix_events", columns: ["experiment", "variation", "user"],
              predicate: "type = 'exposure'", purpose: "the analysis counts assignments"),
        Index(name: "remix_events_user", table: "remix_events", columns: ["user", "ts"],
              purpose: "the analysis joins a user's conversions to their exposure"),
    ]

    /// The columns of `remix_events`, in order.
    static let eventColumns = tables[3].columns.map(\.name)

    /// Version 1, statement by statement (the extended protocol takes one at a time).
    static var create: [String] {
        tables.map(\.create) + indexes.map(\.create) + ["INSERT INTO remix_schema (version) VALUES (\(version))"]
    }

    /// An identifier as SQL writes it: quoted only where it must be (`"user"` is a keyword).
    static func quoted(_ name: String) -> String { name == "user" ? "\"user\"" : name }

    /// Identifiers as a SQL list: `a, b, "user"`.
    static func list(_ names: [String]) -> String { names.map(quoted).joined(separator: ", ") }
}
