import Foundation
@testable import RemixReports
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import RemixAnalysis
import RemixLogReader
import Testing

/// `--format html`: one page that parses as XML, fetches nothing, escapes what the log says and
/// shows every figure as the JSON report has it, rounded as displayed.
@Suite struct HTMLReportTests {
    /// The report of a small simulated log with the shipped experiments, over days and by platform.
    static let simulated: Result<AnalysisReport, any Error> = Result {
        var options = AnalysisOptions(logs: [try AnalysisFixture.simulatedLog(sessions: 600)],
                                      definitions: AnalysisFixture.shippedDefinitions(), jobs: 2)
        options.by = .day
        options.dimension = "platform"
        return try Analyzer.run(options)
    }

    @Test func theWholePageParsesAsXMLAndEveryChartSaysWhatItShows() throws {
        let report = try Self.simulated.get()
        let page = try HTMLDocument(HTMLReport.render(report))
        #expect(page.elements.first?.name == "html")
        let charts = page.elements.filter { $0.name == "svg" }
        #expect(charts.count >= 4 * report.experiments.count)
        for chart in charts {
            #expect(chart.children.prefix(2).map(\.name) == ["title", "desc"])
            #expect(chart.children.dropFirst().first.map { !$0.text.isEmpty } == true)
        }
        #expect(!report.log.runs.isEmpty)
        for experiment in report.experiments {
            #expect(page.text.contains(experiment.key))
        }
    }

    @Test func everyFigureIsTheJSONReportsRoundedAsShown() throws {
        let report = try Self.simulated.get()
        let page = try HTMLDocument(HTMLReport.render(report))
        let json = try JSONSerialization.jsonObject(with: Data(JSONReport.render(report).utf8))
        let figures = page.elements.filter { $0.attributes["data-json"] != nil }
        #expect(figures.count > 100)
        for figure in figures {
            let pointer = figure.attributes["data-json"] ?? ""
            let format = try #require(HTMLNumber(rawValue: figure.attributes["data-fmt"] ?? ""), "\(pointer)")
            let value = try #require(Self.resolve(pointer, in: json), "\(pointer) is not in the JSON report")
            let number = (value as? NSNumber)?.doubleValue ?? .nan
            #expect(figure.text == format.text(number), "\(pointer)")
        }
        for field in ["expected", "ci/0", "pValueAdjusted", "chanceToWin", "units", "rate", "share", "medianSeconds", "srmPValue"] {
            #expect(figures.contains { $0.attributes["data-json"]?.hasSuffix(field) == true }, "\(field)")
        }
    }

