/// The experiment section's parts over time, per variation timing, per dimension value, and its tables.
extension HTMLExperimentSection {
    /// The primary metric's cumulative effect at each `--by` cut with its CI band, and its table.
    mutating func overTime() {
        out += "<h3>Effect over time</h3>\n"
        guard !experiment.overTime.isEmpty, let by = report.by else {
            out += "<p class=\"note\">Run remix analyze with --by day (or --by hour) to see the cumulative effect on "
                + "\(escape(primary)) at each day (or hour) of the log, with its CI.</p>\n"
            return
        }
        let treatments = experiment.variations.dropFirst().map(\.key)
        let cuts = experiment.overTime.map(\.untilText)
        let series = treatments.map { key in
            (label: key, colour: colour(of: key), points: experiment.overTime.enumerated().map { cut, point in
                // No point where there is none, nor where the baseline is 0 (no lift to draw).
                guard let index = point.comparisons.firstIndex(where: { $0.variation == key && $0.metric == primary }),
                      !point.comparisons[index].liftUndefined else {
                    return HTMLChart.Interval(label: key, colour: 0, estimate: .nan, low: .nan, high: .nan, pointer: JSONPointer())
                }
                let comparison = point.comparisons[index]
                return HTMLChart.Interval(label: key, colour: colour(of: key), estimate: comparison.expected, low: comparison.ci[0],
                                          high: comparison.ci[1], pointer: pointer("overTime", cut, "comparisons", index))
            })
        }
        let title = "Cumulative \(page.relative ? "lift" : "difference") on \(primary) vs \(baseline), by \(by.rawValue), with its CI"
        out += "<figure>" + legend(treatmentsOnly: true) + HTMLChart.overTime(series, cuts: cuts, format: effect, relative: page.relative, title: title)
            + "<figcaption>\(escape(title)): each point counts every event until that time.</figcaption></figure>\n"
        var table = "<details><summary>The figures over time</summary><div class=\"scroll\"><table><tr><th class=\"text\">until</th>"
            + experiment.variations.map { "<th>\(escape($0.key)) units</th>" }.joined()
            + treatments.map { "<th>\(escape($0)) [CI]</th>" }.joined() + "</tr>"
        for (cut, point) in experiment.overTime.enumerated() {
            table += "<tr><td class=\"text\">\(escape(point.untilText))</td>"
            for variation in experiment.variations {
                let index = point.variations.firstIndex { $0.key == variation.key }
                table += "<td>" + (index.map { HTMLNumber.grouped.element(Double(point.variations[$0].units),
                                                                          pointer("overTime", cut, "variations", $0, "units")) } ?? "-") + "</td>"
            }
            for key in treatments {
                let found = point.comparisons.firstIndex { $0.variation == key && $0.metric == primary }
                table += "<td>" + (found.map { interval(point.comparisons[$0], pointer("overTime", cut, "comparisons", $0)) } ?? "-") + "</td>"
            }
            table += "</tr>"
        }
        out += table + "</table></div></details>\n"
    }

    /// Median and 90th percentile of the time from first exposure to the primary conversion.
    mutating func timeToConversion() {
        // Measured for a proportion primary metric (a plain event) only.
        guard experiment.variations.first?.metrics.first?.type ?? "rate" == "rate" else { return }
        out += "<h3>Time to \(escape(primary))</h3>\n"
        let rows = experiment.variations.enumerated().map { index, variation in
            HTMLChart.Timing(variation: variation.key, colour: index, median: variation.timeToConversion.medianSeconds,
                             p90: variation.timeToConversion.p90Seconds, pointer: pointer("variations", index, "timeToConversion"))
        }
        guard rows.contains(where: { $0.median != nil }) else {
            out += "<p class=\"note\">No unit has converted yet.</p>\n"
            return
        }
        let title = "Seconds from first exposure to the first \(primary): median (dot) and 90th percentile (square)"
        out += "<figure>" + HTMLChart.timing(rows, title: title) + "<figcaption>\(escape(title)).</figcaption></figure>\n"
    }

