import Foundation
import RemixAnalysis
import RemixFormats
import RemixStatistics

/// How the table words and rounds what it shows; the HTML page and Markdown share these.
extension TableReport {
    /// The units column's heading: a unit is a user (the log's `user`), where `simulate`'s summary
    /// counts exposed sessions.
    static let unitsHeading = "units (users)"

    /// The variations' units and metric figures, with a header row.
    static func variationRows(_ experiment: AnalysisReport.Experiment) -> [[String]] {
        let metrics = experiment.variations.first?.metrics ?? []
        var rows = [["variation", "feature", unitsHeading] + metrics.map { metric in
            Self.heading(metric) + (experiment.guardrails.contains(metric.metric) ? " (guardrail)" : "")
        }]
        for variation in experiment.variations {
            rows.append([variation.key, variation.feature, Self.grouped(variation.units)]
                        + variation.metrics.map(Self.figureCell))
        }
        return rows
    }

    /// A variation's figure of a metric: conversions and rate, a mean, ratio or quantile, or why
    /// there is none.
    static func figureCell(_ metric: AnalysisReport.MetricCount) -> String {
        if metric.error != nil { return figureMissing }
        return metric.type == "rate" ? "\(grouped(metric.conversions)) (\(percent(metric.rate)))" : figure(metric.value)
    }

    /// The figure cell of a metric without a figure (its error is among the warnings).
    static let figureMissing = "⚠ too large"

    /// What a comparison says, as every format words it: WINNER or LOSER on a metric that is not a
    /// guardrail, "guardrail significantly up (worse)" on one, "too few units to tell …", the
    /// comparison's error in words, or "" when nothing is significant.
    static func verdict(_ c: AnalysisReport.Comparison, hasFile: Bool, alpha: Double, absolute: Bool) -> String {
        let significant = c.error == nil && c.pValueAdjusted < alpha
        // Lower is better for an inverse metric: a significant fall wins.
        let better = c.inverse ? c.expected < 0 : c.expected > 0
        // A guardrail says that it moved, and whether for the better when its direction is
        // declared; the primary metric names a winner or a loser.
        let moved = (c.expected > 0 ? "significantly up" : "significantly down")
            + (c.directionDeclared ? (better ? " (better)" : " (worse)") : "")
        // A relative interval reaching below −100 % says the arms are too small to read it.
        let tooWide = !absolute && !c.liftUndefined && c.error == nil && c.ci[0] < -1
        return c.error.map { "⚠ \(errorText($0))" }
            ?? (significant && hasFile ? (c.guardrail ? "guardrail \(moved)" : (better ? "WINNER" : "LOSER"))
                : (tooWide ? "too few units to tell (CI below −100 %)" : (significant ? "significant" : "")))
    }

    /// A comparison's error in words: gbstats' codes (which JSON and CSV keep) said plainly, any
    /// other error as it is.
    static func errorText(_ error: String) -> String { StatisticsMessage.words(error) }

    /// A comparison's effect and its interval as the table shows them: a signed percent, an
    /// absolute difference with `absolute`, and for a baseline of 0 "undefined (baseline 0)" and
    /// the absolute difference with its interval.
    static func effect(_ c: AnalysisReport.Comparison, absolute: Bool) -> (effect: String, interval: String) {
        func shown(_ value: Double) -> String { absolute || c.liftUndefined ? signedFigure(value) : signedPercent(value) }
        let interval = "[\(shown(c.ci[0])), \(shown(c.ci[1]))]"
        return c.liftUndefined ? (liftUndefined, "difference \(shown(c.expected)) \(interval)") : (shown(c.expected), interval)
    }

    /// One of a comparison's risks: a relative one to five decimals; an absolute one (with
    /// `absolute`, or a baseline of 0) to the decimals of its effect and interval, so that a risk
    /// of no size reads 0.0000 rather than 4.654e-83.
    static func risk(_ value: Double, of c: AnalysisReport.Comparison, absolute: Bool) -> String {
        guard absolute || c.liftUndefined else { return fixed(value, 5) }
        return riskDecimals(c).map { fixed(value, $0) } ?? figure(value)
    }

    /// The decimals an absolute risk of `c` is shown to: four significant digits of the largest of
    /// its effect and CI bounds (at most 12 decimals); nil from 1,000 on, where figures are whole.
    static func riskDecimals(_ c: AnalysisReport.Comparison) -> Int? {
        let scale = ([c.expected] + c.ci).filter(\.isFinite).map(abs).max() ?? 0
        guard scale < 1000 else { return nil }
        guard scale > 0 else { return 4 }
        return min(max(3 - Int(log10(scale).rounded(.down)), 0), 12)
    }

    /// The lift column of a comparison whose baseline is 0.
    static let liftUndefined = "undefined (baseline 0)"

    /// The legend line under comparisons of which some have a baseline of 0.
    static let liftUndefinedLegend = "undefined (baseline 0): the baseline's figure is 0, so there is no relative lift; the row "
        + "gives the absolute difference (treatment − control, in the metric's units) with its CI, and its p-value, chance "
        + "to win and risk are of that difference"

    /// The test settings that differ from the defaults, for the comparisons' heading.
    static func describe(_ settings: TestSettings) -> String {
        var parts: [String] = []
        if settings.difference == .absolute { parts.append("absolute differences") }
        // The tuning as it is typed (--sequential-tuning 5000), not as a figure.
        if let tuning = settings.sequentialTuning { parts.append("sequential, tuning \(JSONText.number(tuning))") }
        if let prior = settings.prior {
            parts.append("prior on the lift N(\(figure(prior.mean)), \(figure(prior.standardDeviation))²)")
        }
        return parts.map { ", " + $0 }.joined()
    }

    /// A metric's column title: its key, then its label unless a plain rate (`mean`, `p90`,
    /// `rate, CUPED` …) and its unit (`ms`), and ↓ when lower is better.
    static func heading(_ metric: AnalysisReport.MetricCount) -> String {
        let parts = (metric.label == "rate" ? [] : [metric.label]) + (metric.unit.map { [$0] } ?? [])
        return metric.metric + (parts.isEmpty ? "" : " (\(parts.joined(separator: ", ")))") + (metric.inverse ? " ↓" : "")
    }

    /// A mean or ratio with four significant digits, from 1,000 on as a whole number with
    /// thousands separators like every count ("-" when not a number).
    static func figure(_ value: Double) -> String {
        guard value.isFinite else { return "-" }
        return abs(value) >= 1000 && abs(value) < 1e15 ? grouped(Int(value.rounded())) : String(format: "%.4g", value)
    }

    static func grouped(_ value: Int) -> String { CountText.grouped(value) }

    static func percent(_ value: Double) -> String { value.isFinite ? String(format: "%.1f%%", value * 100) : "-" }
    /// An absolute difference as ``figure(_:)`` shows it, with its sign.
    static func signedFigure(_ value: Double) -> String {
        guard value.isFinite else { return "-" }
        return abs(value) >= 1000 && abs(value) < 1e15 ? (value < 0 ? "" : "+") + figure(value) : String(format: "%+.4g", value)
    }
    static func signedPercent(_ value: Double) -> String { value.isFinite ? String(format: "%+.1f%%", value * 100) : "-" }
    static func fixed(_ value: Double, _ digits: Int) -> String { value.isFinite ? String(format: "%.\(digits)f", value) : "-" }
}
