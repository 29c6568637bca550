import Foundation
import PostgresNIO
import RemixAnalysis
import Testing
@testable import RemixStore

/// The analysis's two connections: they read one snapshot, so a shard writing while an analysis
/// runs changes none of its figures, neither those of the first connection (units, the line count)
/// nor those the second computes meanwhile (screen names, the funnel); and when the second fails,
/// the first asks its questions itself and the figures are the same.
@Suite(.enabled(if: StoreServer.shouldRun, StoreServer.skipReason))
struct StoreSnapshotTests {
    /// Runs `body` with the URL of a store of its own holding ``StoreUpgradeTests/events``.
    static func withStore(_ body: (StoreURL) async throws -> Void) async throws {
        try await StoreServer.withScratchURL { url, _ in
            try await PostgresStore.with(url) { writer in
                try await writer.prepareSchema()
                try await writer.write(StoreUpgradeTests.events, as: BlockKey(run: "r", shard: 0, block: 0))
            }
            try await body(url)
        }
    }

    @Test func whenTheSecondConnectionFailsTheFirstAsksItselfAndTheFiguresAreTheSame() async throws {
        try await Self.withStore { url in
            let queries = try await StoreAggregates.open(url)
            await queries.side?.end()
            // A snapshot the server does not know: the second connection's first statement fails.
            queries.side = SideConnection(url, snapshot: "00000000-00000000-0")
            let overview = try await queries.overview()
            let screens = try await queries.screens(experiment: "insertion-flow", limit: 32)
            await queries.close()
            #expect(overview.experiments["insertion-flow"]?.map(\.key) == ["auto", "manual"])
            #expect(overview.experiments["insertion-flow"]?.map(\.feature) == ["AutoGroupInsertion", "ManualGroupInsertion"])
            #expect(screens.names == ["groups", "title"])
            #expect(screens.units["auto"] == ["groups": 1, "title": 1])
            #expect(screens.units["manual"] == ["groups": 1])
        }
    }

    @Test func eventsWrittenWhileAnAnalysisRunsAreInNoneOfItsFigures() async throws {
        try await Self.withStore { url in
            let queries = try await StoreAggregates.open(url)
            let late = [StoreUpgradeTests.exposure(5_000, "u4", "auto"), StoreUpgradeTests.screen(5_001, "u4", "late"),
                        StoreUpgradeTests.screen(5_002, "u1", "late")]
            _ = try await PostgresStore.with(url) { writer in
                try await writer.write(late, as: BlockKey(run: "r", shard: 1, block: 0))
            }
            let overview = try await queries.overview()
            let exposures = try await queries.exposures(experiment: "insertion-flow")
            let screens = try await queries.screens(experiment: "insertion-flow", limit: 32)
            await queries.close()
            #expect(overview.lines == StoreUpgradeTests.events.count)
            #expect(exposures.variations["auto"]?.units == 1)
            #expect(screens.names == ["groups", "title"])
            #expect(screens.units["auto"] == ["groups": 1, "title": 1])
        }
    }
}
