import PostgresNIO

extension PostgresStore {
    /// Creates the store's tables if the database has none, or checks the ones it has; returns the
    /// schema version (an older store is written as it is: its columns are the same). Safe to call
    /// from many hosts at once: they queue on an advisory lock of the schema the tables are made in
    /// (stores in other schemas of the database never wait for it).
    @discardableResult
    package func prepareSchema() async throws(StoreError) -> Int {
        try await locked { () async throws(StoreError) -> Int in
            if let found = try await installedVersion() { return found }
            for statement in StoreSchema.create { try await run(PostgresQuery(unsafeSQL: statement)) }
            return StoreSchema.version
        }
    }

    /// Brings a store of an older schema version up to this binary's in one transaction (under the
    /// same lock as ``prepareSchema()``); returns the version it had. A store already current is
    /// left alone; a database without a store is an error.
    package func upgradeSchema() async throws(StoreError) -> Int {
        try await locked { () async throws(StoreError) -> Int in
            guard let found = try await installedVersion() else {
                throw StoreError(.schema, "there is no Remix event store at \(url.redacted) (no remix_events table) to upgrade")
            }
            if found < StoreSchema.version {
                for statement in StoreSchema.upgradeFrom1 { try await run(PostgresQuery(unsafeSQL: statement)) }
                _ = try await installedVersion()
            }
            return found
        }
    }

    /// Runs `body` in a transaction holding the advisory lock of the store's schema.
    func locked<T>(_ body: () async throws(StoreError) -> T) async throws(StoreError) -> T {
        try await run("BEGIN")
        do {
            try await run("SELECT pg_advisory_xact_lock(hashtext(coalesce(current_schema(), '') || '.remix_schema'))")
            let result = try await body()
            try await run("COMMIT")
            return result
        } catch {
            _ = try? await run("ROLLBACK")
            throw error
        }
    }

    /// The schema version of the store, or nil when the database has no Remix tables; an error
    /// when the tables are not a store this binary can use: not Remix's, newer, or changed since
    /// Remix made them (a key, index, column type or NOT NULL the store relies on is not there).
    package func installedVersion() async throws(StoreError) -> Int? {
        var present: [String] = []
        for table in StoreSchema.tables {
            let found = try await rows(PostgresQuery(unsafeSQL: "SELECT \(Self.tableID) IS NOT NULL", binds: Self.binds(table.name)),
                                       as: Bool.self)
            if found.first == true { present.append(table.name) }
        }
        guard present.contains("remix_schema") else {
            guard let first = present.first else { return nil }
            throw StoreError(.schema, "table \(first) in database \"\(url.database)\" at \(url.endpoint) is not part of a "
                + "Remix event store (there is no remix_schema table); use another database, or rename or drop that table")
        }
        // remix_schema first: its version says what the other tables should be.
        var problems = try await problems(of: StoreSchema.tables[0], version: StoreSchema.version)
        if !problems.isEmpty { throw changed(problems, version: StoreSchema.version) }
        let versions = try await rows("SELECT max(version)::integer FROM remix_schema", as: Int?.self)
        guard let version = versions.first ?? nil else {
            throw notOurs("remix_schema", "it holds no version", version: StoreSchema.version)
        }
        guard version <= StoreSchema.version else {
            throw StoreError(.schema, "the event store at \(url.redacted) has schema version \(version), newer than this "
                + "remix knows (\(StoreSchema.version)); use a newer remix")
        }
        for table in StoreSchema.tables(version).dropFirst() { problems += try await self.problems(of: table, version: version) }
        if !problems.isEmpty { throw changed(problems, version: version) }
        return version
    }

    /// Something the store relies on that is not there, and the statement that restores it.
    struct SchemaProblem {
        var what: String
        var fix: String
    }

    /// The oid of the table named by the query's `$1` in the current schema (where the store's
    /// tables are made), or NULL.
    static let tableID = """
        (SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = current_schema() AND c.relname = $1)
        """

