import Foundation
@testable import RemixAnalysis
import RemixTestSupport
import Testing

/// Headless Chromium, for the test that the HTML report renders in a real browser:
/// `REMIX_CHROMIUM`, else `chromium` or `chromium-browser` on the PATH. Without one the test is
/// skipped, except under `CI=true`, where it fails so that CI never skips it silently.
enum HeadlessBrowser {
    static let environment = ProcessInfo.processInfo.environment

    static var path: String? {
        if let given = environment["REMIX_CHROMIUM"], !given.isEmpty { return given }
        let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser"] {
            for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        return nil
    }

    static var isCI: Bool { ["true", "1"].contains(environment["CI"]?.lowercased() ?? "") }

    /// Whether the browser test runs: with a browser, or under CI (to fail there).
    static var shouldRun: Bool { path != nil || isCI }

    static let skipReason: Comment = "no headless Chromium: install Debian's chromium (as .ci/run does) or set REMIX_CHROMIUM"

    struct Missing: Error, CustomStringConvertible {
        var description: String { "CI=true but there is no chromium: install it (apt-get install chromium, as .ci/run does)" }
    }

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs the browser headless on `arguments` (plus a profile of its own) and returns its standard output.
    static func run(_ arguments: [String], profile: URL) throws -> String {
        guard let path else { throw Missing() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                             "--user-data-dir=\(profile.path)"] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Standard error is drained on another thread so that neither pipe fills up.
        let messages = DrainedHandle(errors.fileHandleForReading)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failed(description: "chromium exited with \(process.terminationStatus): \(messages.text().suffix(2000))")
        }
        return text
    }
}

@Suite(.enabled(if: HeadlessBrowser.shouldRun, HeadlessBrowser.skipReason))
struct HTMLBrowserTests {
    /// The report of a small simulated log, rendered by Chromium: a screenshot with something on
    /// it, and a DOM that holds every experiment's key and its lifts on the primary metric.
    @Test func chromiumRendersTheReport() throws {
        let report = try HTMLReportTests.simulated.get()
        #expect(!report.experiments.isEmpty)
        let folder = try AnalysisFixture.folder()
        let page = folder.appendingPathComponent("report.html")
        try HTMLReport.render(report).write(to: page, atomically: true, encoding: .utf8)
        let screenshot = folder.appendingPathComponent("report.png")
        let profile = folder.appendingPathComponent("profile")
        _ = try HeadlessBrowser.run(["--screenshot=\(screenshot.path)", "--window-size=1200,2000", page.absoluteString],
                                    profile: profile)
        let png = try Data(contentsOf: screenshot)
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        // A blank 1200×2000 page compresses to a few kilobytes; text and charts need far more.
        #expect(png.count > 40_000, "the screenshot is \(png.count) bytes: is the page blank?")
        let dom = try HeadlessBrowser.run(["--dump-dom", page.absoluteString], profile: profile)
        #expect(dom.contains("<svg") && dom.contains("Experiment report"))
        for experiment in report.experiments {
            #expect(dom.contains(">\(experiment.key)</h2>"), "\(experiment.key)")
            let primary = experiment.variations.first?.metrics.first?.metric
            for comparison in experiment.comparisons where comparison.metric == primary {
                #expect(dom.contains(">\(TableReport.signedPercent(comparison.expected))</span>"),
                        "\(experiment.key) \(comparison.variation)")
            }
        }
    }
}
