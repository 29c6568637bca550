import Foundation
import RemixTestSupport
import Testing

/// `remix fit postgresql://…`: a store's events are fitted as the same events in a file are.
@Suite(.enabled(if: StoreServer.shouldRun, StoreServer.skipReason))
struct StoreFitTests {
    @Test func aStoreIsFittedAsTheSameEventsInAFile() async throws {
        try await StoreAnalysisTests.withOwnStore { url in
            let root = StoreAnalysisTests.root
            let folder = try TemporaryFolder()
            let log = folder.path("log.jsonl")
            let simulate = try RemixProcess.run(["simulate", "--users", "1500", "--seed", "3", "--no-report", "--log", log], in: root)
            #expect(simulate.status == 0, "\(simulate.stderr)")
            let copy = try RemixProcess.run(["log", "copy", log, url], in: root)
            #expect(copy.status == 0, "\(copy.stderr)")
            let fromStore = try RemixProcess.run(["fit", url, "--output", folder.path("store.population.yaml")], in: root)
            #expect(fromStore.status == 0, "\(fromStore.stderr)")
            #expect(fromStore.stdout.contains("from 1500 users"), "\(fromStore.stdout)")
            let fromFile = try RemixProcess.run(["fit", log, "--output", folder.path("file.population.yaml")], in: root)
            #expect(fromFile.status == 0, "\(fromFile.stderr)")
            func body(_ name: String) throws -> [Substring] {
                try String(contentsOfFile: folder.path(name), encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("# Fitted by") }
            }
            #expect(try body("store.population.yaml") == body("file.population.yaml"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
                    == ["file.population.yaml", "log.jsonl", "store.population.yaml"])
        }
    }
}
