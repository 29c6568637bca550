import Foundation
import RemixAnalysis
import RemixFormats
import RemixKit

/// The report as a terminal table (colour on request) or as Markdown tables. On a terminal of a
/// given width every line fits it: prose is wrapped, and a table whose columns do not fit shows
/// each row as a block (``TextLayout/blocks(_:keys:width:)``) with the same cells; without a
/// width (`--wide`) a table keeps a line per row.
package struct TableReport {
    package enum Style: Sendable { case terminal(colour: Bool, width: Int? = nil), markdown }

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
    private var colour: Bool { if case .terminal(let colour, _) = style { colour } else { false } }
    /// The terminal's width, nil for Markdown and the wide layout.
    private var width: Int? { if case .terminal(_, let width) = style { width } else { nil } }

    /// Adds a line, every control character from the data in it shown escaped (so a name from the
    /// log cannot move the cursor or forge a line) and in Markdown `<`, `>` and `&` too (a name is
    /// never markup); wrapped at the width; in colour `code` when colour is on.
    private mutating func add(_ text: String, colour code: String? = nil) {
        let shown = markdown ? Self.markdownText(text) : JSONText.visible(text)
        for line in width.map({ TextLayout.wrap(shown, width: $0) }) ?? [shown] { append(line, colour: code) }
    }

    private mutating func append(_ line: String, colour code: String?) {
        lines.append(colour ? code.map { "\u{1B}[\($0)m\(line)\u{1B}[0m" } ?? line : line)
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

    /// Adds `rows` (the header first): a Markdown table, or aligned columns — on a terminal of a
    /// width they do not fit, a block per row, headed by its first `keys` cells. Each data row is
    /// in the colour `colour` gives for it.
    private mutating func table(_ rows: [[String]], keys: Int = 1, colour: ([String]) -> String? = { _ in nil }) {
        let colours = rows.dropFirst().map(colour)
        if markdown {
            let cells = rows.map { row in row.map { Self.markdownText($0).replacingOccurrences(of: "|", with: "\\|") } }
            for (index, row) in cells.enumerated() {
                lines.append("| " + row.joined(separator: " | ") + " |")
                if index == 0 { lines.append("|" + row.map { _ in "---" }.joined(separator: "|") + "|") }
            }
            return
        }
        let cells = rows.map { $0.map(JSONText.visible) }
        let aligned = TextLayout.columns(cells)
        if let width, aligned.contains(where: { $0.count > width }) {
            for (block, code) in zip(TextLayout.blocks(cells, keys: keys, width: width), colours) {
                for line in block { append(line, colour: code) }
            }
            return
        }
        for (index, line) in aligned.enumerated() { append(line, colour: index == 0 ? nil : colours[index - 1]) }
    }

    private mutating func build(_ report: AnalysisReport) {
        for experiment in report.experiments { section(experiment, report: report) }
        let log = report.log
        for warning in log.warnings { add("warning: " + warning, colour: "33") }
        if report.experiments.isEmpty {
            add("no exposures in the log (an exposure needs inExperiment and hashUsed): nothing to compare")
        }
        for absent in report.notRunning { add("not running: \(absent.key) (\(absent.reason))") }
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
        for note in experiment.notes { add("note: " + note) }
        table(Self.variationRows(experiment), keys: 2)
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
        table(rows)
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
        table(Self.variationRows(part), keys: 2)
        add("")
        comparisonLines(part, report: report)
        add("")
    }

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
                                c.risk.map { Self.risk($0, of: c, absolute: absolute) }.joined(separator: ", "), verdict])
        }
        table(comparisons, keys: 2) { row in
            let verdict = row.last ?? ""
            return verdict == "WINNER" || verdict.hasSuffix("(better)") ? "32"
                : verdict == "LOSER" || verdict.hasSuffix("(worse)") ? "31" : verdict.hasPrefix("guardrail") ? "33" : nil
        }
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
        table([["time", "step", "share", "decision", "tested", "reason"]] + experiment.rolloutTimeline.map { decision in
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
            + (bandit.srmPValue.map(Figure.p) ?? "n/a") + (bandit.leaves.isEmpty ? " (expected units from the weights in force)"
                : " (the smallest of the leaves' own, at their latest updates, × \(bandit.leaves.count) leaves)"))
        if markdown { add("") }
        table([["arm", "units", "mean", "± 95 %", "pooled", "chance best"]] + bandit.arms.map { arm in
            [arm.variation, Self.grouped(arm.units), Self.figure(arm.mean), Self.figure(1.959964 * arm.standardError),
             Self.figure(arm.pooledMean), String(format: "%.1f %%", arm.bestProbability * 100)]
        })
        add("regret (units × the best arm's mean − the arm's, from these estimates): " + Self.figure(bandit.regret)
            + "; an equal split of the same units: " + Self.figure(bandit.equalSplitRegret))
        add("")
        if !bandit.updates.isEmpty {
            add("bandit weights (in force from each update on; * : too few units, weights unchanged):")
            weightTable(bandit.updates, arms: bandit.arms.map(\.variation))
        }
        for leaf in bandit.leaves {
            guard let (time, latest) = leaf.updates.last else { continue }
            add("leaf \(leaf.leaf) of the contextual bandit: its arms at its latest update (\(latest.update), "
                + "\(BanditReport.timeText(time)); its users only); its bandit SRM p " + (latest.srmPValue.map(Figure.p) ?? "n/a") + ":")
            if markdown { add("") }
            table([["arm", "units", "weight", "chance best"]] + leaf.arms.map { arm in
                [arm.variation, Self.grouped(arm.units), String(format: "%.3f", arm.weight),
                 arm.bestProbability.map { String(format: "%.1f %%", $0 * 100) } ?? "n/a"]
            })
            add("")
            add("leaf \(leaf.leaf) weights (in force for its users from each update on; * : too few units, weights unchanged):")
            weightTable(leaf.updates, arms: leaf.arms.map(\.variation))
        }
    }

    /// The weights each update put in force, a row per update, and a blank line.
    private mutating func weightTable(_ updates: [(time: Int64, update: BanditUpdate)], arms: [String]) {
        if markdown { add("") }
        table([["time", "update"] + arms] + updates.map { time, update in
            [BanditReport.timeText(time), String(update.update) + (update.enoughUnits ? "" : " *")]
                + update.arms.map { String(format: "%.3f", $0.weight) }
        })
        add("")
    }
}
