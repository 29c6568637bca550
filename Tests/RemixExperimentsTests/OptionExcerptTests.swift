import Foundation
import RemixCLITestSupport
import RemixTestSupport
import Testing

/// A bad option value of any length is quoted by its start and its length (``Excerpt``), so the
/// message stays one readable line instead of echoing a 10 kB value into the terminal.
@Suite struct OptionExcerptTests {
    static let huge = "z" + String(repeating: "x", count: 10_000)

    /// Each command with `HUGE` where the 10 001-character value goes.
    @Test(arguments: [
        ["analyze", "events.jsonl", "--phase", "HUGE"],
        ["analyze", "events.jsonl", "--dimension", "HUGE!"],
        ["plan", "--simulate", "--experiment", "insertion-flow", "--sizes", "HUGE"],
        ["fit", "events.jsonl", "--personas", "HUGE"],
    ])
    func aHugeBadValueIsQuotedAsAShortExcerpt(arguments: [String]) async throws {
        let result = await RemixInProcess.run(arguments.map { $0.replacingOccurrences(of: "HUGE", with: Self.huge) }, input: "")
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(result.stderr.count < 400 && result.stderr.contains("characters"), "\(result.stderr.prefix(400))")
        #expect(result.stderr.contains("'z" + String(repeating: "x", count: 59) + "…', 10,00"), "\(result.stderr.prefix(400))")
    }
}
