import PostgresNIO

/// The tables of an event store (docs/storage.md), created on first use in one transaction and
/// versioned in `remix_schema`: a store newer than this binary, or tables of the same names that
/// are not a Remix store, are errors rather than something to write into. One description makes
/// the tables and checks them (``StoreSchemaCheck``); a store of an older version is checked as
/// that version and brought up to this one by ``upgrade`` (`remix log upgrade`).
package enum StoreSchema {
    /// The schema version this binary creates and analyses.
    package static let version = 2

    /// A column: its name, its type as PostgreSQL's `format_type` names it, whether it may be
    /// NULL, its default, and — for a column the server derives from the others — the expression
    /// it is generated from (such a column is never written, and always nullable).
    struct Column: Sendable {
        var name: String
        var type: String
        var nullable = false
        var defaultValue: String?
        var generated: String?

        /// A column the server computes from `expression` when a row is stored.
        static func derived(_ name: String, _ expression: String) -> Column {
            Column(name: name, type: "text", nullable: true, generated: expression)
        }

        /// `"name" type NOT NULL DEFAULT …`, as `CREATE TABLE` takes it.
        var definition: String {
            if let generated { return "\(StoreSchema.quoted(name)) \(type) GENERATED ALWAYS AS (\(generated)) STORED" }
            return "\(StoreSchema.quoted(name)) \(type)" + (nullable ? "" : " NOT NULL") + (defaultValue.map { " DEFAULT \($0)" } ?? "")
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

    /// An index the store reads through: its name, table, key columns, the columns it carries
    /// besides (so that a read needs nothing else), any predicate, and what reads through it (for
    /// the message when it is missing).
    struct Index: Sendable {
        var name: String
        var table: String
        var columns: [String]
        var included: [String] = []
        var predicate: String?
        var purpose: String

        var create: String {
            "CREATE INDEX \(name) ON \(table) (\(StoreSchema.list(columns)))"
                + (included.isEmpty ? "" : " INCLUDE (\(StoreSchema.list(included)))") + (predicate.map { " WHERE \($0)" } ?? "")
        }
    }

    static let timestamp = "timestamp with time zone"

    /// The tables of version 2, in the order they are created and checked (`remix_schema` first:
    /// it says which version the others are).
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
        Table(name: "remix_events", columns: writtenColumns + derivedColumns, key: nil),
    ]

    /// The columns `remix_events` has had since version 1, every one written by `COPY`.
    private static let writtenColumns: [Column] = [
        Column(name: "run_id", type: "text"), Column(name: "shard", type: "integer"), Column(name: "block", type: "bigint"),
        Column(name: "seq", type: "integer"), Column(name: "ts", type: timestamp), Column(name: "type", type: "text"),
        Column(name: "session", type: "text"), Column(name: "user", type: "text"),
        Column(name: "experiment", type: "text", nullable: true), Column(name: "variation", type: "text", nullable: true),
        Column(name: "variation_id", type: "integer", nullable: true),
        Column(name: "in_experiment", type: "boolean", nullable: true),
        Column(name: "hash_used", type: "boolean", nullable: true),
        Column(name: "fields", type: "jsonb", defaultValue: "'{}'"),
    ]

    /// Version 2's columns of `remix_events` derived from `fields`, so that the analysis reads
    /// them from an index instead of each event's `jsonb`: a screen event's screen name (what
    /// comes before any `(`; NULL for other events and empty screens), an exposure's feature.
    static let derivedColumns: [Column] = [
        .derived("screen", "CASE WHEN type = 'screen' AND fields ->> 'screen' <> '' THEN split_part(fields ->> 'screen', '(', 1) END"),
        .derived("feature", "CASE WHEN type = 'exposure' THEN NULLIF(fields ->> 'feature', '') END"),
    ]

    /// The exposures the analysis counts (the rows of its covering index).
    static let countedExposure = "type = 'exposure' AND in_experiment AND hash_used"

    /// The indexes on `remix_events` of version 2: the log's order (`log copy`), and one covering
    /// index per family of events the analysis reads — exposures, screens, events by type — so
    /// that each is read without the table once it is vacuumed.
    static let indexes: [Index] = [
        Index(name: "remix_events_order", table: "remix_events", columns: ["run_id", "shard", "block", "seq"],
              purpose: "log copy reads a run in its order"),
        Index(name: "remix_events_exposures", table: "remix_events", columns: ["experiment", "user", "variation"],
              included: ["ts", "variation_id", "feature"], predicate: countedExposure,
              purpose: "the analysis reads the exposures it counts"),
        Index(name: "remix_events_screens", table: "remix_events", columns: ["user", "screen"], included: ["ts"],
              predicate: "screen IS NOT NULL", purpose: "the analysis reads each user's screens"),
        Index(name: "remix_events_type_user", table: "remix_events", columns: ["type", "user"], included: ["ts"],
              purpose: "the analysis reads an event type's users and times"),
    ]

    /// Version 1's indexes on `remix_events` (what a store of that version is checked against).
    static let indexesOfVersion1: [Index] = [
        indexes[0],
        Index(name: "remix_events_type", table: "remix_events", columns: ["type", "ts"],
              purpose: "the analysis finds events by type"),
        Index(name: "remix_events_exposure", table: "remix_events", columns: ["experiment", "variation", "user"],
              predicate: "type = 'exposure'", purpose: "the analysis counts assignments"),
        Index(name: "remix_events_user", table: "remix_events", columns: ["user", "ts"],
              purpose: "the analysis joins a user's conversions to their exposure"),
    ]

    /// The tables a store of `version` has (this binary's, or version 1's).
    static func tables(_ version: Int) -> [Table] {
        guard version == 1 else { return tables }
        var old = tables
        old[3].columns = writtenColumns
        return old
    }

    /// The indexes a store of `version` has.
    static func indexes(_ version: Int) -> [Index] { version == 1 ? indexesOfVersion1 : indexes }

    /// The columns `COPY` writes into `remix_events`, in order (every one but the derived).
    static let eventColumns = writtenColumns.map(\.name)

    /// Version 2, statement by statement (the extended protocol takes one at a time).
    static var create: [String] {
        tables.map(\.create) + indexes.map(\.create) + ["INSERT INTO remix_schema (version) VALUES (\(version))"]
    }

    /// From version 1 to 2: the derived columns (the table is rewritten once), the covering
    /// indexes in place of version 1's last three, and the new version's row.
    static var upgradeFrom1: [String] {
        ["ALTER TABLE remix_events " + derivedColumns.map { "ADD COLUMN \($0.definition)" }.joined(separator: ", ")]
            + indexes.dropFirst().map(\.create)
            + indexesOfVersion1.dropFirst().map { "DROP INDEX IF EXISTS \($0.name)" }
            + ["INSERT INTO remix_schema (version) VALUES (\(version))", "ANALYZE remix_events"]
    }

    /// An identifier as SQL writes it: quoted only where it must be (`"user"` is a keyword).
    static func quoted(_ name: String) -> String { name == "user" ? "\"user\"" : name }

    /// Identifiers as a SQL list: `a, b, "user"`.
    static func list(_ names: [String]) -> String { names.map(quoted).joined(separator: ", ") }
}
