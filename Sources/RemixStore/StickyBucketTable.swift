import Foundation
import GrowthBookAssignment
import PostgresNIO

/// Sticky-bucket documents in the event store: the table `remix_sticky_buckets`, one row per
/// `attributeName||attributeValue`, made on first use beside the event tables (in the same
/// schema, under the same lock) and checked as they are (``StoreSchemaCheck``).
package struct PostgresStickyBucketStore: StickyBucketStore {
    /// Where the store is.
    package let url: StoreURL

    /// The table in the event store at `url`.
    package init(url: StoreURL) {
        self.url = url
    }

    package func documents(for identifiers: [StickyBucketIdentifier]) async throws -> [StickyBucketDocument] {
        try Self.refuseNUL(identifiers.map { StickyBucketDocument(attributeName: $0.attributeName, attributeValue: $0.attributeValue) })
        return try await PostgresStore.with(url) { store in
            try await store.prepareStickyBuckets()
            return try await store.stickyBucketDocuments(identifiers.map(\.attributeName), identifiers.map(\.attributeValue))
        }
    }

    /// Every document in the table.
    package func allDocuments() async throws -> [StickyBucketDocument] {
        try await PostgresStore.with(url) { store in
            try await store.prepareStickyBuckets()
            return try await store.stickyBucketDocuments(nil, nil)
        }
    }

    /// Stores `documents` in one statement: a row's assignments are merged with the stored ones
    /// (the new variation winning for the same `KEY__VERSION`), so concurrent writers of different
    /// experiments for one user both keep theirs — as ``StickyBucketFile`` merges; several
    /// documents of one key are merged in order first.
    package func save(_ documents: [StickyBucketDocument]) async throws {
        var latest: [String: StickyBucketDocument] = [:]
        for document in documents {
            var merged = document
            if let earlier = latest[document.key] {
                merged.assignments = earlier.assignments.merging(document.assignments) { _, new in new }
            }
            latest[document.key] = merged
        }
        guard !latest.isEmpty else { return }
        let rows = latest.keys.sorted().compactMap { latest[$0] }
        try Self.refuseNUL(rows)
        try await PostgresStore.with(url) { store in
            try await store.prepareStickyBuckets()
            var binds = PostgresBindings()
            binds.append(rows.map(\.attributeName))
            binds.append(rows.map(\.attributeValue))
            binds.append(rows.map { Self.json($0.assignments) })
            try await store.run(PostgresQuery(unsafeSQL: """
                INSERT INTO \(StoreSchema.stickyBuckets.name) (attribute_name, attribute_value, assignments)
                SELECT n, v, a::jsonb FROM unnest($1::text[], $2::text[], $3::text[]) AS t(n, v, a)
                ON CONFLICT (attribute_name, attribute_value) DO UPDATE
                SET assignments = \(StoreSchema.stickyBuckets.name).assignments || EXCLUDED.assignments, updated_at = now()
                """, binds: binds))
        }
    }

    /// Refuses documents (or identifiers) holding a NUL character, which PostgreSQL cannot hold in
    /// `text` or `jsonb`, before they are sent (the server would answer with SQLSTATE 22021).
    static func refuseNUL(_ documents: [StickyBucketDocument]) throws(StoreError) {
        for document in documents {
            let place: String
            if document.attributeName.utf8.contains(0) {
                place = "an attribute's name"
            } else if document.attributeValue.utf8.contains(0) {
                place = "the value of the attribute '\(document.attributeName)'"
            } else if document.assignments.contains(where: { $0.key.utf8.contains(0) || $0.value.utf8.contains(0) }) {
                place = "an experiment key or variation of the attribute '\(document.attributeName)'s document"
            } else {
                continue
            }
            throw StoreError(.server, "\(place) holds a NUL character (\\u0000), which PostgreSQL cannot store in the "
                + "sticky-bucket table: remove it (from --attributes, or the population's attributes), or keep sticky buckets "
                + "in a file (--sticky FILE)")
        }
    }

    static func json(_ assignments: [String: String]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: assignments, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

extension StoreSchema {
    /// The sticky-bucket table, apart from ``tables``: it is made when a sticky-bucket store is
    /// first used, so event stores with or without it have the same schema version.
    static let stickyBuckets = Table(name: "remix_sticky_buckets", columns: [
        Column(name: "attribute_name", type: "text"), Column(name: "attribute_value", type: "text"),
        Column(name: "assignments", type: "jsonb"), Column(name: "updated_at", type: timestamp, defaultValue: "now()"),
    ], key: Key(columns: ["attribute_name", "attribute_value"], purpose: "a user would have several documents"))
}

extension PostgresStore {
    /// Makes the event store's tables and the sticky-bucket table if missing, and checks them.
    func prepareStickyBuckets() async throws(StoreError) {
        let version = try await prepareSchema()
        let table = StoreSchema.stickyBuckets
        try await locked { () async throws(StoreError) in
            let found = try await rows(PostgresQuery(unsafeSQL: "SELECT \(Self.tableID) IS NOT NULL", binds: Self.binds(table.name)),
                                       as: Bool.self)
            if found.first != true { try await run(PostgresQuery(unsafeSQL: table.create)) }
            let problems = try await problems(of: table, version: version)
            if !problems.isEmpty { throw changed(problems, version: version) }
        }
    }

    /// The documents for the given names and values (pairwise), or all when they are nil.
    func stickyBucketDocuments(_ names: [String]?, _ values: [String]?) async throws(StoreError) -> [StickyBucketDocument] {
        var binds = PostgresBindings()
        var filter = ""
        if let names, let values {
            binds.append(names)
            binds.append(values)
            filter = " WHERE (attribute_name, attribute_value) IN (SELECT * FROM unnest($1::text[], $2::text[]))"
        }
        let query = PostgresQuery(unsafeSQL: "SELECT attribute_name, attribute_value, assignments::text FROM "
                                  + "\(StoreSchema.stickyBuckets.name)\(filter) ORDER BY attribute_name, attribute_value", binds: binds)
        var documents: [StickyBucketDocument] = []
        do {
            for try await (name, value, json) in try await run(query).decode((String, String, String).self) {
                let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] ?? [:]
                documents.append(StickyBucketDocument(attributeName: name, attributeValue: value,
                                                      assignments: object.compactMapValues { $0 as? String }))
            }
        } catch {
            throw StoreFailure.map(error, url)
        }
        return documents
    }
}
