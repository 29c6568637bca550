import Foundation
import RemixTestSupport
import Testing
@testable import RemixStore

/// `remix run --log postgresql://…`: a terminal session lands in the store as one block of its own run.
@Suite(.enabled(if: StoreServer.shouldRun, StoreServer.skipReason))
struct StoreRunLogTests {
    @Test func aTerminalSessionIsStoredWithItsRunRecord() async throws {
        let url = try StoreServer.urlText()
        let result = try RemixProcess.run(["run", "--user", "u1", "--log", url], input: "5\nq\n")
        #expect(result.status == 0, "\(result.stderr)")
        let match = try #require(result.stderr.firstMatch(of: #/logged (\d+) events into .* as (terminal-t\d+-\d+)/#))
        let stored = try await StoreSimulationTests.storedTypes(String(match.2))
        #expect(stored.values.reduce(0, +) == Int(match.1))
        #expect(stored["session_started"] == 1 && stored["session_ended"] == 1 && (stored["screen"] ?? 0) >= 2, "\(stored)")
        #expect(!result.stderr.contains(URLComponents(string: url)?.password.map { ":\($0)@" } ?? "\u{0}"), "no password printed")
    }
}
