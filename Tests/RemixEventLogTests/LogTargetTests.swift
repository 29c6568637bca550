import Foundation
import RemixEventLog
import RemixTestSupport
import Testing

/// Where a log may be written: never over a file that is not a log (that it is no input of the run
/// is `OutputCheckTests`'), and an append onto a torn log starts on a line of its own.
@Suite struct LogTargetTests {
    static func contents(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }

    @Test func aNewFileOrAnEventLogMayBeWritten() throws {
        let folder = try TemporaryFolder()
        #expect(LogTarget.problem(path: folder.path("new.jsonl"), replacing: true) == nil)
        let log = try folder.write("old.jsonl", "{\"ts\":\"2026-11-23T09:00:00.000Z\",\"type\":\"run\"}\n")
        #expect(LogTarget.problem(path: log, replacing: true) == nil)
        let empty = try folder.write("empty.jsonl", "")
        #expect(LogTarget.problem(path: empty, replacing: true) == nil)
    }

    @Test func aFileThatIsNotALogIsNotReplaced() throws {
        let folder = try TemporaryFolder()
        let notes = try folder.write("README.md", "# Notes\n")
        #expect(LogTarget.problem(path: notes, replacing: true)
                == "refusing to replace \(notes): it does not look like an event log (its first line is not a JSON "
                + "object); remove it first or choose another --log")
        // Appending would mix events into a file that is not a log: refused too.
        #expect(LogTarget.problem(path: notes, replacing: false)
                == "refusing to append to \(notes): it does not look like an event log (its first line is not a JSON "
                + "object); choose another --log")
    }

    @Test func appendingOntoATornLogStartsANewLine() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("events.jsonl", "{\"ts\":\"2026-11-23T09:00:00.000Z\",\"type\":\"a\"}\n{\"ts\":\"2026-11-2")
        let file = try JSONLinesFile(path: path)
        #expect(file.endedTorn)
        try file.append([LoggedEvent(timestamp: 0, type: "b", session: "s", user: "u", fields: [])])
        try file.close()
        let lines = Self.contents(path).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4)
        #expect(lines[1] == "{\"ts\":\"2026-11-2", "the torn line stays alone")
        #expect(lines[2].hasPrefix("{\"ts\":\"1970-01-01T00:00:00.000Z\",\"type\":\"b\""))
        let whole = try JSONLinesFile(path: path)
        #expect(!whole.endedTorn, "a log that ends on a newline is appended to as it is")
        try whole.close()
        #expect(Self.contents(path).split(separator: "\n").count == 3)
    }

    @Test func replacingATornLogAddsNothing() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("events.jsonl", "{\"ts\":")
        let file = try JSONLinesFile(path: path, truncate: true)
        #expect(!file.endedTorn)
        try file.close()
        #expect(Self.contents(path).isEmpty)
    }
}
