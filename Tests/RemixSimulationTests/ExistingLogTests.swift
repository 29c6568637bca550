import Foundation
import RemixTestSupport
import Testing

/// `remix simulate` over a log that is already there: the log of an earlier simulate is replaced,
/// saying so (the README's command runs twice in a row); events it did not write are kept unless
/// --overwrite says to replace them, and the refusal names --overwrite, --append and --log.
@Suite struct ExistingLogTests {
    static func simulate(_ log: String, _ more: [String] = []) async -> Remix.Result {
        await Remix.run(["simulate", "--sessions", "5", "--no-report", "--log", log] + more)
    }

    @Test func theLogOfAnEarlierSimulateIsReplacedWithANote() async throws {
        let folder = try TemporaryFolder()
        let log = folder.path("events.jsonl")
        let first = await Self.simulate(log)
        #expect(first.status == 0 && !first.stderr.contains("replac"), "\(first.stderr)")
        let written = try String(contentsOfFile: log, encoding: .utf8)
        let second = await Self.simulate(log)
        #expect(second.status == 0, "\(second.stderr)")
        // Messages wrap at the width (continuing lines indented by two spaces): read them whole.
        let messages = second.stderr.replacingOccurrences(of: "\n  ", with: " ")
        #expect(messages.contains("remix: note: replacing \(log), the log of an earlier `remix simulate` run; "
                                       + "--append adds to it instead, --log FILE writes elsewhere"), "\(second.stderr)")
        #expect(try String(contentsOfFile: log, encoding: .utf8) == written, "the same run again: the same log")
    }

    @Test(arguments: [
        // `remix run`'s record, a hand-written event, an event log without its run record.
        "{\"ts\":\"2026-11-23T09:00:00.000Z\",\"type\":\"run\",\"session\":\"\",\"user\":\"\",\"app\":\"marketplace\",\"mode\":\"terminal\"}\n",
        "{\"ts\":\"2026-11-23T09:00:00.000Z\",\"type\":\"advert_published\",\"session\":\"s\",\"user\":\"u\"}\n",
    ])
    func eventsSimulateDidNotWriteAreKeptUnlessOverwriteIsGiven(contents: String) async throws {
        let folder = try TemporaryFolder()
        let log = try folder.write("events.jsonl", contents)
        let refused = await Self.simulate(log)
        #expect(refused.status == 1 && refused.stdout.isEmpty, "\(refused.stdout)")
        #expect(refused.stderr == "remix: refusing to replace \(log): its events were not written by `remix simulate` (its first "
                + "line is no simulate run's record); give --overwrite to replace them, --append to add this run to them, or "
                + "--log FILE to write elsewhere\n", "\(refused.stderr)")
        #expect(try String(contentsOfFile: log, encoding: .utf8) == contents)
        let appended = await Self.simulate(log, ["--append"])
        #expect(appended.status == 0, "\(appended.stderr)")
        #expect(try String(contentsOfFile: log, encoding: .utf8).hasPrefix(contents))
        let replaced = await Self.simulate(log, ["--overwrite"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try !String(contentsOfFile: log, encoding: .utf8).contains(contents))
    }

    @Test func aFileThatIsNotALogNamesOverwriteToo() async throws {
        let folder = try TemporaryFolder()
        let notes = try folder.write("notes.md", "# my notes\n")
        let refused = await Self.simulate(notes)
        #expect(refused.status == 1)
        #expect(refused.stderr == "remix: refusing to replace \(notes): it does not look like an event log (its first line is "
                + "not a JSON object); give --overwrite to replace it, or --log FILE to write elsewhere\n", "\(refused.stderr)")
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "# my notes\n")
        let forced = await Self.simulate(notes, ["--overwrite"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOfFile: notes, encoding: .utf8).hasPrefix("{\"ts\""))
    }

    @Test func overwriteIsForReplacingAFile() async throws {
        let folder = try TemporaryFolder()
        let result = await Self.simulate(folder.path("e.jsonl"), ["--overwrite", "--append"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("give --overwrite or --append, not both: --overwrite replaces the log, --append adds to it"),
                "\(result.stderr)")
    }
}