    static func binds(_ table: String) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(table)
        return binds
    }

    /// The rows of `sql` about `table` (its `$1`), decoded as `Row`.
    private func rows<each Column: PostgresDecodable & Sendable>(
        _ sql: String, about table: String, as _: (repeat each Column).Type
    ) async throws(StoreError) -> [(repeat each Column)] {
        do {
            var result: [(repeat each Column)] = []
            let query = PostgresQuery(unsafeSQL: sql, binds: Self.binds(table))
            for try await row in try await run(query).decode((repeat each Column).self) { result.append(row) }
            return result
        } catch {
            throw StoreFailure.map(error, url)
        }
    }

    /// How `table` differs from what a store of `version` relies on: its columns' types, NOT NULLs
    /// and derivations, its primary key, its indexes. Columns that are not the store's are an error at once.
    func problems(of table: StoreSchema.Table, version: Int) async throws(StoreError) -> [SchemaProblem] {
        let columns = try await rows("""
            SELECT a.attname::text, format_type(a.atttypid, a.atttypmod), NOT a.attnotnull, a.attgenerated <> ''
            FROM pg_attribute a
            WHERE a.attrelid = \(Self.tableID) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum
            """, about: table.name, as: (String, String, Bool, Bool).self)
        let expected = table.columns.map(\.name)
        guard columns.map(\.0) == expected else {
            let detail = columns.isEmpty ? "it is missing" : "its columns are \(columns.map(\.0).joined(separator: ", "))"
            throw notOurs(table.name, "\(detail); expected \(expected.joined(separator: ", "))", version: version)
        }
        var problems: [SchemaProblem] = []
        let alter = "ALTER TABLE \(table.name) ALTER COLUMN"
        for (column, found) in zip(table.columns, columns) {
            let (name, type, nullable) = (StoreSchema.quoted(column.name), found.1, found.2)
            if column.generated != nil, !found.3 {
                problems.append(SchemaProblem(
                    what: "column \(table.name).\(column.name) is not derived from the event's fields",
                    fix: "ALTER TABLE \(table.name) DROP COLUMN \(name), ADD COLUMN \(column.definition)"))
                continue
            }
            if type != column.type {
                problems.append(SchemaProblem(what: "column \(table.name).\(column.name) is \(type), not \(column.type)",
                                              fix: "\(alter) \(name) TYPE \(column.type) USING \(name)::\(column.type)"))
            }
            if nullable != column.nullable {
                problems.append(nullable
                    ? SchemaProblem(what: "column \(table.name).\(column.name) may be NULL", fix: "\(alter) \(name) SET NOT NULL")
                    : SchemaProblem(what: "column \(table.name).\(column.name) may not be NULL", fix: "\(alter) \(name) DROP NOT NULL"))
            }
        }
        let indexes = try await rows("""
            SELECT i.indisunique AND i.indimmediate AND i.indpred IS NULL,
                   array_to_string(ARRAY(SELECT coalesce(a.attname::text, '(expression)')
                                         FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
                                         LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                                         WHERE k.n <= i.indnkeyatts ORDER BY k.n), ',')
            FROM pg_index i WHERE i.indrelid = \(Self.tableID) AND i.indisvalid
            """, about: table.name, as: (Bool, String).self)
        let keys = indexes.map { (unique: $0.0, columns: $0.1.split(separator: ",").map(String.init)) }
        if let key = table.key, !keys.contains(where: { $0.unique && Set($0.columns) == Set(key.columns) }) {
            let columns = StoreSchema.list(key.columns)
            problems.append(SchemaProblem(what: "\(table.name) has no primary key (\(columns)), without which \(key.purpose)",
                                          fix: "ALTER TABLE \(table.name) ADD PRIMARY KEY (\(columns))"))
        }
        for index in StoreSchema.indexes(version) where index.table == table.name && !keys.contains(where: { $0.columns == index.columns }) {
            problems.append(SchemaProblem(what: "\(table.name) has no index on (\(StoreSchema.list(index.columns))), "
                                              + "through which \(index.purpose)", fix: index.create))
        }
        return problems
    }

    /// The store was changed after Remix made it: what is wrong, and the statements that put it right.
    func changed(_ problems: [SchemaProblem], version: Int) -> StoreError {
        StoreError(.schema, "the event store at \(url.redacted) is not as Remix made it (schema version "
            + "\(version)): \(problems.map(\.what).joined(separator: "; ")); restore it with: "
            + "\(problems.map(\.fix).joined(separator: "; ")); or use another database")
    }

    private func notOurs(_ table: String, _ why: String, version: Int) -> StoreError {
        StoreError(.schema, "table \(table) in database \"\(url.database)\" at \(url.endpoint) is not what a Remix "
            + "event store of schema version \(version) has: \(why)")
    }
}
