import Foundation
import GrowthBookAssignment
import PostgresNIO
import Testing
@testable import RemixStore

/// The sticky-bucket table: made on first use beside the event tables, documents read back by
/// identifier, a write merging assignments into the stored row, and the schema check naming
/// what a changed table lacks.
@Suite(.enabled(if: StoreServer.shouldRun, StoreServer.skipReason))
struct StickyBucketTableTests {
    /// Runs `body` with a sticky-bucket store in a scratch schema of its own.
    static func withStore(_ body: (PostgresStickyBucketStore, PostgresStore) async throws -> Void) async throws {
        let schema = StoreServer.scratchName("remix_sticky_")
        let url = try StoreURL(parsing: try StoreServer.urlText(inSchema: schema), environment: [:])
        let admin = try await PostgresStore.connect(try StoreServer.url())
        try await admin.run(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"))
        do {
            let store = try await PostgresStore.connect(url)
            try await body(PostgresStickyBucketStore(url: url), store)
            await store.close()
        } catch {
            _ = try? await admin.run(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(schema) CASCADE"))
            await admin.close()
            throw error
        }
        try await admin.run(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(schema) CASCADE"))
        await admin.close()
    }

    @Test func documentsAreStoredReadBackAndMerged() async throws {
        try await Self.withStore { sticky, _ in
            #expect(try await sticky.allDocuments().isEmpty)
            try await sticky.save([StickyBucketDocument(attributeName: "id", attributeValue: "u1", assignments: ["e__0": "a"]),
                                   StickyBucketDocument(attributeName: "deviceId", attributeValue: "d1", assignments: ["e__0": "b"])])
            try await sticky.save([StickyBucketDocument(attributeName: "id", attributeValue: "u1", assignments: ["f__0": "x"])])
            let found = try await sticky.documents(for: [.init(attributeName: "id", attributeValue: "u1"),
                                                         .init(attributeName: "id", attributeValue: "nobody")])
            #expect(found == [StickyBucketDocument(attributeName: "id", attributeValue: "u1", assignments: ["e__0": "a", "f__0": "x"])])
            #expect(try await sticky.allDocuments().map(\.key) == ["deviceId||d1", "id||u1"])
        }
    }

    @Test func aChangedTableIsNamedWithTheStatementThatRestoresIt() async throws {
        try await Self.withStore { sticky, store in
            _ = try await sticky.allDocuments()
            try await store.run("ALTER TABLE remix_sticky_buckets DROP CONSTRAINT remix_sticky_buckets_pkey")
            let error = await StoreServer.expectFailure(.schema) { _ = try await sticky.allDocuments() }
            #expect(error?.message.contains("remix_sticky_buckets has no primary key (attribute_name, attribute_value)") == true,
                    "\(error?.message ?? "")")
            #expect(error?.message.contains("ALTER TABLE remix_sticky_buckets ADD PRIMARY KEY (attribute_name, attribute_value)") == true)
        }
    }
}
