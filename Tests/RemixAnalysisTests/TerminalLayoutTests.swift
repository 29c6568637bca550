import Foundation
@testable import RemixAnalysis
import RemixCLITestSupport
import RemixExperiments
@testable import RemixReports
import RemixTestSupport
import Testing

/// The terminal report fits the terminal: the width is the terminal's, else `$COLUMNS`, else 100,
/// and no line of standard output or error is longer; `--wide` keeps one row per variation and
/// comparison whatever the width.
@Suite struct TerminalLayoutTests {
    /// A simulated Marketplace log of the shipped experiments and its report with the shipped
    /// metrics (a rate, quantiles of times, ratios, guardrails).
    static let simulated: Result<(log: String, report: AnalysisReport), any Error> = Result {
        let log = try AnalysisFixture.simulatedLog(sessions: 1000)
        let folder = AnalysisFixture.repository.appendingPathComponent("experiments").path
        var options = AnalysisOptions(logs: [log], definitions: AnalysisFixture.shippedDefinitions(), jobs: 2)
        options.catalog = MetricsFileParser.load(folder + "/metrics.yaml").0
        options.readExperimentFiles = true
        var report = try Analyzer.run(options)
        // A comparison that gbstats cannot make, and a risk of no size, as the shipped runs show them.
        let comparisons = report.experiments[0].comparisons
        let tiny = try #require(comparisons.lastIndex(where: \.liftUndefined) ?? comparisons.indices.last)
        report.experiments[0].comparisons[tiny].risk[0] = 4.654e-83
        report.experiments[0].comparisons[tiny == 0 ? 1 : 0].clear("ZERO_NEGATIVE_VARIANCE")
        return (log, report)
    }

    static var experiments: String { AnalysisFixture.repository.appendingPathComponent("experiments").path }

    /// The lines of `text` longer than `width` characters.
    static func longLines(_ text: String, _ width: Int) -> [Substring] {
        text.split(separator: "\n").filter { $0.count > width }
    }

    /// The numbers `text` shows: counts, figures, percents, p-values.
    static func numbers(_ text: String) -> Set<String> {
        Set(text.matches(of: /[-+]?[0-9][0-9,.]*%?/).map { String($0.output).trimmingCharacters(in: CharacterSet(charactersIn: ",.")) })
    }

    @Test func theNarrowTableFitsAndCarriesEveryNumberOfTheWideOne() throws {
        let report = try Self.simulated.get().report
        let wide = TableReport.render(report, style: .terminal(colour: false))
        #expect(!Self.longLines(wide, 120).isEmpty, "today's layout: a row per variation")
        for width in [100, 80, 60] {
            let narrow = TableReport.render(report, style: .terminal(colour: false, width: width))
            #expect(Self.longLines(narrow, width).isEmpty, "\(width): \(Self.longLines(narrow, width))")
            let missing = Self.numbers(wide).subtracting(Self.numbers(narrow))
            #expect(missing.isEmpty, "\(width): \(missing.sorted())")
            let coloured = TableReport.render(report, style: .terminal(colour: true, width: width))
                .replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
            #expect(coloured == narrow)
        }
    }

    /// Units in the headers, plain words for gbstats' codes, no scientific notation for a risk.
    @Test func theTableSaysUnitsAndFlagsInWords() throws {
        let report = try Self.simulated.get().report
        for text in [TableReport.render(report, style: .terminal(colour: false)), TableReport.render(report, style: .markdown),
                     TableReport.render(report, style: .terminal(colour: false, width: 80)), HTMLReport.render(report)] {
            #expect(text.contains("time-to-publish (p50 of events, ms)") && text.contains("session-time-p90 (p90 of events, ms)"))
            #expect(!text.contains("ZERO_NEGATIVE_VARIANCE") && text.contains("no variance to test"))
            #expect(!text.contains("e-83") && text.matches(of: /[0-9]e[-+][0-9]/).isEmpty, "\(text)")
        }
        // JSON keeps the code, and the numbers.
        let json = JSONReport.render(report)
        #expect(json.contains(#""error":"ZERO_NEGATIVE_VARIANCE""#) && json.contains("4.654e-83"))
    }