    /// With `--dimension`: the primary metric's effect per value, and each value's units and SRM.
    mutating func slices() {
        guard !experiment.slices.isEmpty else { return }
        let dimension = report.dimension ?? "dimension"
        out += "<h3>By \(escape(dimension))</h3>\n"
        var rows: [HTMLChart.Interval] = []
        var table = "<div class=\"scroll\"><table><tr><th class=\"text\">\(escape(dimension))</th><th>units</th><th>SRM p</th>"
            + "<th class=\"text\">variation</th><th>\(page.relative ? "lift" : "difference") on \(escape(primary)) [CI]</th>"
            + "<th>p adj</th><th class=\"text\">verdict</th></tr>"
        for (sliceIndex, slice) in experiment.slices.enumerated() {
            let part = slice.experiment
            let at = pointer("slices", sliceIndex)
            let found = part.comparisons.enumerated().filter { $0.element.metric == primary }
            let units = part.variations.reduce(0) { $0 + $1.units }
            let srm = part.srmPValue.map { HTMLNumber.fixed4.element($0, at("srmPValue")) + ($0 < srmThreshold ? " ⚠ SRM" : "") } ?? "n/a"
            for (row, (index, comparison)) in found.enumerated() {
                let said = verdict(comparison, in: part)
                rows.append(forestRow(comparison, label: "\(slice.value) · \(comparison.variation)", pointer: at("comparisons", index),
                                      mark: Self.mark(said)))
                table += "<tr><td class=\"text\">\(row == 0 ? escape(slice.value) : "")</td><td>\(row == 0 ? TableReport.grouped(units) : "")</td>"
                    + "<td>\(row == 0 ? srm : "")</td><td class=\"text\">\(escape(comparison.variation))</td>"
                    + "<td>" + interval(comparison, at("comparisons", index)) + "</td><td>"
                    + HTMLNumber.fixed4.element(comparison.pValueAdjusted, at("comparisons", index, "pValueAdjusted"))
                    + "</td><td class=\"text\">\(escape(said))</td></tr>"
            }
            if found.isEmpty {
                table += "<tr><td class=\"text\">\(escape(slice.value))</td><td>\(TableReport.grouped(units))</td><td>\(srm)</td>"
                    + "<td class=\"text\" colspan=\"4\">no comparison</td></tr>"
            }
        }
        let title = "\(page.relative ? "Lift" : "Difference") on \(primary) vs \(baseline) for each \(dimension) value, with its CI"
        if !rows.isEmpty {
            out += "<figure>" + HTMLChart.forest(rows, format: effect, relative: page.relative, title: title)
                + "<figcaption>\(escape(title)).</figcaption></figure>\n"
        }
        out += table + "</table></div>\n"
    }

    /// An effect and its CI, each naming its field; for a baseline of 0, "lift undefined (baseline
    /// 0)" and the absolute difference with its CI.
    func interval(_ comparison: AnalysisReport.Comparison, _ at: JSONPointer) -> String {
        let (shown, field) = comparison.liftUndefined ? (HTMLNumber.signedFigure, at("absoluteDifference")) : (effect, at)
        let figures = shown.element(comparison.expected, field("expected")) + " [" + shown.element(comparison.ci[0], field("ci", 0))
            + ", " + shown.element(comparison.ci[1], field("ci", 1)) + "]"
        return comparison.liftUndefined ? "lift \(escape(TableReport.liftUndefined)); difference " + figures : figures
    }

