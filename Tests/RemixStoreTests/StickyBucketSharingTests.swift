import Foundation
import PostgresNIO
import RemixTestSupport
import Testing
@testable import RemixStore

/// Sticky buckets shared by concurrent `remix assign` processes: the JSON Lines file and the event
/// store's table both merge each user's assignments, so none is lost, and both mean the same;
/// a torn last line, a path that is no file, a read-only database and a NUL in an id are plain
/// messages (or, for the torn line, no problem at all).
@Suite struct StickyBucketSharingTests {
    static var root: URL { Repository.root }
    static let users = ["ana", "bo", "cy"]
    static let experiments = (1...8).map { "e\($0)" }

    /// A folder with one experiment file per key of ``experiments``, each in a folder of its own
    /// (``file(_:_:)``): `assign FILE` reads the experiments of the file's folder, and experiments of
    /// one slot that can assign the same session need a rules file to order them. Sticky bucketing is
    /// on by `--sticky`.
    static func folder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for key in experiments {
            try folder.write("\(key)/\(key).yaml", """
                key: \(key)
                app: marketplace
                slot: insertion
                hashVersion: 2
                hashAttribute: id
                variations:
                  - {key: manual, feature: ManualGroupInsertion}
                  - {key: auto, feature: AutoGroupInsertion}

                """)
        }
        return folder
    }

    /// The file of experiment `key` in `folder`.
    static func file(_ folder: TemporaryFolder, _ key: String) -> String { folder.path("\(key)/\(key).yaml") }

    /// Runs `remix assign` of every experiment for every user at once (one process each) with
    /// `--sticky sticky`; returns each user's variation per experiment, as the processes printed them.
    static func assignAtOnce(_ folder: TemporaryFolder, sticky: String) throws -> [String: [String: String]] {
        var started: [(user: String, key: String, remix: BackgroundRemix)] = []
        for user in users {
            for key in experiments {
                let remix = try BackgroundRemix(["assign", Self.file(folder, key), "--attributes", "{\"id\":\"\(user)\"}",
                                                 "--sticky", sticky, "--json"], in: root, outputIn: folder.location, tag: "\(user)-\(key)")
                started.append((user, key, remix))
            }
        }
        var assigned: [String: [String: String]] = [:]
        for (user, key, remix) in started {
            let result = remix.finish()
            #expect(result.status == 0, "\(user) \(key): \(result.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            assigned[user, default: [:]]["\(key)__0"] = object?["variation"] as? String
        }
        return assigned
    }

    /// Each user's assignments in the last line for them.
    static func lastLines(_ path: String) throws -> [String: [String: String]] {
        var documents: [String: [String: String]] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let user = try #require(object?["attributeValue"] as? String)
            documents[user] = object?["assignments"] as? [String: String]
        }
        return documents
    }

    /// 24 writers at once (8 experiments × 3 users): every line written is its user's whole
    /// document so far, and each user's last line holds all 8 assignments.
    @Test func concurrentAssignsToOneFileLoseNoAssignment() throws {
        let folder = try Self.folder()
        let sticky = folder.path("sticky.jsonl")
        let assigned = try Self.assignAtOnce(folder, sticky: sticky)
        let last = try Self.lastLines(sticky)
        for user in Self.users {
            #expect(last[user] == assigned[user], "\(user): the last line holds \(last[user]?.count ?? 0) of 8 assignments")
        }
        #expect(try String(contentsOfFile: sticky, encoding: .utf8).split(separator: "\n").count == 24)
    }

    /// A writer that stopped mid-line leaves a torn last line: it is no document and blocks nothing;
    /// the next save cuts it off, and the documents before it are kept.
    @Test func aTornLastLineIsIgnoredAndCutOffByTheNextSave() throws {
        let folder = try Self.folder()
        let sticky = folder.path("sticky.jsonl")
        let whole = #"{"assignments":{"e1__0":"auto"},"attributeName":"id","attributeValue":"ana"}"# + "\n"
        try (whole + #"{"assignments":{"e2__0":"man"#).write(toFile: sticky, atomically: true, encoding: .utf8)
        let assign = try RemixProcess.run(["assign", Self.file(folder, "e2"), "--attributes", #"{"id":"ana"}"#, "--sticky", sticky,
                                           "--json"], in: Self.root)
        #expect(assign.status == 0, "\(assign.stderr)")
        let lines = try String(contentsOfFile: sticky, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[0] + "\n" == whole && lines[2].isEmpty, "\(lines)")
        let merged = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any]
        #expect((merged?["assignments"] as? [String: String])?["e1__0"] == "auto", "the earlier assignment is kept: \(lines[1])")
        #expect((merged?["assignments"] as? [String: String])?.count == 2)
        // A document written by hand without its newline is a document: a save adds the newline.
        try String(whole.dropLast()).write(toFile: sticky, atomically: true, encoding: .utf8)
        #expect(try RemixProcess.run(["assign", Self.file(folder, "e3"), "--attributes", #"{"id":"bo"}"#, "--sticky", sticky],
                                     in: Self.root).status == 0)
        #expect(try Self.lastLines(sticky).keys.sorted() == ["ana", "bo"])
        // Anything else that is no document is still an error naming its line.
        try (whole + "not a document").write(toFile: sticky, atomically: true, encoding: .utf8)
        let bad = try RemixProcess.run(["assign", Self.file(folder, "e3"), "--attributes", #"{"id":"bo"}"#, "--sticky", sticky],
                                       in: Self.root)
        #expect(bad.status == 1 && bad.stderr.contains("\(sticky):2:1: error: not a sticky-bucket document"), "\(bad.stderr)")
    }

    /// A folder, a device or a missing folder as `--sticky` says what it is, before any work.
    @Test func aStickyPathThatIsNoFileSaysWhatItIs() throws {
        let folder = try Self.folder()
        let cases = [(folder.location, "is a folder, not a file of sticky-bucket documents"),
                     ("/dev/null", "is a character device, not a file of sticky-bucket documents"),
                     (folder.path("nowhere/sticky.jsonl"), "its folder \(folder.path("nowhere")) does not exist")]
        for (path, says) in cases {
            for command in [["assign", Self.file(folder, "e1"), "--attributes", #"{"id":"ana"}"#],
                            ["simulate", "--users", "5", "--no-report", "--log", folder.path("log.jsonl")]] {
                let result = try RemixProcess.run(command + ["--sticky", path], in: Self.root)
                #expect(result.status == 1 && result.stderr.contains(says), "\(command[0]) \(path): \(result.stderr)")
                #expect(!result.stderr.contains("check its permissions"))
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("log.jsonl")), "simulate stopped before its run")
    }
}