    @Test func nothingIsFetched() throws {
        let html = HTMLReport.render(try Self.simulated.get())
        let page = try HTMLDocument(html)
        for element in page.elements {
            for name in ["src", "href", "xlink:href", "action", "data"] {
                if let link = element.attributes[name] { #expect(link.hasPrefix("#"), "\(element.name) \(name)=\(link)") }
            }
        }
        for fetching in ["<script", "<link", "<img", "<iframe", "url(", "@import", "http://", "https://"] {
            #expect(!html.contains(fetching), "\(fetching)")
        }
    }

    @Test func whatTheLogSaysIsEscaped() throws {
        let key = #"<script>x</script>&"'"#
        let quoted = #"<script>x</script>&\"'"#  // the key as a JSON string's content
        let lines = [AnalysisFixture.exposure("a", quoted, "<u>control</u>", id: 0, at: 1),
                     AnalysisFixture.exposure("b", quoted, #"treat\"ment&"#, id: 1, at: 2),
                     AnalysisFixture.event("a", "<i>bought</i>", at: 3),
                     #"{"ts":"2026-11-23T08:00:00.000Z","type":"run","session":"","user":"","version":"<v>","app":"m&m","seed":"1","users":2,"shard":"1/1","sources":[{"role":"population","path":"/tmp/<p>.yaml","hash":"ab&"}]}"#]
        var options = AnalysisOptions(logs: [try AnalysisFixture.log(lines)], metrics: ["<i>bought</i>"], jobs: 1)
        options.readExperimentFiles = true
        let report = try Analyzer.run(options)
        let html = HTMLReport.render(report)
        let page = try HTMLDocument(html)
        #expect(!html.contains("<script") && !html.contains("<u>") && !html.contains("<i>") && !html.contains("<v>"))
        #expect(page.text.contains(key) && page.text.contains("<u>control</u>") && page.text.contains(#"treat"ment&"#))
        #expect(page.text.contains("<i>bought</i>") && page.text.contains("/tmp/<p>.yaml") && page.text.contains("m&m"))
        #expect(page.text.contains("No experiment file"))
    }

    @Test func bannersSayWhatMustNotBeMissed() throws {
        let lines = [AnalysisFixture.exposure("a", "e", "control", id: 0, at: 1),
                     AnalysisFixture.exposure("a", "e", "treatment", id: 1, at: 2),
                     AnalysisFixture.exposure("b", "e", "control", id: 0, at: 3),
                     AnalysisFixture.exposure("c", "e", "treatment", id: 1, at: 4),
                     "not json", #"{"ts":"2026-11-23T09:00:05.000Z","type":"exp"#]
        var options = AnalysisOptions(logs: [try AnalysisFixture.log(lines, torn: true)], metrics: ["bought"], jobs: 1)
        options.readExperimentFiles = true
        let report = try Analyzer.run(options)
        let text = try HTMLDocument(HTMLReport.render(report)).text
        for banner in ["Bad log lines", "Torn final line", "Multiple exposures", "No experiment file",
                       "No run records", "--by day"] {
            #expect(text.contains(banner), "\(banner)")
        }
    }

    /// The funnel shows every screen any variation reached, not only the baseline's: a toast only
    /// the treatment shows (AutoGroupInsertion's) has its bar.
    @Test func theFunnelShowsTheScreensOfEveryVariation() throws {
        var lines: [String] = []
        for index in 0..<20 {
            let user = "u\(index)", arm = index % 2
            lines.append(AnalysisFixture.exposure(user, "e", arm == 0 ? "control" : "treatment", id: arm, at: 1))
            lines.append(AnalysisFixture.event(user, "screen", at: 2, extra: #","screen":"groups""#))
            if arm == 1 { lines.append(AnalysisFixture.event(user, "screen", at: 3, extra: #","screen":"toast(Autoselecting group...)""#)) }
        }
        let report = try Analyzer.run(AnalysisOptions(logs: [try AnalysisFixture.log(lines)], metrics: ["bought"], jobs: 1))
        #expect(HTMLExperimentSection.funnelScreens(report.experiments[0].variations) == ["groups", "toast"])
        let page = try HTMLDocument(HTMLReport.render(report))
        let funnel = try #require(page.elements.first { $0.name == "svg" && $0.children.first?.text.hasPrefix("Share of each") == true })
        #expect(funnel.text.contains("toast") && funnel.text.contains("groups"))
        let bars = page.elements.compactMap { $0.attributes["data-json"] }.filter { $0.contains("/funnel/") }
        #expect(bars.sorted() == ["/experiments/0/variations/0/funnel/groups/share", "/experiments/0/variations/1/funnel/groups/share",
                                  "/experiments/0/variations/1/funnel/toast/share"])
    }

    @Test(arguments: [1, 2]) func runRecordsAreReadUpToTheirLimit(jobs: Int) throws {
        let run = { (index: Int) in
            #"{"ts":"2026-11-23T08:00:00.000Z","type":"run","session":"","user":"","version":"0.9","app":"marketplace","seed":"\#(index)","users":10,"shard":"1/1","userIndices":[0,10],"sources":[{"role":"population","path":"p.yaml","hash":"h\#(index)"}]}"#
        }
        var lines: [String] = (0..<70).map(run)
        lines += (0..<200).map { (user: Int) -> String in
            AnalysisFixture.exposure("u\(user)", "e", user % 2 == 0 ? "control" : "treatment", id: user % 2, at: 5)
        }
        var options = AnalysisOptions(logs: [try AnalysisFixture.log(lines)], metrics: ["bought"], jobs: jobs)
        options.readSizes = LogReader.Sizes(chunk: 301, parallelMinimum: 64, maxLineLength: 1 << 20)
        let report = try Analyzer.run(options)
        #expect(report.log.runs.count == AnalysisReport.runRecordLimit)
        let seeds: [String] = report.log.runs.map(\.seed)
        let expectedSeeds: [String] = (0..<AnalysisReport.runRecordLimit).map { (index: Int) -> String in String(index) }
        #expect(seeds == expectedSeeds)
        let expectedSources: [AnalysisReport.RunRecord.Source] = [.init(role: "population", path: "p.yaml", hash: "h0")]
        #expect(report.log.runs.first?.sources == expectedSources)
        #expect(report.log.runs.first?.users == 10 && report.log.badLines == 0)
        #expect(JSONReport.render(report).contains(#""runs":[{"ts":"2026-11-23T08:00:00.000Z","version":"0.9","app":"marketplace","seed":"0","users":10,"#))
    }

    /// The value a JSON Pointer names in `json`.
    static func resolve(_ pointer: String, in json: Any) -> Any? {
        var value: Any? = json
        for raw in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let name = raw.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if let array = value as? [Any], let index = Int(name), array.indices.contains(index) {
                value = array[index]
            } else if let object = value as? [String: Any] {
                value = object[name]
            } else {
                return nil
            }
        }
        return value
    }
}

/// A page read with Foundation's XML parser: every element with its attributes, children and text.
final class HTMLDocument: NSObject, XMLParserDelegate {
    final class Element {
        let name: String
        let attributes: [String: String]
        var children: [Element] = []
        var text = ""

        init(name: String, attributes: [String: String]) {
            self.name = name
            self.attributes = attributes
        }
    }

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    private(set) var elements: [Element] = []
    private(set) var text = ""
    private var open: [Element] = []

    init(_ html: String) throws {
        super.init()
        let parser = XMLParser(data: Data(html.utf8))
        parser.delegate = self
        guard parser.parse() else {
            throw Malformed(description: "line \(parser.lineNumber): \(parser.parserError.map(String.init(describing:)) ?? "?")")
        }
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        let element = Element(name: name, attributes: attributes)
        open.last?.children.append(element)
        elements.append(element)
        open.append(element)
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        open.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        for element in open { element.text += string }
        text += string
    }
}