    /// `remix analyze`: stdout and stderr within the width, warnings included, ending with one
    /// `next:` line; `--wide` gives today's rows.
    @Test func theCommandFitsTheColumns() async throws {
        let log = try Self.simulated.get().log
        let folder = try TemporaryFolder()
        for (columns, width) in [(nil, 100), ("80", 80), ("132", 132)] as [(String?, Int)] {
            // Without experiment files, every experiment is warned about.
            for arguments in [["--experiments", Self.experiments], ["--experiments", folder.location]] {
                let result = await RemixInProcess.run(["analyze", log] + arguments, environment: ["COLUMNS": columns])
                #expect(result.status == 0, "\(result.stderr)")
                #expect(Self.longLines(result.stdout, width).isEmpty, "\(width): \(Self.longLines(result.stdout, width))")
                #expect(Self.longLines(result.stderr, width).isEmpty, "\(width): \(Self.longLines(result.stderr, width))")
                let lines = result.stdout.split(separator: "\n")
                #expect(lines.filter { $0.hasPrefix("next: ") }.count == 1 && lines.last?.hasPrefix("next: ") == true, "\(lines.suffix(3))")
            }
        }
        // A misspelt metric: a long warning on standard error, wrapped.
        let typo = await RemixInProcess.run(["analyze", log, "--experiments", Self.experiments, "--metric", "published-first-dy"],
                                            environment: ["COLUMNS": "80"])
        #expect(typo.status == 0 && typo.stderr.contains("did you mean"), "\(typo.stderr)")
        #expect(Self.longLines(typo.stderr, 80).isEmpty && Self.longLines(typo.stdout, 80).isEmpty, "\(typo.stderr)")
        let wide = await RemixInProcess.run(["analyze", log, "--experiments", Self.experiments, "--wide"], environment: ["COLUMNS": nil])
        #expect(wide.status == 0 && !Self.longLines(wide.stdout, 150).isEmpty)
    }

    /// `remix simulate`: the summary and the report within the width, and one `next:` line.
    @Test func simulateFitsTheColumns() async throws {
        let folder = try TemporaryFolder()
        for (columns, width) in [(nil, 100), ("72", 72)] as [(String?, Int)] {
            let result = await RemixInProcess.run(["simulate", "--users", "300", "--experiments", Self.experiments,
                                                   "--log", folder.path("e\(width).jsonl")], environment: ["COLUMNS": columns])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(Self.longLines(result.stdout, width).isEmpty, "\(width): \(Self.longLines(result.stdout, width))")
            #expect(Self.longLines(result.stderr, width).isEmpty, "\(width): \(Self.longLines(result.stderr, width))")
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.filter { $0.hasPrefix("next: ") }.count == 1 && lines.last?.hasPrefix("next: ") == true, "\(lines.suffix(3))")
        }
    }

    /// A Calculator run cannot have a pre-period for its CUPED metric: a note says so, not a warning.
    @Test func cupedWithoutAPrePeriodIsANote() async throws {
        let folder = try TemporaryFolder()
        let result = await RemixInProcess.run(["simulate", "--app", "calculator", "--users", "300", "--experiments", Self.experiments,
                                               "--log", folder.path("c.jsonl")])
        #expect(result.status == 0, "\(result.stderr)")
        let all = result.stdout + result.stderr
        #expect(!all.contains("warning: calculator-entry: sums-analysed"), "\(all)")
        #expect(all.contains("note: calculator-entry: sums-analysed has no value before"), "\(all)")
        // Experiments of other apps in the folder are named, with why they are not in the log.
        #expect(result.stdout.contains("not running: insertion-flow (app marketplace"), "\(result.stdout)")
    }
}
