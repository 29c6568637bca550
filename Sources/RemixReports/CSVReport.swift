import Foundation
import RemixAnalysis
import RemixFormats
import RemixKit

/// The report as CSV: one row per experiment × variation × metric, with the comparison against
/// the baseline on the same row (empty for the baseline); `undeclared_variation_units` counts the
/// experiment's units left out because the experiment file does not declare their variation;
/// `metric_type` is rate, mean or ratio and `value` the variation's figure of that type; then the
/// test settings (`difference` says whether `expected` and the CI are a lift or an absolute
/// difference), the Bayesian credible interval, the metric's label (`p90`, `mean, CUPED` …) and
/// whether it is adjusted with CUPED; with `--dimension`, `dimension` and `dimension_value` are set
/// on the rows of each value's slice (after the experiment's own rows, where they are empty); where
/// the baseline is 0 there is no lift, so the effect cells are empty and `absolute_expected`,
/// `absolute_ci_lower` and `absolute_ci_upper` give the absolute difference with its CI. When an
/// experiment's exposures carry phases, a last column `phase` says which phase its rows report (a
/// number, or `all`). When a bandit has updates, rows of its updates follow (``withBanditUpdates(_:_:)``).
package enum CSVReport {
    package static func render(_ report: AnalysisReport) -> String {
        let rows = report.by != nil ? overTimeRows(report) : mainRows(report)
        return rows.map { $0.map(escape).joined(separator: ",") }.joined(separator: "\n") + "\n"
    }

    /// The rows with a `phase` column when some experiment reports a phase (else as they are).
    private static func withPhase(_ rows: [[String]], _ report: AnalysisReport) -> [[String]] {
        guard report.experiments.contains(where: { $0.phase != nil }), let header = rows.first else { return rows }
        let phase = Dictionary(report.experiments.map { ($0.key, $0.phase?.description ?? "") }, uniquingKeysWith: { first, _ in first })
        return [header + ["phase"]] + rows.dropFirst().map { $0 + [phase[$0[0]] ?? ""] }
    }

    private static func mainRows(_ report: AnalysisReport) -> [[String]] {
        var rows = [[
            "experiment", "variation", "variation_id", "feature", "units", "metric", "conversions", "rate", "baseline",
            "expected", "ci_lower", "ci_upper", "p_value", "p_value_adjusted", "chance_to_win", "risk_control",
            "risk_treatment", "error", "srm_p_value", "multiple_exposure_units",
            "undeclared_variation_units", "metric_type", "value", "inverse", "missing_values", "non_numeric_values",
            "difference", "sequential_tuning", "prior_mean", "prior_stddev", "credible_lower", "credible_upper",
            "metric_label", "cuped", "dimension", "dimension_value", "absolute_expected", "absolute_ci_lower", "absolute_ci_upper",
        ]]
        let settings = report.settings
        let testColumns = [settings.difference.rawValue, settings.sequentialTuning.map(JSONWriter.number) ?? "",
                           settings.prior.map { JSONWriter.number($0.mean) } ?? "",
                           settings.prior.map { JSONWriter.number($0.standardDeviation) } ?? ""]
        for experiment in report.experiments {
            rows += self.rows(experiment, testColumns: testColumns, dimension: ["", ""])
            for slice in experiment.slices {
                rows += self.rows(slice.experiment, testColumns: testColumns, dimension: [report.dimension ?? "", slice.value])
            }
        }
        return withPhase(withBanditUpdates(rows, report), report)
    }

    /// The rows with a row per bandit update per arm when some experiment is a bandit with updates
    /// (else as they are): columns `bandit_update`, `bandit_leaf` (a contextual bandit's leaf),
    /// `bandit_time`, `bandit_weight` and `bandit_best_probability` after the others, and on those
    /// rows `experiment`, `variation`, `variation_id`, `units` (the arm's units at the update) and
    /// `srm_p_value` (the update's bandit SRM p) set, the metric cells empty.
    private static func withBanditUpdates(_ rows: [[String]], _ report: AnalysisReport) -> [[String]] {
        let bandits = report.experiments.compactMap { experiment in experiment.bandit.map { (experiment, $0) } }
        guard bandits.contains(where: { !$0.1.updates.isEmpty || !$0.1.leaves.isEmpty }), let header = rows.first else { return rows }
        let added = ["bandit_update", "bandit_leaf", "bandit_time", "bandit_weight", "bandit_best_probability"]
        var out = [header + added] + rows.dropFirst().map { $0 + Array(repeating: "", count: added.count) }
        func column(_ name: String) -> Int { header.firstIndex(of: name) ?? 0 }
        for (experiment, bandit) in bandits {
            let histories = [(leaf: "", updates: bandit.updates)] + bandit.leaves.map { (leaf: $0.leaf, updates: $0.updates) }
            for (leaf, updates) in histories {
                for (time, update) in updates {
                    for arm in update.arms {
                        var row = Array(repeating: "", count: header.count)
                        row[column("experiment")] = experiment.key
                        row[column("variation")] = arm.variation
                        row[column("variation_id")] = experiment.variations.first { $0.key == arm.variation }
                            .map { String($0.variationId) } ?? ""
                        row[column("units")] = String(arm.units)
                        row[column("srm_p_value")] = update.srmPValue.map(number) ?? ""
                        out.append(row + [String(update.update), leaf, BanditReport.timeText(time), number(arm.weight),
                                          arm.bestProbability.map(number) ?? ""])
                    }
                }
            }
        }
        return out
    }

    private static func rows(_ experiment: AnalysisReport.Experiment, testColumns: [String], dimension: [String]) -> [[String]] {
        var rows: [[String]] = []
        for variation in experiment.variations {
            for metric in variation.metrics {
                let c = experiment.comparisons.first { $0.variation == variation.key && $0.metric == metric.metric }
                rows.append([experiment.key, variation.key, String(variation.variationId), variation.feature,
                             String(variation.units), metric.metric, String(metric.conversions),
                             number(metric.rate), c?.baseline ?? ""] + comparisonCells(c, risks: true)
                            + [experiment.srmPValue.map(number) ?? "", String(experiment.multipleExposureUnits),
                               String(experiment.undeclaredVariations.reduce(0) { $0 + $1.units }),
                               metric.type, number(metric.value), String(metric.inverse),
                               String(metric.missingValues), String(metric.nonNumericValues)] + testColumns
                            + (c.map { [lift($0.credibleInterval[0], $0), lift($0.credibleInterval[1], $0)] } ?? ["", ""])
                            + [metric.label, String(metric.cuped)] + dimension + absolute(c))
            }
        }
        return rows
    }

    /// With `--by`: one row per experiment × cut × variation × metric, cumulative up to the cut
    /// (`until`), with the comparison against the baseline (empty for the baseline).
    private static func overTimeRows(_ report: AnalysisReport) -> [[String]] {
        var rows = [["experiment", "until", "variation", "units", "metric", "conversions", "value", "expected", "ci_lower",
                     "ci_upper", "p_value", "p_value_adjusted", "chance_to_win", "error", "absolute_expected", "absolute_ci_lower",
                     "absolute_ci_upper"]]
        for experiment in report.experiments {
            for point in experiment.overTime {
                for variation in point.variations {
                    for metric in variation.metrics {
                        let c = point.comparisons.first { $0.variation == variation.key && $0.metric == metric.metric }
                        rows.append([experiment.key, point.untilText, variation.key, String(variation.units), metric.metric,
                                     String(metric.conversions), number(metric.value)] + comparisonCells(c, risks: false) + absolute(c))
                    }
                }
            }
        }
        return withPhase(rows, report)
    }

    /// `expected`, `ci_lower`, `ci_upper`, `p_value`, `p_value_adjusted`, `chance_to_win`, (with
    /// `risks`) `risk_control` and `risk_treatment`, then `error`: all empty without a comparison
    /// (the baseline's rows).
    private static func comparisonCells(_ comparison: AnalysisReport.Comparison?, risks: Bool) -> [String] {
        guard let c = comparison else { return Array(repeating: "", count: risks ? 9 : 7) }
        return [lift(c.expected, c), lift(c.ci[0], c), lift(c.ci[1], c), number(c.pValue), number(c.pValueAdjusted),
                number(c.chanceToWin)] + (risks ? [lift(c.risk.first ?? .nan, c), lift(c.risk.last ?? .nan, c)] : [])
            + [c.error ?? ""]
    }

    /// A number of the report; empty when there is none (not a number).
    private static func number(_ value: Double) -> String { value.isFinite ? JSONWriter.number(value) : "" }

    /// An effect cell of a comparison: empty when the baseline is 0, which leaves no lift.
    private static func lift(_ value: Double, _ comparison: AnalysisReport.Comparison) -> String {
        comparison.liftUndefined ? "" : number(value)
    }

    /// `absolute_expected`, `absolute_ci_lower`, `absolute_ci_upper`: the absolute difference with
    /// its CI where the baseline is 0, empty elsewhere.
    private static func absolute(_ comparison: AnalysisReport.Comparison?) -> [String] {
        guard let comparison, comparison.liftUndefined else { return ["", "", ""] }
        return [number(comparison.expected), number(comparison.ci[0]), number(comparison.ci[1])]
    }

    /// A field as RFC 4180 writes it, its control characters first shown escaped (a name from the
    /// log can hold a terminal escape; none is left to need a quoted line break). A field that a
    /// spreadsheet would read as a formula — one starting with `=`, `+`, `-`, `@`, a tab or a
    /// carriage return that is not a number — gets a `'` in front and is quoted, as OWASP's "CSV
    /// injection" advises; a number (`-3.2`, `-1.5e-05`) stays as it is.
    private static func escape(_ field: String) -> String {
        var field = JSONText.visible(field)
        let formula = field.first.map { "=+-@\t\r".contains($0) } == true && !isNumber(field)
        if formula { field = "'" + field }
        guard formula || field.contains(where: { $0 == "," || $0 == "\"" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Whether `field` is a decimal number as JSON writes one (a spreadsheet reads it as that number).
    private static func isNumber(_ field: String) -> Bool {
        field.wholeMatch(of: /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/) != nil
    }
}
