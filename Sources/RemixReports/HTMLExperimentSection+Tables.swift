import RemixAnalysis

/// The experiment section's tables of numbers: each variation's figures, and every comparison.
extension HTMLExperimentSection {
    /// Each variation's units and metric figures, a column per variation (they are few; metrics
    /// can be many).
    func variationTable(_ experiment: AnalysisReport.Experiment, pointer: JSONPointer) -> String {
        var table = HTMLTable([HTMLTable.Column("", isText: true)] + experiment.variations.enumerated().map { index, variation in
            HTMLTable.Column(heading: "<span class=\"key \(HTMLStyle.colour(index))\"></span>\(escape(variation.key))", label: variation.key)
        })
        table.add(["feature"] + experiment.variations.map { escape($0.feature) })
        table.add([TableReport.unitsHeading] + experiment.variations.indices.map { index in
            HTMLNumber.grouped.element(Double(experiment.variations[index].units), pointer("variations", index, "units"))
        })
        for (row, metric) in (experiment.variations.first?.metrics ?? []).enumerated() {
            let heading = TableReport.heading(metric) + (experiment.guardrails.contains(metric.metric) ? " (guardrail)" : "")
            table.add([escape(heading)] + experiment.variations.enumerated().map { index, variation in
                let metric = variation.metrics[row], field = pointer("variations", index, "metrics", metric.metric)
                if metric.error != nil { return escape(TableReport.figureMissing) }
                return metric.type == "rate"
                    ? HTMLNumber.grouped.element(Double(metric.conversions), field("conversions")) + " ("
                        + HTMLNumber.percent.element(metric.rate, field("rate")) + ")"
                    : HTMLNumber.figure.element(metric.value, field("value"))
            })
        }
        return table.html
    }

    /// Every comparison with its effect, CI, p-values, chance to win, risk and verdict.
    func comparisonTable(_ experiment: AnalysisReport.Experiment, pointer: JSONPointer) -> String {
        guard !experiment.comparisons.isEmpty else { return "" }
        let level = Int(((1 - report.alpha) * 100).rounded())
        var table = HTMLTable([
            HTMLTable.Column("variation", isText: true), HTMLTable.Column("metric", isText: true),
            HTMLTable.Column(page.relative ? "lift" : "difference"),
            HTMLTable.Column("\(level)% CI\(report.settings.sequentialTuning == nil ? "" : " (sequential)")"),
            HTMLTable.Column("p"), HTMLTable.Column("p adj"), HTMLTable.Column("chance to win"), HTMLTable.Column("risk (ctl, trt)"),
            HTMLTable.Column("verdict", isText: true),
        ])
        let metrics = experiment.variations.first?.metrics ?? []
        for (index, comparison) in experiment.comparisons.enumerated() {
            let at = pointer("comparisons", index)
            let heading = metrics.first { $0.metric == comparison.metric }.map(TableReport.heading) ?? comparison.metric
            let undefined = comparison.liftUndefined
            let (shown, field) = undefined ? (HTMLNumber.signedFigure, at("absoluteDifference")) : (effect, at)
            table.add([
                escape(comparison.variation), escape(heading),
                undefined ? escape(TableReport.liftUndefined) : effect.element(comparison.expected, at("expected")),
                (undefined ? "difference " + shown.element(comparison.expected, field("expected")) + " " : "") + "["
                    + shown.element(comparison.ci[0], field("ci", 0)) + ", " + shown.element(comparison.ci[1], field("ci", 1)) + "]",
                HTMLNumber.fixed4.element(comparison.pValue, at("pValue")),
                HTMLNumber.fixed4.element(comparison.pValueAdjusted, at("pValueAdjusted")),
                (comparison.guardrail && !comparison.directionDeclared ? "↑ " : "")
                    + HTMLNumber.percent.element(comparison.chanceToWin, at("chanceToWin")),
                comparison.risk.indices.map { index in
                    page.relative && !undefined ? HTMLNumber.fixed5.element(comparison.risk[index], at("risk", index))
                        : (TableReport.riskDecimals(comparison).map(HTMLNumber.decimals) ?? .figure)
                            .element(comparison.risk[index], field("risk", index))
                }.joined(separator: ", "),
                escape(verdict(comparison, in: experiment)),
            ])
        }
        return table.html + "<p class=\"note\">chance to win: that the variation is better in the metric's direction "
            + "(↓: lower is better; ↑: a guardrail of undeclared direction, the chance of a rise); risk: the expected loss of "
            + "choosing the control or the treatment."
            + (experiment.comparisons.contains(where: \.liftUndefined) ? " " + escape(TableReport.liftUndefinedLegend) + "." : "")
            + "</p>\n"
    }
}
