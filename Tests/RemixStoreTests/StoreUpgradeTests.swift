import Foundation
import PostgresNIO
import RemixAnalysis
import RemixApp
import RemixEventLog
import RemixKit
import Testing
@testable import RemixStore

/// Schema version 1 → 2: a version 1 store is still written as it is, analyze refuses it naming
/// `remix log upgrade`, and the upgrade derives the columns of the events already stored, swaps the
/// indexes and leaves a store that analyze reads — once; a second upgrade does nothing.
@Suite(.enabled(if: StoreServer.shouldRun, StoreServer.skipReason))
struct StoreUpgradeTests {
    static func exposure(_ time: Int64, _ user: String, _ variation: String, counted: Bool = true) -> LoggedEvent {
        LoggedEvent(timestamp: time, type: "exposure", session: "s-\(user)", user: user, fields: [
            EventField("experiment", .string("insertion-flow")), EventField("variation", .string(variation)),
            EventField("variationId", .int(variation == "manual" ? 0 : 1)),
            EventField("feature", .string(variation == "manual" ? "ManualGroupInsertion" : "AutoGroupInsertion")),
            EventField("hashUsed", .bool(true)), EventField("inExperiment", .bool(counted)),
        ])
    }

    static func screen(_ time: Int64, _ user: String, _ name: String) -> LoggedEvent {
        LoggedEvent(timestamp: time, type: "screen", session: "s-\(user)", user: user, fields: [EventField("screen", .string(name))])
    }

    static let events: [LoggedEvent] = [
        exposure(1_000, "u1", "auto"), screen(1_001, "u1", "groups(3)"), screen(1_002, "u1", ""), screen(1_003, "u1", "title"),
        exposure(2_000, "u2", "manual"), screen(1_999, "u2", "title"), screen(2_001, "u2", "groups"),
        exposure(3_000, "u3", "auto", counted: false), screen(3_001, "u3", "groups"),
    ]

    /// A store as a version 1 remix made it, in the schema first on `store`'s search path.
    static func makeVersion1(_ store: PostgresStore) async throws {
        for statement in StoreSchema.tables(1).map(\.create) + StoreSchema.indexes(1).map(\.create) {
            try await store.run(PostgresQuery(unsafeSQL: statement))
        }
        try await store.run("INSERT INTO remix_schema (version) VALUES (1)")
    }

    @Test func aVersion1StoreIsWrittenThenUpgradedInPlaceAndAnalysed() async throws {
        try await StoreServer.withScratchURL { url, text in
            try await PostgresStore.with(url) { store in
                try await Self.makeVersion1(store)
                #expect(try await store.prepareSchema() == 1, "a writer writes a version 1 store as it is")
                try await store.write(Self.events, as: BlockKey(run: "r", shard: 0, block: 0))
            }
            let options = AnalysisOptions(logs: [], metrics: [], jobs: 1)
            await #expect { _ = try await StoreAnalysis.run(url, options) } throws: { error in
                "\(error)".contains("has schema version 1; analysing it needs version 2: run 'remix log upgrade URL' once")
            }
            // Through the use case `remix log upgrade` runs, which says what it is about to do.
            let notices = NoticeLog()
            let upgrade = try await UpgradeStore(store: text).run(notices.context())
            #expect(upgrade.from == 1 && upgrade.to == 2 && upgrade.store == url.redacted)
            #expect(notices.notices.count == 1)
            try await PostgresStore.with(url) { store in
                #expect(try await store.installedVersion() == 2)
                #expect(try await store.rows("SELECT version FROM remix_schema ORDER BY version", as: Int.self) == [1, 2])
                let indexes = try await store.rows(
                    "SELECT indexname::text FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'remix_events'",
                    as: String.self)
                #expect(Set(indexes) == Set(StoreSchema.indexes.map(\.name)))
                let derived = try await store.rows("""
                    SELECT concat_ws('|', type, "user", coalesce(screen, '-'), coalesce(feature, '-'))
                    FROM remix_events WHERE type IN ('screen', 'exposure') ORDER BY seq
                    """, as: String.self)
                #expect(derived == [
                    "exposure|u1|-|AutoGroupInsertion", "screen|u1|groups|-", "screen|u1|-|-", "screen|u1|title|-",
                    "exposure|u2|-|ManualGroupInsertion", "screen|u2|title|-", "screen|u2|groups|-",
                    "exposure|u3|-|AutoGroupInsertion", "screen|u3|groups|-",
                ])
                #expect(try await store.upgradeSchema() == 2, "a current store is left alone")
                try await store.write([Self.screen(4_000, "u2", "item(7)")], as: BlockKey(run: "r", shard: 0, block: 1))
                #expect(try await store.rows("SELECT screen FROM remix_events WHERE block = 1", as: String.self) == ["item"],
                        "rows written after the upgrade get their derived columns as they are stored")
            }
            let report = try await StoreAnalysis.run(url, options)
            let variations = try #require(report.experiments.first?.variations)
            #expect(variations.map(\.key) == ["manual", "auto"], "in variation id order")
            #expect(variations.map(\.feature) == ["ManualGroupInsertion", "AutoGroupInsertion"])
            #expect(variations.map(\.units) == [1, 1])
            let funnels = variations.map { $0.funnel.filter { $0.units > 0 }.map { "\($0.screen) \($0.units)" } }
            #expect(funnels == [["groups 1", "item 1"], ["groups 1", "title 1"]],
                    "screens before a unit's exposure and empty screen names are not steps")
            #expect(report.log.lines == Self.events.count + 1)
        }
    }
}
