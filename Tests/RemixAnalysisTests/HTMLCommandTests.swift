import Foundation
import RemixCLITestSupport
import RemixFormats
import RemixTestSupport
import Testing

/// `remix analyze --format html` and `remix simulate --html` as a user runs them.
@Suite struct HTMLCommandTests {
    @Test func analyzeWritesThePageWhereOutputSays() async throws {
        let folder = try AnalyzeCommandTests.project(ghosts: 2)
        let result = await AnalyzeCommandTests.analyze(of: folder, ["--format", "html", "--output", folder.path("report.html")])
        let page = try String(contentsOfFile: folder.path("report.html"), encoding: .utf8)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "wrote \(folder.path("report.html")) (html, \(CountText.grouped(page.utf8.count)) bytes)\n", "\(result.stdout)")
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.hasSuffix("</html>\n"))
        #expect(page.contains(">e</h2>") && page.contains("Undeclared variations") && page.contains("advert_published"))
        #expect(result.stderr.contains("warning: e: 2 unit(s) exposed to variation(s)"))
    }

    @Test func simulateWritesTheRunsPage() async throws {
        let folder = try TemporaryFolder()
        let experiments = AnalysisFixture.repository.appendingPathComponent("experiments").path
        let result = await RemixInProcess.run(["simulate", "--users", "200", "--experiments", experiments, "--no-report",
                                               "--log", folder.path("events.jsonl"), "--html", folder.path("report.html")])
        #expect(result.status == 0, "\(result.stderr)")
        let page = try String(contentsOfFile: folder.path("report.html"), encoding: .utf8)
        #expect(page.contains(">insertion-flow</h2>") && page.contains("Run records") && page.contains(">marketplace</td>"))
        let store = await RemixInProcess.run(["simulate", "--users", "2", "--log", "postgresql://localhost/remix", "--html",
                                              folder.path("r.html")])
        #expect(store.status == 1 && store.stderr.contains("--html writes the report of a log file"))
    }
}
