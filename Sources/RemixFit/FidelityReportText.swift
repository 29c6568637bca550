import Foundation
import RemixFormats
import RemixKit

/// The fidelity report as text: a table for a terminal, JSON, or one self-contained HTML page with
/// the two logs' session-length curves drawn over each other.
package enum FidelityReportText {
    package static func table(_ report: FidelityReport) -> String {
        let header = ["scope", "measure", "real", "simulated", "difference", "tolerance", ""]
        let lines = report.rows.map { row in
            [row.scope, row.measure, value(row.real, row), value(row.simulated, row), difference(row), tolerance(row.tolerance),
             row.tolerance == .none ? "" : (row.passed ? "ok" : "OUT")]
        }
        let widths = header.indices.map { column in ([header] + lines).map { $0[column].count }.max() ?? 0 }
        func render(_ cells: [String]) -> String {
            cells.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        let judged = report.rows.filter { $0.tolerance != .none }
        let summary = "\(judged.count - report.failures.count) of \(judged.count) within tolerance"
            + (report.failures.isEmpty ? "" : "; outside: " + report.failures.map { "\($0.scope) \($0.measure)" }.joined(separator: ", "))
        return ([render(header)] + lines.map(render) + ["", summary]).joined(separator: "\n") + "\n"
    }

    package static func json(_ report: FidelityReport) -> String {
        let rows = report.rows.map { row in
            "{\"scope\":\(JSONText.quoted(row.scope)),\"measure\":\(JSONText.quoted(row.measure)),"
                + "\"real\":\(JSONText.number(row.real)),\"simulated\":\(JSONText.number(row.simulated)),"
                + "\"difference\":\(JSONText.number(row.difference)),\"tolerance\":\(toleranceJSON(row.tolerance)),"
                + "\"passed\":\(row.tolerance == .none ? "null" : String(row.passed))}"
        }
        return "{\"rows\":[\n" + rows.joined(separator: ",\n") + "\n],\"failures\":\(report.failures.count)}\n"
    }

    package static func html(_ report: FidelityReport) -> String {
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        let rows = report.rows.map { row in
            let verdict = row.tolerance == .none ? "" : (row.passed ? "ok" : "<strong>OUT</strong>")
            return "<tr><td>\(escape(row.scope))</td><td>\(escape(row.measure))</td><td>\(value(row.real, row))</td>"
                + "<td>\(value(row.simulated, row))</td><td>\(difference(row))</td><td>\(tolerance(row.tolerance))</td><td>\(verdict)</td></tr>"
        }.joined(separator: "\n")
        return """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
            <title>Fidelity: real against simulated</title>
            <style>body{font:14px system-ui,sans-serif;margin:1rem;max-width:72rem}table{border-collapse:collapse;width:100%}
            td,th{padding:.2rem .5rem;border-bottom:1px solid #ddd;text-align:left;overflow-wrap:anywhere}
            svg{max-width:100%;height:auto}.real{stroke:#1f77b4}.sim{stroke:#d62728;stroke-dasharray:4 3}</style></head><body>
            <h1>Fidelity: real against simulated</h1>
            <p>\(report.rows.filter { $0.tolerance != .none }.count - report.failures.count) of \(report.rows.filter { $0.tolerance != .none }.count) figures within tolerance.</p>
            <h2>Session length, all users</h2>
            \(curves(report.durationCurves))
            <p><svg width="12" height="4"><line class="real" x1="0" y1="2" x2="12" y2="2" stroke-width="2"/></svg> real
            <svg width="12" height="4"><line class="sim" x1="0" y1="2" x2="12" y2="2" stroke-width="2"/></svg> simulated
            (share of sessions no longer than the time)</p>
            <h2>Figures</h2>
            <table><thead><tr><th>scope</th><th>measure</th><th>real</th><th>simulated</th><th>difference</th><th>tolerance</th><th></th></tr></thead>
            <tbody>
            \(rows)
            </tbody></table></body></html>

            """
    }

    /// The two cumulative curves in one SVG, time on a log scale.
    private static func curves(_ curves: (real: [(Double, Double)], simulated: [(Double, Double)])) -> String {
        let all = (curves.real + curves.simulated).map(\.0).filter { $0 > 0 }
        guard let low = all.min(), let high = all.max(), high > low else { return "<p>(no sessions)</p>" }
        let width = 640.0, height = 240.0
        func x(_ value: Double) -> Double { 40 + (width - 60) * (log(max(value, low)) - log(low)) / (log(high) - log(low)) }
        func y(_ share: Double) -> Double { height - 30 - (height - 50) * share }
        func path(_ points: [(Double, Double)]) -> String {
            points.map { String(format: "%.1f,%.1f", x($0.0), y($0.1)) }.joined(separator: " ")
        }
        let ticks = stride(from: floor(log10(low)), through: ceil(log10(high)), by: 1).map { exponent -> String in
            let value = pow(10, exponent)
            guard value >= low, value <= high else { return "" }
            return "<text x=\"\(String(format: "%.1f", x(value)))\" y=\"\(height - 10)\" font-size=\"11\">\(JSONText.number(value)) s</text>"
        }.joined()
        return """
            <svg viewBox="0 0 \(Int(width)) \(Int(height))" width="\(Int(width))" height="\(Int(height))" role="img" aria-label="session length">
            <polyline class="real" fill="none" stroke-width="2" points="\(path(curves.real))"/>
            <polyline class="sim" fill="none" stroke-width="2" points="\(path(curves.simulated))"/>
            <text x="4" y="\(y(1) + 4)" font-size="11">100%</text><text x="4" y="\(y(0.5) + 4)" font-size="11">50%</text>\(ticks)
            </svg>
            """
    }

    private static func value(_ number: Double, _ row: FidelityReport.Row) -> String {
        if row.isShare { return String(format: "%.1f %%", number * 100) }
        if row.measure == "units" { return CountText.grouped(Int(number)) }
        return String(format: "%.3g", number)
    }

    private static func difference(_ row: FidelityReport.Row) -> String {
        if case .distance = row.tolerance { return String(format: "KS %.3f", row.difference) }
        if row.isShare { return String(format: "%+.1f pts", row.difference * 100) }
        if row.measure == "units" { return (row.difference >= 0 ? "+" : "−") + CountText.grouped(Int(abs(row.difference))) }
        let relative = row.real != 0 ? String(format: " (%+.1f %%)", row.difference / row.real * 100) : ""
        return String(format: "%+.3g", row.difference) + relative
    }

    private static func tolerance(_ tolerance: FidelityReport.Tolerance) -> String {
        switch tolerance {
        case .points(let limit): String(format: "±%.1f pts", limit * 100)
        case .relative(let limit): String(format: "±%.0f %%", limit * 100)
        case .distance(let limit): String(format: "KS ≤ %.2f", limit)
        case .none: "—"
        }
    }

    private static func toleranceJSON(_ tolerance: FidelityReport.Tolerance) -> String {
        switch tolerance {
        case .points(let limit): "{\"points\":\(JSONText.number(limit))}"
        case .relative(let limit): "{\"relative\":\(JSONText.number(limit))}"
        case .distance(let limit): "{\"ks\":\(JSONText.number(limit))}"
        case .none: "null"
        }
    }
}
