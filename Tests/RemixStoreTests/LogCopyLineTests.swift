import Testing
@testable import RemixStore

/// One line of a file copied into a store: what makes it an event, and what makes it one the
/// store cannot hold. No server needed.
@Suite struct LogCopyLineTests {
    static func line(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func anEventLineIsAnEvent() throws {
        let event = try LogCopy.event(from: Self.line(#"{"ts":"2026-11-23T09:00:00.000Z","type":"e","session":"s","user":"u","n":1}"#)).get()
        #expect(event.type == "e" && event.user == "u" && event.fields.map(\.name) == ["n"])
    }

    /// `\u0000` is valid JSON, but PostgreSQL's `text` and `jsonb` cannot hold it: such a line is
    /// named (so the copy gives its file:line) instead of failing its whole block at the server.
    @Test(arguments: [
        #"{"ts":"2026-11-23T09:00:00.000Z","type":"e","session":"s","user":"u\u0000"}"#,
        #"{"ts":"2026-11-23T09:00:00.000Z","type":"e\u0000","session":"s","user":"u"}"#,
        #"{"ts":"2026-11-23T09:00:00.000Z","type":"e","session":"s","user":"u","title":"a\u0000b"}"#,
        #"{"ts":"2026-11-23T09:00:00.000Z","type":"e","session":"s","user":"u","k\u0000":1}"#,
        #"{"ts":"2026-11-23T09:00:00.000Z","type":"e","session":"s","user":"u","list":[{"x":"\u0000"}]}"#,
    ])
    func aNULCharacterIsNamed(text: String) {
        guard case .failure(let problem) = LogCopy.event(from: Self.line(text)) else {
            Issue.record("accepted: \(text)")
            return
        }
        #expect(problem.text.contains("NUL character (\\u0000)"), "\(problem.text)")
    }

    /// A NUL byte as such is not JSON at all: named like any line that is not an event.
    @Test func aRawNULByteIsNamedToo() {
        var line = Self.line(#"{"ts":"2026-11-23T09:00:00.000Z","type":"e","session":"s","user":"u","title":"ab"}"#)
        line.insert(0, at: line.count - 3)
        guard case .failure = LogCopy.event(from: line) else {
            Issue.record("accepted a line with a NUL byte")
            return
        }
    }
}
