import Foundation
@testable import RemixAnalysis
@testable import RemixReports
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

    /// Whether the browser test runs: with a browser, or under CI (to fail there).
    static var shouldRun: Bool { path != nil || RequiredUnderCI.holds() }

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
    /// Run in the page once it is laid out: every element (but a chart's inner marks) that leaves
    /// the screen, the page wider than the screen, and every box that scrolls sideways, as a JSON
    /// list in the attribute `data-overflow-WIDTH` of the enclosing page.
    static let overflowProbe = """
        <script>(function () {
          const found = [], width = document.documentElement.clientWidth;
          if (document.documentElement.scrollWidth > width + 1) found.push("the page is " + document.documentElement.scrollWidth + " px wide");
          for (const element of document.querySelectorAll("body *")) {
            if (element.closest("svg") && element.tagName.toLowerCase() !== "svg") continue;
            const name = element.tagName + "." + (element.getAttribute("class") || "") + " (" + (element.textContent || "").slice(0, 40) + ")";
            const box = element.getBoundingClientRect(), style = getComputedStyle(element);
            if (box.width > 0 && (box.right > width + 0.5 || box.left < -0.5)) found.push(name + " spans " + Math.round(box.left) + "–" + Math.round(box.right) + " px");
            if (["auto", "scroll", "hidden"].includes(style.overflowX) && element.scrollWidth > element.clientWidth + 1) found.push(name + " scrolls sideways");
          }
          parent.document.documentElement.setAttribute("data-overflow-" + width, JSON.stringify(found));
        })();</script>
        """

    /// At a desktop's 1280 px and a phone's 390 px nothing leaves the screen or scrolls sideways:
    /// wide tables once ran past 1280 px, and the forest plot past a phone's screen. (Headless
    /// Chromium's window is at least 500 px wide, so each width is an iframe of the page.)
    @Test func theReportFitsA1280AndA390PixelScreen() throws {
        let report = try HTMLReportTests.simulated.get()
        let page = HTMLReport.render(report).replacingOccurrences(of: "</body>", with: Self.overflowProbe + "</body>")
        let attribute = page.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        let widths = [1280, 390]
        let frames = widths.map { "<iframe style=\"border:0;display:block;width:\($0)px;height:900px\" srcdoc=\"\(attribute)\"></iframe>" }
        let folder = try AnalysisFixture.folder()
        let wrapper = folder.appendingPathComponent("widths.html")
        try ("<!DOCTYPE html><html><body style=\"margin:0\">" + frames.joined() + "</body></html>")
            .write(to: wrapper, atomically: true, encoding: .utf8)
        let dom = try HeadlessBrowser.run(["--window-size=1400,2000", "--dump-dom", wrapper.absoluteString],
                                          profile: folder.appendingPathComponent("profile"))
        for width in widths {
            let pattern = "data-overflow-\(width)=\""
            let start = try #require(dom.range(of: pattern), "the probe did not run at \(width) px")
            let value = dom[start.upperBound...].prefix { $0 != "\"" }
            let json = value.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
            let found = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String])
            #expect(found.isEmpty, "at \(width) px: \(found.prefix(12).joined(separator: "; "))")
        }
    }

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
