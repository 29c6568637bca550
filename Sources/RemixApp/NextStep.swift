import RemixAnalysis
import RemixFormats

/// The one `next:` line that ends the terminal report of `analyze` and `simulate`: what to do
/// with what it showed.
enum NextStep {
    /// After the report of `logs`: with no experiment, what an exposure needs; with a sample
    /// ratio mismatch, to find its cause first; else the charts. The command names the logs when
    /// the line fits `width`, else `LOG`; a line longer than `width` is wrapped.
    static func afterReport(_ report: AnalysisReport, logs: [String], width: Int?) -> String {
        if report.experiments.isEmpty { return fitted("next: docs/events.md says what an exposure needs", width) }
        if report.experiments.contains(where: { ($0.srmPValue ?? 1) < srmThreshold }) {
            return fitted("next: find the cause of the sample ratio mismatch first (docs/analysis.md)", width)
        }
        // A store's URL as the report shows it (without its password); standard input is read once.
        let logs = report.log.isStore ? report.log.files : logs.map { $0 == "-" ? "LOG" : $0 }
        return command(logs, width: width) { "remix analyze \($0) --format html --output report.html for charts" }
    }

    /// After a run written to `log` whose report was not shown (`--no-report`).
    static func afterRun(log: String, width: Int?) -> String {
        command([log], width: width) { "remix analyze \($0) for the report" }
    }

    /// `next: ` and the command `text` makes of the logs (quoted where the shell needs it), or of
    /// `LOG` when that is too long for `width`.
    private static func command(_ logs: [String], width: Int?, _ text: (String) -> String) -> String {
        let line = "next: " + text(logs.map(quoted).joined(separator: " "))
        guard let width, line.count > width else { return line }
        return fitted("next: " + text("LOG"), width)
    }

    private static func fitted(_ line: String, _ width: Int?) -> String {
        width.map { TextLayout.wrap(line, width: $0).joined(separator: "\n") } ?? line
    }

    /// `path` as a shell reads it back.
    private static func quoted(_ path: String) -> String {
        path == "LOG" || path.allSatisfy { $0.isLetter || $0.isNumber || "/._-+:@%,=".contains($0) } ? path
            : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