/// The event store's sticky-bucket table under the same concurrent writers, and its messages.
@Suite(.enabled(if: StoreServer.shouldRun, StoreServer.skipReason))
struct StickyBucketTableSharingTests {
    /// The same 24 writers into the table: every assignment is kept, and the table holds what the
    /// file's last lines hold (both merge per user).
    @Test func concurrentAssignsToTheTableMeanWhatTheFileMeans() async throws {
        try await StoreAnalysisTests.withOwnStore { url in
            let folder = try StickyBucketSharingTests.folder()
            let assigned = try StickyBucketSharingTests.assignAtOnce(folder, sticky: url)
            let sticky = folder.path("sticky.jsonl")
            _ = try StickyBucketSharingTests.assignAtOnce(folder, sticky: sticky)
            let store = try await PostgresStore.connect(try StoreURL(parsing: url))
            var stored: [String: [String: String]] = [:]
            do {
                let rows = try await store.run(PostgresQuery(unsafeSQL: "SELECT attribute_value, assignments::text FROM remix_sticky_buckets"))
                for try await (user, json) in rows.decode((String, String).self) {
                    stored[user] = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
                }
            } catch {
                await store.close()
                throw error
            }
            await store.close()
            #expect(stored == assigned)
            #expect(try StickyBucketSharingTests.lastLines(sticky) == stored)
        }
    }

    /// A database that takes no writes and an id PostgreSQL cannot hold are plain messages that
    /// say what to do, not the server's SQLSTATE.
    @Test func aReadOnlyDatabaseAndANULInAnIdAreNamed() async throws {
        try await StoreAnalysisTests.withOwnStore { url in
            let folder = try StickyBucketSharingTests.folder()
            let root = StickyBucketSharingTests.root
            let assign = ["assign", StickyBucketSharingTests.file(folder, "e1"), "--attributes", #"{"id":"ana"}"#]
            #expect(try RemixProcess.run(assign + ["--sticky", url], in: root).status == 0, "the table is made")
            let readOnly = url + "%20-c%20default_transaction_read_only%3Don"
            // A user without a document yet: the assignment is to be written.
            let newUser = ["assign", StickyBucketSharingTests.file(folder, "e1"), "--attributes", #"{"id":"bo"}"#]
            for command in [newUser + ["--sticky", readOnly],
                            ["simulate", "--users", "5", "--no-report", "--log", readOnly]] {
                let result = try RemixProcess.run(command, in: root)
                #expect(result.status == 1, "\(command[0]): \(result.stdout)")
                #expect(result.stderr.contains("is read-only for user") && result.stderr.contains("give the URL of a server that takes writes"),
                        "\(command[0]): \(result.stderr)")
            }
            let nul = try RemixProcess.run(["assign", StickyBucketSharingTests.file(folder, "e1"), "--attributes", #"{"id":"a\u0000b"}"#, "--sticky", url],
                                           in: root)
            #expect(nul.status == 1 && nul.stderr.contains("the value of the attribute 'id' holds a NUL character"), "\(nul.stderr)")
            #expect(!nul.stderr.contains("22021"))
        }
    }
}
