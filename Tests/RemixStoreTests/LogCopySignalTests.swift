import Foundation
import PostgresNIO
import RemixTestSupport
import Testing
@testable import RemixStore

/// `remix log copy STORE FILE` stopped by a signal: the file keeps what it held, and the
/// temporary file the events were going to is removed.
@Suite(.enabled(if: StoreServer.shouldRun, StoreServer.skipReason))
struct LogCopySignalTests {
    /// The copy is held at its first read of the events by a lock the test takes on the table, so
    /// the signal finds it with its temporary file open — every time, with no race.
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aStoppedCopyRemovesItsTemporaryFileAndKeepsTheFile(signal: Int32, status: Int32) async throws {
        let schema = StoreServer.scratchName("remix_copy_")
        let url = try StoreServer.urlText(inSchema: schema)
        let folder = try TemporaryFolder()
        let kept = try folder.write("kept.jsonl", "{\"type\":\"run\"}\n")
        let location = folder.location
        let admin = try await PostgresStore.connect(try StoreServer.url())
        try await admin.run(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"))
        func stopCopy() async throws -> ProcessResult {
            let log = location + "/source.jsonl"
            _ = try RemixProcess.run(["simulate", "--users", "20", "--no-report", "--log", log], in: Repository.root)
            let filled = try RemixProcess.run(["log", "copy", log, url])
            #expect(filled.status == 0, "\(filled.stderr)")
            try await admin.run(PostgresQuery(unsafeSQL: "BEGIN"))
            try await admin.run(PostgresQuery(unsafeSQL: "LOCK TABLE \(schema).remix_events IN ACCESS EXCLUSIVE MODE"))
            let copy = try BackgroundRemix(["log", "copy", url, kept], in: Repository.root, outputIn: location, tag: "copy")
            let result = copy.stop(with: signal) {
                ((try? FileManager.default.contentsOfDirectory(atPath: location)) ?? []).contains { $0.hasPrefix(".kept.jsonl.") }
            }.result
            try await admin.run(PostgresQuery(unsafeSQL: "ROLLBACK"))
            return result
        }
        let outcome: Result<ProcessResult, any Error>
        do { outcome = .success(try await stopCopy()) } catch { outcome = .failure(error) }
        _ = try? await admin.run(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(schema) CASCADE"))
        await admin.close()
        let result = try outcome.get()
        #expect(!result.signalled && result.status == status, "\(result.status): \(result.stderr)")
        #expect(result.stderr.contains("the unfinished kept.jsonl was removed"), "\(result.stderr)")
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == "{\"type\":\"run\"}\n", "the file is as it was")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.location).sorted()
        #expect(names == ["copy.stderr", "copy.stdout", "kept.jsonl", "source.jsonl"], "no temporary file is left")
    }
}
