import Foundation
import RemixFormats
import RemixKit

/// The report as a terminal table (colour on request) or as Markdown tables.
package struct TableReport {
    package enum Style: Sendable { case terminal(colour: Bool), markdown }

    private let style: Style
    private var lines: [String] = []

    /// Renders `report` in `style`.
    package static func render(_ report: AnalysisReport, style: Style) -> String {
        var table = TableReport(style: style)
        table.build(report)
        return table.lines.joined(separator: "\n") + "\n"
    }

    private init(style: Style) {
        self.style = style
    }

    private var markdown: Bool { if case .markdown = style { true } else { false } }
    private var colour: Bool { if case .terminal(let colour) = style { colour } else { false } }

    /// Adds a line, every control character from the data in it shown escaped (so a name from the
    /// log cannot move the cursor or forge a line) and in Markdown `<`, `>` and `&` too (a name is
    /// never markup), in colour `code` when colour is on.
    private mutating func add(_ text: String, colour code: String? = nil) {
        let shown = markdown ? Self.markdownText(text) : JSONText.visible(text)
        lines.append(colour ? code.map { "\u{1B}[\($0)m\(shown)\u{1B}[0m" } ?? shown : shown)
    }

    /// `text` for Markdown: control characters shown escaped, and `<`, `>` and `&` as entities,
    /// so that no name from the log renders as HTML.
    static func markdownText(_ text: String) -> String {
        var out = ""
        for character in JSONText.visible(text) {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }

    private mutating func build(_ report: AnalysisReport) {
        for experiment in report.experiments { section(experiment, report: report) }
        let log = report.log
        if let warning = log.funnelWarning { add("warning: " + warning, colour: "33") }
        if report.experiments.isEmpty {
            add("no exposures in the log (an exposure needs inExperiment and hashUsed): nothing to compare")
        }
        for absent in report.notRunning { add("not in this log and not running now: \(absent)") }
        var summary = log.isStore ? "log: the event store \(log.files[0]), \(Self.grouped(log.lines)) events and run records"
            : "log: \(log.files.count) file\(log.files.count == 1 ? "" : "s"), "
                + "\(Self.grouped(log.lines)) line\(log.lines == 1 ? "" : "s"), \(Self.grouped(log.badLines)) bad"
        if !log.firstBadLines.isEmpty {
            summary += " (first: " + log.firstBadLines.map(\.description).joined(separator: "; ") + ")"
        }
        if log.tornFinalLine {
            summary += "; the final line of \(log.tornFiles.joined(separator: ", ")) is torn (the writer stopped mid-line)"
        }
        summary += String(format: "; analysed in %.2f s", report.elapsedSeconds)
        add(summary, colour: log.badLines > 0 ? "33" : nil)
    }

    private mutating func section(_ experiment: AnalysisReport.Experiment, report: AnalysisReport) {
        let srm = experiment.srmPValue.map { Self.fixed($0, 4) } ?? "n/a"
        let srmFlag = (experiment.srmPValue ?? 1) < srmThreshold
        let title = "\(experiment.key): " + (experiment.hasFile ? "primary \(experiment.primaryMetric ?? "-")" : "no experiment file")
            + " · SRM p = \(srm)"
            + (srmFlag ? " SAMPLE RATIO MISMATCH — do not trust these results" : "")
            + " · multiple-exposure units excluded: \(experiment.multipleExposureUnits)"
        add(markdown ? "## \(title)" : title, colour: srmFlag ? "1;31" : "1")
        if let phases = experiment.phaseSummary {
            add(phases, colour: experiment.phases.contains { ($0.srmPValue ?? 1) < srmThreshold } ? "31" : nil)
        }
        for warning in experiment.warnings { add("warning: " + warning, colour: "33") }
        lines += format(Self.variationRows(experiment))
        let label = report.correction == .none ? "unadjusted" : "\(report.correction == .holm ? "Holm" : "BH")-adjusted"
        add("")
        add("vs \(experiment.variations.first?.key ?? "-") (\(label) p, α = \(report.alpha)\(Self.describe(report.settings))):")
        comparisonLines(experiment, report: report)
        let absolute = report.settings.difference == .absolute
        let unit = absolute ? "in the metric's own units" : "as relative lift (0.01 = 1 % of the baseline)"
        if markdown { add("") }
        add("chance to win: that the variation is better in the metric's direction (↓: lower); "
                     + "risk: the expected loss of choosing the control or the treatment, \(unit)")
        let own = (experiment.variations.first?.metrics ?? []).compactMap { metric in
            metric.prior.map { "\(metric.metric) N(\(Self.figure($0.mean)), \(Self.figure($0.standardDeviation))²)" }
        }
        if !own.isEmpty { add("priors of the metrics' own (on the lift): " + own.joined(separator: ", ")) }
        if experiment.comparisons.contains(where: \.liftUndefined) { add(Self.liftUndefinedLegend) }
        if experiment.comparisons.contains(where: { $0.guardrail && !$0.directionDeclared }) {
            add("↑: a guardrail named by its event has no declared direction, so its chance is that of a rise; "
                         + "define it in metrics.yaml (inverse: true when lower is better) to read it as better or worse")
        }
        add("")
        funnelLines(experiment)
        rolloutLines(experiment)
        banditLines(experiment)
        overTimeLines(experiment, report: report)
        for slice in experiment.slices { sliceLines(slice, experiment: experiment, report: report) }
    }

    /// With `--by`: units per variation and the primary metric's effect with its CI at each cut.
    private mutating func overTimeLines(_ experiment: AnalysisReport.Experiment, report: AnalysisReport) {
        guard let by = report.by, !experiment.overTime.isEmpty, let primary = experiment.variations.first?.metrics.first?.metric
        else { return }
        let absolute = report.settings.difference == .absolute
        let treatments = experiment.variations.dropFirst().map(\.key)
        add("over time (cumulative, by \(by.rawValue); \(primary) vs \(experiment.variations.first?.key ?? "-")):")
        var rows = [["until"] + experiment.variations.map { "\($0.key) units" } + treatments.map { "\($0) \(absolute ? "difference" : "lift") [CI]" }]
        for point in experiment.overTime {
            let units = experiment.variations.map { variation in
                Self.grouped(point.variations.first { $0.key == variation.key }?.units ?? 0)
            }
            let effects = treatments.map { key in
                point.comparisons.first { $0.variation == key && $0.metric == primary }.map { c in
                    let shown = Self.effect(c, absolute: absolute)
                    return c.liftUndefined ? "\(shown.effect); \(shown.interval)" : "\(shown.effect) \(shown.interval)"
                } ?? "-"
            }
            rows.append([point.untilText] + units + effects)
        }
        lines += format(rows)
        add("")
    }

    /// A dimension value's units, metrics and comparisons (the funnel and legend are the experiment's).
    private mutating func sliceLines(_ slice: AnalysisReport.DimensionSlice, experiment: AnalysisReport.Experiment,
                                     report: AnalysisReport) {
        let part = slice.experiment
        let srm = part.srmPValue.map { Self.fixed($0, 4) } ?? "n/a"
        let srmFlag = (part.srmPValue ?? 1) < srmThreshold
        let title = "\(experiment.key) · \(report.dimension ?? "dimension") = \(slice.value) · "
            + "\(Self.grouped(part.variations.reduce(0) { $0 + $1.units })) units · SRM p = \(srm)"
            + (srmFlag ? " SAMPLE RATIO MISMATCH" : "")
        add(markdown ? "### \(title)" : title, colour: srmFlag ? "1;31" : "1")
        lines += format(Self.variationRows(part))
        add("")
        comparisonLines(part, report: report)
        add("")
    }

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

    /// The comparisons table, coloured by verdict.
    private mutating func comparisonLines(_ experiment: AnalysisReport.Experiment, report: AnalysisReport) {
        let metrics = experiment.variations.first?.metrics ?? []
        let absolute = report.settings.difference == .absolute
        let level = Int(((1 - report.alpha) * 100).rounded())
        let interval = report.settings.sequentialTuning == nil ? "\(level)% CI" : "\(level)% CI (sequential)"
        var comparisons: [[String]] = [["variation", "metric", absolute ? "difference" : "lift", interval,
                                        "p", "p adj", "chance to win", "risk (ctl, trt)", ""]]
        for c in experiment.comparisons {
            let verdict = Self.verdict(c, hasFile: experiment.hasFile, alpha: report.alpha, absolute: absolute)
            let metric = metrics.first { $0.metric == c.metric }.map(Self.heading) ?? c.metric
            // A guardrail of undeclared direction: its chance is the chance of a rise, marked ↑.
            let chance = (c.guardrail && !c.directionDeclared ? "↑ " : "") + Self.percent(c.chanceToWin)
            let shown = Self.effect(c, absolute: absolute)
            comparisons.append([c.variation, metric, shown.effect, shown.interval,
                                Self.fixed(c.pValue, 4), Self.fixed(c.pValueAdjusted, 4), chance,
                                c.risk.map { absolute || c.liftUndefined ? Self.figure($0) : Self.fixed($0, 5) }.joined(separator: ", "),
                                verdict])
        }
        let formatted = format(comparisons)
        let headerLines = formatted.count - (comparisons.count - 1)
        for (line, text) in formatted.enumerated() {
            let verdict = line >= headerLines ? comparisons[line - headerLines + 1].last ?? "" : ""
            let colour = verdict == "WINNER" || verdict.hasSuffix("(better)") ? "32"
                : verdict == "LOSER" || verdict.hasSuffix("(worse)") ? "31" : verdict.hasPrefix("guardrail") ? "33" : nil
            add(text, colour: colour)
        }
    }

    /// What a comparison says, as every format words it: WINNER or LOSER on a metric that is not a
    /// guardrail, "guardrail significantly up (worse)" on one, "too few units to tell …", the
    /// comparison's error, or "" when nothing is significant.
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
        return c.error.map { "⚠ \($0)" }
            ?? (significant && hasFile ? (c.guardrail ? "guardrail \(moved)" : (better ? "WINNER" : "LOSER"))
                : (tooWide ? "too few units to tell (CI below −100 %)" : (significant ? "significant" : "")))
    }

    private mutating func funnelLines(_ experiment: AnalysisReport.Experiment) {
        // Time to conversion is measured for a proportion primary metric (a plain event) only.
        let timed = experiment.variations.first?.metrics.first.map { $0.type == "rate" } ?? true
        add("funnel (share of exposed units reaching each screen after exposure)"
                     + (timed ? " and time to \(experiment.primaryMetric ?? "conversion"):" : ":"))
        for variation in experiment.variations {
            let steps = variation.funnel.prefix(8).map { "\($0.screen) \(Self.percent($0.share))" }.joined(separator: " · ")
            let time = variation.timeToConversion
            let timing = time.medianSeconds.map { median in
                "median \(Self.fixed(median, 1)) s, p90 \(Self.fixed(time.p90Seconds ?? median, 1)) s"
            } ?? "no conversions"
            // In Markdown a list item per variation: indented lines would run into one paragraph.
            add((markdown ? "- **\(variation.key)**: " : "  \(variation.key): ") + (steps.isEmpty ? "-" : steps)
                         + (timed ? " | \(timing)" : ""))
        }
        add("")
    }

    /// A rollout's timeline: each boundary's time, the step tested, the share from then on, the
    /// decision, the figures tested and why.
    private mutating func rolloutLines(_ experiment: AnalysisReport.Experiment) {
        guard !experiment.rolloutTimeline.isEmpty else { return }
        add("rollout timeline (share: of traffic in the rollout from then on, half of it with the feature; units: control / rollout):")
        if markdown { add("") }
        lines += format([["time", "step", "share", "decision", "tested", "reason"]] + experiment.rolloutTimeline.map { decision in
            [decision.timeText, String(decision.step), Self.figure(decision.share), decision.decision.rawValue, decision.figuresText,
             decision.reason]
        })
        add("")
    }

    /// A bandit's arms (period-weighted estimates) and its weights at each update.
    private mutating func banditLines(_ experiment: AnalysisReport.Experiment) {
        guard let bandit = experiment.bandit else { return }
        add("bandit on \(bandit.metric)\(bandit.inverse ? " (lower is better)" : ""): each arm's period-weighted mean "
            + "(pooled: the plain mean, biased when weights and rates drift); bandit SRM p "
            + (bandit.srmPValue.map(Figure.p) ?? "n/a") + " (expected units from the weights in force)")
        if markdown { add("") }
        lines += format([["arm", "units", "mean", "± 95 %", "pooled", "chance best"]] + bandit.arms.map { arm in
            [arm.variation, Self.grouped(arm.units), Self.figure(arm.mean), Self.figure(1.959964 * arm.standardError),
             Self.figure(arm.pooledMean), String(format: "%.1f %%", arm.bestProbability * 100)]
        })
        add("regret (units × the best arm's mean − the arm's, from these estimates): " + Self.figure(bandit.regret)
            + "; an equal split of the same units: " + Self.figure(bandit.equalSplitRegret))
        add("")
        guard !bandit.updates.isEmpty else { return }
        add("bandit weights (in force from each update on; * : too few units, weights unchanged):")
        if markdown { add("") }
        lines += format([["time", "update"] + bandit.arms.map(\.variation)] + bandit.updates.map { time, update in
            [BanditReport.timeText(time), String(update.update) + (update.enoughUnits ? "" : " *")]
                + update.arms.map { String(format: "%.3f", $0.weight) }
        })
        add("")
    }

    /// A comparison's effect and its interval as the table shows them: a signed percent, an
    /// absolute difference with `absolute`, and for a baseline of 0 "undefined (baseline 0)" and
    /// the absolute difference with its interval.
    static func effect(_ c: AnalysisReport.Comparison, absolute: Bool) -> (effect: String, interval: String) {
        func shown(_ value: Double) -> String { absolute || c.liftUndefined ? signedFigure(value) : signedPercent(value) }
        let interval = "[\(shown(c.ci[0])), \(shown(c.ci[1]))]"
        return c.liftUndefined ? (liftUndefined, "difference \(shown(c.expected)) \(interval)") : (shown(c.expected), interval)
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
    /// `rate, CUPED` …), and ↓ when lower is better.
    static func heading(_ metric: AnalysisReport.MetricCount) -> String {
        metric.metric + (metric.label == "rate" ? "" : " (\(metric.label))") + (metric.inverse ? " ↓" : "")
    }

    /// A mean or ratio with four significant digits, from 1,000 on as a whole number with
    /// thousands separators like every count ("-" when not a number).
    static func figure(_ value: Double) -> String {
        guard value.isFinite else { return "-" }
        return abs(value) >= 1000 && abs(value) < 1e15 ? grouped(Int(value.rounded())) : String(format: "%.4g", value)
    }

    /// Rows as aligned text (the header first), or as a Markdown table; control characters in the
    /// cells shown escaped, and in Markdown `<`, `>`, `&` and a `|` too (it would end the cell).
    private func format(_ rows: [[String]]) -> [String] {
        let rows = rows.map { row in
            row.map { markdown ? Self.markdownText($0).replacingOccurrences(of: "|", with: "\\|") : JSONText.visible($0) }
        }
        if markdown {
            var out: [String] = []
            for (index, row) in rows.enumerated() {
                out.append("| " + row.joined(separator: " | ") + " |")
                if index == 0 { out.append("|" + row.map { _ in "---" }.joined(separator: "|") + "|") }
            }
            return out
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
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
