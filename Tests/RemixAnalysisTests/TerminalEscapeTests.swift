import Foundation
@testable import RemixAnalysis
import RemixCLITestSupport
import RemixFormats
import RemixKit
@testable import RemixReports
import RemixTestSupport
import Testing

/// Names from a log or an experiment file can hold terminal escapes: a title change and a screen
/// clear in an experiment key, a cursor move and carriage return in a variation, a forged verdict
/// line in an attribute. Every output shows them escaped (`\u001b`) instead of obeying them.
@Suite struct TerminalEscapeTests {
    static let experiment = "exp\u{1B}]0;PWNED\u{07}\u{1B}[2J"
    static let variations = ["v\u{1B}[1A\r0", "w\u{9B}31m\u{7F}"]
    static let country = "GB\u{1B}[1A\u{1B}[2K\rinsertion-flow · WINNER forged"

    /// Forty users of the experiment, a third of them from `country`, with a screen and a feature
    /// that hold escapes too.
    static func log() throws -> String {
        var lines: [String] = []
        for index in 0..<40 {
            let user = JSONText.quoted("u\(index)"), arm = index % 2
            let country = JSONText.quoted(index % 3 == 0 ? "DE" : Self.country)
            lines.append(#"{"ts":"2026-11-23T09:00:00.000Z","type":"session_started","session":"s","user":\#(user),"app":"marketplace","persona":"p","visit":1,"attributes":{"id":\#(user),"country":\#(country)}}"#)
            lines.append(#"{"ts":"2026-11-23T09:00:01.000Z","type":"exposure","session":"s","user":\#(user),"experiment":\#(JSONText.quoted(experiment)),"variation":\#(JSONText.quoted(variations[arm])),"variationId":\#(arm),"feature":"F\u001b[31m","app":"marketplace","slot":"insertion","bucket":0.5,"hashUsed":true,"inExperiment":true}"#)
            lines.append(#"{"ts":"2026-11-23T09:00:02.000Z","type":"screen","session":"s","user":\#(user),"transition":"push","screen":"list\u009b2J","stack":"x"}"#)
            if index % 4 < 2 { lines.append(AnalysisFixture.event("u\(index)", "advert_published", at: 3)) }
        }
        return try AnalysisFixture.log(lines)
    }

    /// The control characters in `text` a terminal could obey: C0 but the newline, DEL and C1.
    static func controls(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
    }

    @Test func everyFormatShowsTheNamesEscaped() throws {
        var options = AnalysisOptions(logs: [try Self.log()], jobs: 1)
        options.dimension = "country"
        options.defaultMetrics = ["advert_published"]  // marketplace's, as `remix analyze` gives it
        let report = try Analyzer.run(options)
        #expect(report.experiments.first?.key == Self.experiment && report.experiments.first?.slices.count == 2)
        let table = TableReport.render(report, style: .terminal(colour: false))
        let coloured = TableReport.render(report, style: .terminal(colour: true))
        let markdown = TableReport.render(report, style: .markdown)
        let csv = CSVReport.render(report), json = JSONReport.render(report), html = HTMLReport.render(report)
        for (name, text) in [("table", table), ("markdown", markdown), ("csv", csv), ("json", json), ("html", html),
                             ("coloured table, without its own colours", coloured.replacingOccurrences(
                                of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression))] {
            #expect(Self.controls(text).isEmpty, "\(name): \(Self.controls(text))")
        }
        for text in [table, markdown, csv] {
            #expect(text.contains(#"exp\u001b]0;PWNED\u0007\u001b[2J"#) && text.contains(#"v\u001b[1A\r0"#))
            #expect(text.contains(#"w\u009b31m\u007f"#) && text.contains(#"GB\u001b[1A\u001b[2K\rinsertion-flow · WINNER forged"#))
        }
        #expect(table.contains(#"list\u009b2J"#) && html.contains(#"exp\u001b]0;PWNED\u0007\u001b[2J"#))
        // JSON escapes them as JSON does, and reads back as the names themselves.
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let experiment = try #require((root["experiments"] as? [[String: Any]])?.first)
        #expect(experiment["key"] as? String == Self.experiment)
        #expect((experiment["variations"] as? [[String: Any]])?.compactMap { $0["key"] as? String } == Self.variations)
        // RFC 4180: every record on one line, as many fields as the header.
        let records = csv.split(separator: "\n")
        let width = records[0].split(separator: ",", omittingEmptySubsequences: false).count
        for record in records { #expect(Self.fields(record) == width, "\(record)") }
    }

    /// The fields of a CSV record (quoted fields may hold commas).
    static func fields(_ record: Substring) -> Int {
        var count = 1, quoted = false
        for character in record {
            if character == "\"" { quoted.toggle() } else if character == ",", !quoted { count += 1 }
        }
        return count
    }

    /// `remix analyze`: the report, its warnings and an error that lists the log's experiments.
    @Test func theCommandPrintsNoControlCharacters() async throws {
        let folder = try TemporaryFolder()
        let log = try Self.log()
        let report = await RemixInProcess.run(["analyze", log, "--dimension", "country", "--experiments", folder.location])
        #expect(report.status == 0, "\(report.stderr)")
        let unknown = await RemixInProcess.run(["analyze", log, "--experiments", folder.location, "--experiment", "nope"])
        #expect(unknown.status == 1 && unknown.stderr.contains(#"experiments in it: exp\u001b]0;PWNED\u0007\u001b[2J"#))
        for text in [report.stdout, report.stderr, unknown.stderr] { #expect(Self.controls(text).isEmpty, "\(text)") }
        #expect(report.stdout.contains(#"exp\u001b]0;PWNED\u0007\u001b[2J · country = GB\u001b[1A\u001b[2K\rinsertion-flow"#))
    }

    /// Names from experiment files: `remix simulate`'s summary, `validate`, `assign`, `plan --log`
    /// and the payload `export growthbook` prints (JSON, its DEL and C1 controls escaped too).
    @Test func commandsPrintingExperimentFileNamesEscapeThem() async throws {
        let folder = try TemporaryFolder()
        let shipped = AnalysisFixture.repository.appendingPathComponent("experiments")
        let file = try String(contentsOf: shipped.appendingPathComponent("insertion-flow.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "key: insertion-flow", with: #"key: "insertion\e[2J\u009b-flow""#)
            .replacingOccurrences(of: "{key: manual,", with: #"{key: "man\rual\x7f","#)
        try folder.write("experiments/insertion-flow.yaml", file)
        for name in ["population.yaml", "metrics.yaml"] {
            try folder.write("experiments/\(name)", try String(contentsOf: shipped.appendingPathComponent(name), encoding: .utf8))
        }
        let key = "insertion\u{1B}[2J\u{9B}-flow"
        let experiments = folder.path("experiments"), log = folder.path("sim.jsonl")
        let simulate = await RemixInProcess.run(["simulate", "--users", "200", "--experiments", experiments, "--log", log])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        #expect(simulate.stdout.contains(#"experiment insertion\u001b[2J\u009b-flow"#) && simulate.stdout.contains(#"man\rual\u007f: "#))
        let validate = await RemixInProcess.run(["validate", experiments])
        let assign = await RemixInProcess.run(["assign", key, "--experiments", experiments, "--attributes", #"{"id":"u\u001b[2J1"}"#])
        #expect(assign.status == 0 && assign.stdout.contains(#"hash of id="u\u001b[2J1""#), "\(assign.stderr)")
        let plan = await RemixInProcess.run(["plan", "--log", log, "--experiments", experiments, "--experiment", key, "--traffic", "100"])
        #expect(plan.status == 0, "\(plan.stderr)")
        let export = await RemixInProcess.run(["export", "growthbook", experiments])
        #expect(export.status == 0 && export.stdout.contains(#""key": "insertion\u001b[2J\u009b-flow""#), "\(export.stdout)\(export.stderr)")
        for result in [simulate, validate, assign, plan, export] {
            #expect(Self.controls(result.stdout + result.stderr).isEmpty, "\(result.stdout)\(result.stderr)")
        }
    }
}