    /// Units and each metric's figure per variation.
    func variationTable(_ experiment: AnalysisReport.Experiment, pointer: JSONPointer) -> String {
        let metrics = experiment.variations.first?.metrics ?? []
        var html = "<div class=\"scroll\"><table><tr><th class=\"text\">variation</th><th class=\"text\">feature</th><th>units</th>"
            + metrics.map { "<th>\(escape(TableReport.heading($0) + (experiment.guardrails.contains($0.metric) ? " (guardrail)" : "")))</th>" }
                .joined() + "</tr>"
        for (index, variation) in experiment.variations.enumerated() {
            let at = pointer("variations", index)
            html += "<tr><td class=\"text\"><span class=\"key \(HTMLStyle.colour(index))\"></span>\(escape(variation.key))</td>"
                + "<td class=\"text\">\(escape(variation.feature))</td><td>"
                + HTMLNumber.grouped.element(Double(variation.units), at("units")) + "</td>"
            for metric in variation.metrics {
                let field = at("metrics", metric.metric)
                html += "<td>" + (metric.error != nil ? escape(TableReport.figureMissing) : metric.type == "rate"
                    ? HTMLNumber.grouped.element(Double(metric.conversions), field("conversions")) + " ("
                        + HTMLNumber.percent.element(metric.rate, field("rate")) + ")"
                    : HTMLNumber.figure.element(metric.value, field("value"))) + "</td>"
            }
            html += "</tr>"
        }
        return html + "</table></div>\n"
    }

    /// Every comparison with its effect, CI, p-values, chance to win, risk and verdict.
    func comparisonTable(_ experiment: AnalysisReport.Experiment, pointer: JSONPointer) -> String {
        guard !experiment.comparisons.isEmpty else { return "" }
        let level = Int(((1 - report.alpha) * 100).rounded())
        var html = "<div class=\"scroll\"><table><tr><th class=\"text\">variation</th><th class=\"text\">metric</th>"
            + "<th>\(page.relative ? "lift" : "difference")</th><th>\(level)% CI\(report.settings.sequentialTuning == nil ? "" : " (sequential)")</th>"
            + "<th>p</th><th>p adj</th><th>chance to win</th><th>risk (ctl, trt)</th><th class=\"text\">verdict</th></tr>"
        let metrics = experiment.variations.first?.metrics ?? []
        for (index, comparison) in experiment.comparisons.enumerated() {
            let at = pointer("comparisons", index)
            let heading = metrics.first { $0.metric == comparison.metric }.map(TableReport.heading) ?? comparison.metric
            let undefined = comparison.liftUndefined
            let (shown, field) = undefined ? (HTMLNumber.signedFigure, at("absoluteDifference")) : (effect, at)
            html += "<tr><td class=\"text\">\(escape(comparison.variation))</td><td class=\"text\">\(escape(heading))</td><td>"
                + (undefined ? escape(TableReport.liftUndefined) : effect.element(comparison.expected, at("expected"))) + "</td><td>"
                + (undefined ? "difference " + shown.element(comparison.expected, field("expected")) + " " : "") + "["
                + shown.element(comparison.ci[0], field("ci", 0)) + ", " + shown.element(comparison.ci[1], field("ci", 1)) + "]</td><td>"
                + HTMLNumber.fixed4.element(comparison.pValue, at("pValue")) + "</td><td>"
                + HTMLNumber.fixed4.element(comparison.pValueAdjusted, at("pValueAdjusted")) + "</td><td>"
                + (comparison.guardrail && !comparison.directionDeclared ? "↑ " : "")
                + HTMLNumber.percent.element(comparison.chanceToWin, at("chanceToWin")) + "</td><td>"
                + comparison.risk.indices.map { index in
                    page.relative && !undefined ? HTMLNumber.fixed5.element(comparison.risk[index], at("risk", index))
                        : HTMLNumber.figure.element(comparison.risk[index], field("risk", index))
                }.joined(separator: ", ")
                + "</td><td class=\"text\">\(escape(verdict(comparison, in: experiment)))</td></tr>"
        }
        return html + "</table></div>\n<p class=\"note\">chance to win: that the variation is better in the metric's direction "
            + "(↓: lower is better; ↑: a guardrail of undeclared direction, the chance of a rise); risk: the expected loss of "
            + "choosing the control or the treatment."
            + (experiment.comparisons.contains(where: \.liftUndefined) ? " " + escape(TableReport.liftUndefinedLegend) + "." : "")
            + "</p>\n"
    }
}
