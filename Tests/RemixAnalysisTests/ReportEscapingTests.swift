import Foundation
@testable import RemixAnalysis
import RemixCLITestSupport
import RemixFormats
@testable import RemixReports
import RemixTestSupport
import Testing

/// What a log can smuggle into a report beyond terminal escapes: HTML into Markdown, formulas into
/// a spreadsheet, and controls that reorder or break the text around them.
@Suite struct ReportEscapingTests {
    static let experiment = "exp<img src=x onerror=alert(1)>"
    static let variations = ["<img src=x onerror=alert(2)>", "b&amp;<b>"]
    static let country = "<script>alert(3)</script>&"

    /// Forty users of `experiment` (without an experiment file, so a warning names it), a third of
    /// them from `country`.
    static func log(experiment: String = experiment, variations: [String] = variations, country: String = country) throws -> String {
        var lines: [String] = []
        for index in 0..<40 {
            let user = JSONText.quoted("u\(index)"), arm = index % 2
            let country = JSONText.quoted(index % 3 == 0 ? "DE" : country)
            lines.append(#"{"ts":"2026-11-23T09:00:00.000Z","type":"session_started","session":"s","user":\#(user),"app":"marketplace","persona":"p","visit":1,"attributes":{"id":\#(user),"country":\#(country)}}"#)
            lines.append(#"{"ts":"2026-11-23T09:00:01.000Z","type":"exposure","session":"s","user":\#(user),"experiment":\#(JSONText.quoted(experiment)),"variation":\#(JSONText.quoted(variations[arm])),"variationId":\#(arm),"feature":"F","app":"marketplace","slot":"insertion","bucket":0.5,"hashUsed":true,"inExperiment":true}"#)
            // 15 of the 20 in the first variation convert, 10 of the 20 in the second: a negative lift.
            if index % 4 < 2 || index % 8 == 2 { lines.append(AnalysisFixture.event("u\(index)", "advert_published", at: 3)) }
        }
        return try AnalysisFixture.log(lines)
    }

    static func report(_ log: String) throws -> AnalysisReport {
        var options = AnalysisOptions(logs: [log], jobs: 1)
        options.dimension = "country"
        options.defaultMetrics = ["advert_published"]
        options.readExperimentFiles = true
        var report = try Analyzer.run(options)
        report.experiments[0].rolloutTimeline = [
            RolloutDecision(experiment: experiment, time: 1_795_424_400_000, step: 1, share: 0.1, decision: .hold,
                            reason: "<img src=x onerror=alert(4)>", units: [10, 10], srmPValue: 0.5, guardrails: []),
        ]
        return report
    }

    /// Item 5: Markdown renders inline HTML, so a name from the log must not be markup there.
    @Test func markdownWritesNoMarkupFromTheLog() throws {
        let report = try Self.report(try Self.log())
        #expect(report.experiments[0].slices.contains { $0.value == Self.country })
        let markdown = TableReport.render(report, style: .markdown)
        for raw in ["<img", "<script", "<b>", "</script>"] { #expect(!markdown.contains(raw), "\(raw) in \(markdown)") }
        // Every & starts one of the escapes, so `&amp;` in a name reads as itself.
        var next = markdown.startIndex
        while let ampersand = markdown[next...].firstIndex(of: "&") {
            let rest = markdown[ampersand...]
            #expect(rest.hasPrefix("&lt;") || rest.hasPrefix("&gt;") || rest.hasPrefix("&amp;"), "\(rest.prefix(20))")
            next = markdown.index(after: ampersand)
        }
        #expect(markdown.contains("## exp&lt;img src=x onerror=alert(1)&gt;"))  // the experiment's heading
        #expect(markdown.contains("&lt;img src=x onerror=alert(2)&gt;"))  // a variation's cell
        #expect(markdown.contains("b&amp;amp;&lt;b&gt;"))
        #expect(markdown.contains("### exp&lt;img src=x onerror=alert(1)&gt; · country = &lt;script&gt;alert(3)&lt;/script&gt;&amp;"))
        #expect(markdown.contains("warning: exp&lt;img src=x onerror=alert(1)&gt;: no experiment file"))
        #expect(markdown.contains("&lt;img src=x onerror=alert(4)&gt;"))  // the rollout's reason
        // The terminal shows names as they are.
        #expect(TableReport.render(report, style: .terminal(colour: false)).contains(Self.variations[0]))
    }

    /// The CSV records of `text` (RFC 4180: quoted fields may hold commas and doubled quotes).
    static func records(_ text: String) -> [[String]] {
        text.split(separator: "\n").map { line in
            var fields = [""], quoted = false, previous: Character = " "
            for character in line {
                if character == "\"" {
                    if quoted { quoted = false } else {
                        if previous == "\"" { fields[fields.count - 1].append("\"") }
                        quoted = true
                    }
                } else if character == ",", !quoted {
                    fields.append("")
                } else {
                    fields[fields.count - 1].append(character)
                }
                previous = character
            }
            return fields
        }
    }

    /// Item 6: a cell a spreadsheet would read as a formula starts with `'` (OWASP), and is quoted;
    /// numbers, negative ones too, stay numbers.
    @Test func csvCellsAreNeverFormulas() throws {
        let variations = ["=HYPERLINK(\"http://x\",\"y\")", "+cmd|'/c calc'!A0"]
        let report = try Self.report(try Self.log(experiment: "@SUM(A1)", variations: variations, country: "-2+3"))
        let text = CSVReport.render(report)
        let records = Self.records(text)
        let header = try #require(records.first)
        #expect(records.allSatisfy { $0.count == header.count }, "\(text)")
        let cells = records.dropFirst().flatMap { $0 }
        for cell in cells where cell.first.map({ "=+-@\t\r".contains($0) }) == true {
            #expect(Double(cell) != nil, "\(cell) would be read as a formula")
        }
        #expect(cells.contains("'@SUM(A1)") && cells.contains("'=HYPERLINK(\"http://x\",\"y\")") && cells.contains("'+cmd|'/c calc'!A0"))
        #expect(cells.contains("'-2+3"))
        #expect(text.contains(#""'@SUM(A1)""#), "a neutralised cell is quoted")
        // A negative lift is a number, written as one.
        let expected = try #require(header.firstIndex(of: "expected"))
        let lift = try #require(report.experiments[0].comparisons.first?.expected)
        #expect(lift < 0 && records.contains { $0[expected] == JSONText.number(lift) }, "\(text)")
    }

    static let invisible: [Unicode.Scalar] = ["\u{202E}", "\u{2028}", "\u{2029}", "\u{85}", "\u{2066}", "\u{200F}"]

    /// The bidi and line-separator controls left in `text`.
    static func invisibleControls(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { invisible.contains($0) }
    }

    /// Item 7: a right-to-left override or a line separator from the log is shown escaped in every
    /// format, as C0 controls are.
    @Test func bidiAndLineSeparatorsAreShownEscaped() throws {
        let experiment = "exp\u{202E}txet", variations = ["a\u{2028}b", "c\u{2029}d\u{85}"]
        let report = try Self.report(try Self.log(experiment: experiment, variations: variations, country: "G\u{2066}B\u{200F}"))
        let texts = ["table": TableReport.render(report, style: .terminal(colour: false)),
                     "markdown": TableReport.render(report, style: .markdown), "csv": CSVReport.render(report),
                     "html": HTMLReport.render(report), "json": JSONReport.render(report)]
        for (name, text) in texts { #expect(Self.invisibleControls(text).isEmpty, "\(name): \(Self.invisibleControls(text))") }
        for name in ["table", "markdown", "csv", "html"] {
            let text = texts[name] ?? ""
            #expect(text.contains(#"exp\u202etxet"#) && text.contains(#"a\u2028b"#) && text.contains(#"c\u2029d\u0085"#), "\(name)")
            #expect(text.contains(#"G\u2066B\u200f"#), "\(name)")
        }
        // JSON reads back as the names themselves.
        let root = try #require(try JSONSerialization.jsonObject(with: Data((texts["json"] ?? "").utf8)) as? [String: Any])
        #expect((root["experiments"] as? [[String: Any]])?.first?["key"] as? String == experiment)
    }

    /// Item 7 at the command: the report, its warnings on standard error, and `simulate`'s summary.
    @Test func theCommandsPrintNoBidiOrLineSeparators() async throws {
        let folder = try TemporaryFolder()
        let log = try Self.log(experiment: "exp\u{202E}txet", variations: ["a\u{2028}b", "c\u{2029}d\u{85}"])
        for format in ["table", "markdown", "csv", "json"] {
            let result = await RemixInProcess.run(["analyze", log, "--format", format, "--experiments", folder.location])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(Self.invisibleControls(result.stdout + result.stderr).isEmpty, "\(format): \(result.stdout)\(result.stderr)")
            #expect((result.stdout + result.stderr).contains(#"exp\u202etxet"#), "\(format)")
        }
        let shipped = Repository.root.appendingPathComponent("experiments")
        let file = try String(contentsOf: shipped.appendingPathComponent("insertion-flow.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "key: insertion-flow", with: #"key: "insertion\u202e-flow\L""#)
            .replacingOccurrences(of: "{key: manual,", with: #"{key: "man\Pual\N","#)
        try folder.write("experiments/insertion-flow.yaml", file)
        for name in ["population.yaml", "metrics.yaml"] {
            try folder.write("experiments/\(name)", try String(contentsOf: shipped.appendingPathComponent(name), encoding: .utf8))
        }
        let simulate = await RemixInProcess.run(["simulate", "--users", "200", "--experiments", folder.path("experiments"),
                                                  "--log", folder.path("sim.jsonl")])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        #expect(simulate.stdout.contains(#"insertion\u202e-flow\u2028"#) && simulate.stdout.contains(#"man\u2029ual\u0085"#))
        #expect(Self.invisibleControls(simulate.stdout + simulate.stderr).isEmpty, "\(simulate.stdout)\(simulate.stderr)")
    }
}
