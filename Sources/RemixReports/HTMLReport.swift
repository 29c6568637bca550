import RemixAnalysis

/// The report as one self-contained HTML page: inline style and SVG charts, no script and nothing
/// fetched, readable on a phone, printed, and in light or dark mode. The markup is also
/// well-formed XML, and every figure names the JSON report's field it shows (`data-json`, a JSON
/// Pointer into `--format json`, with `data-fmt` saying how it is rounded).
package enum HTMLReport {
    /// Renders `report` as an HTML page.
    package static func render(_ report: AnalysisReport) -> String {
        var page = HTMLPage(report: report)
        page.build()
        return page.out
    }
}

/// Builds the page: the summary and log-wide banners, a section per experiment, then the log
/// and what produced it.
struct HTMLPage {
    let report: AnalysisReport
    var out = ""

    init(report: AnalysisReport) {
        self.report = report
    }

    /// How effects are shown: relative lifts as signed percents, absolute differences as figures.
    var effect: HTMLNumber { report.settings.difference == .absolute ? .signedFigure : .signedPercent }
    var relative: Bool { report.settings.difference != .absolute }

    static func escape(_ text: String) -> String { HTMLStyle.escape(text) }

    mutating func build() {
        let keys = report.experiments.map(\.key)
        out += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>"
            + "<title>\(Self.escape("Remix report: " + (keys.isEmpty ? "no experiments" : keys.joined(separator: ", "))))</title>"
            + "<style>\n\(HTMLStyle.css)\n</style></head>\n<body>\n"
        out += "<header><h1>Experiment report</h1><p class=\"muted\">\(summary())</p></header>\n"
        logBanners()
        if report.experiments.count > 1 {
            out += "<nav><p>Experiments: " + report.experiments.enumerated().map { index, experiment in
                "<a href=\"#experiment-\(index)\">\(Self.escape(experiment.key))</a>"
            }.joined(separator: " · ") + "</p></nav>\n"
        }
        for (index, experiment) in report.experiments.enumerated() {
            var section = HTMLExperimentSection(page: self, experiment: experiment, pointer: JSONPointer()("experiments", index))
            out += "<section id=\"experiment-\(index)\">" + section.build(title: experiment.key) + "</section>\n"
        }
        logSection()
        out += "<footer><p class=\"note\">Written by remix analyze. Every figure is the JSON report's (--format json) as "
            + "rounded here; its field is named in the page source (data-json).</p></footer>\n</body></html>\n"
    }

    /// The line under the heading: the log, the test and its settings.
    private func summary() -> String {
        let log = report.log
        var parts = ["\(report.experiments.count) experiment\(report.experiments.count == 1 ? "" : "s")",
                     "log: " + HTMLNumber.grouped.element(Double(log.lines), JSONPointer()("log", "lines")) + " lines in "
                        + (log.isStore ? "the event store <code>\(Self.escape(log.files[0]))</code>, "
                            : "\(log.files.count) file\(log.files.count == 1 ? "" : "s"), ")
                        + HTMLNumber.grouped.element(Double(log.badLines), JSONPointer()("log", "badLines")) + " bad"]
        let correction = report.correction == .none ? "unadjusted" : (report.correction == .holm ? "Holm" : "BH") + "-adjusted"
        parts.append("α = \(report.alpha), \(correction) p\(Self.escape(TableReport.describe(report.settings)))")
        if relative { parts.append("effects are relative lifts (+1.0% = 1 % above the baseline)") }
        return parts.joined(separator: " · ")
    }

    /// Problems with the log as a whole, above every experiment.
    private mutating func logBanners() {
        let log = report.log
        if log.badLines > 0 {
            let first = log.firstBadLines.map(\.description).joined(separator: "; ")
            out += banner("Bad log lines", "\(TableReport.grouped(log.badLines)) line(s) are not events and were skipped"
                          + (first.isEmpty ? "" : " (first: \(first))"), alert: true)
        }
        if log.tornFinalLine {
            out += banner("Torn final line", "the final line of \(log.tornFiles.joined(separator: ", ")) is cut short "
                          + "(the writer stopped mid-line)", alert: true)
        }
        for warning in log.warnings { out += banner("Warning", warning) }
        if report.experiments.isEmpty {
            out += banner("No experiments", "no exposures in the log (an exposure needs inExperiment and hashUsed): nothing to compare")
        }
        for absent in report.notRunning { out += banner("Not in this log", "not running: \(absent.key) (\(absent.reason))") }
    }

    /// A box that must not be missed: a label and a message (escaped here).
    func banner(_ label: String, _ message: String, alert: Bool = false) -> String {
        "<div class=\"banner\(alert ? " alert" : "")\" role=\"\(alert ? "alert" : "note")\"><strong>\(Self.escape(label))</strong>: "
            + Self.escape(message) + "</div>\n"
    }

    /// The log's files and lines, and its run records: what produced the events.
    private mutating func logSection() {
        let log = report.log
        let pointer = JSONPointer()("log")
        out += "<section id=\"log\"><h2>The log and what produced it</h2>\n<div class=\"scroll\"><table>"
        out += "<tr><th class=\"text\">files</th><td class=\"text\">"
            + log.files.map { "<code>\(Self.escape($0))</code>" }.joined(separator: "<br/>") + "</td></tr>"
        out += "<tr><th class=\"text\">lines</th><td class=\"text\">" + HTMLNumber.grouped.element(Double(log.lines), pointer("lines"))
            + "</td></tr><tr><th class=\"text\">bad lines</th><td class=\"text\">"
            + HTMLNumber.grouped.element(Double(log.badLines), pointer("badLines"))
            + (log.firstBadLines.isEmpty ? "" : " — first: " + Self.escape(log.firstBadLines.map(\.description).joined(separator: "; ")))
            + "</td></tr>"
        if log.tornFinalLine {
            out += "<tr><th class=\"text\">torn final line</th><td class=\"text\">" + Self.escape(log.tornFiles.joined(separator: ", "))
                + "</td></tr>"
        }
        out += "</table></div>\n<h3>Run records</h3>\n"
        guard !log.runs.isEmpty else {
            out += "<p class=\"note\">No run records in the log: a log written by remix simulate starts each run (or shard) "
                + "with one, naming its version, app, seed, users and input files.</p></section>\n"
            return
        }
        var table = HTMLTable([HTMLTable.Column("time", isText: true), HTMLTable.Column("version", isText: true),
                               HTMLTable.Column("app", isText: true), HTMLTable.Column("seed"), HTMLTable.Column("users"),
                               HTMLTable.Column("shard"), HTMLTable.Column("sources (role: path, hash)", isText: true)])
        for (index, run) in log.runs.enumerated() {
            let sources = run.sources.map { source in
                Self.escape(source.role) + ": <code>\(Self.escape(source.path))</code> <code>\(Self.escape(source.hash))</code>"
            }
            table.add([Self.escape(run.timestamp), Self.escape(run.version), Self.escape(run.app), Self.escape(run.seed),
                       run.users.map { HTMLNumber.grouped.element(Double($0), pointer("runs", index, "users")) } ?? "-",
                       Self.escape(run.shard), sources.joined(separator: "<br/>")])
        }
        out += table.html
        if log.runs.count == AnalysisReport.runRecordLimit {
            out += "<p class=\"note\">The first \(AnalysisReport.runRecordLimit) run records are shown.</p>"
        }
        out += "</section>\n"
    }
}
