import RemixAnalysis

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
        var table = HTMLTable([HTMLTable.Column("until", isText: true)] + experiment.variations.map { HTMLTable.Column("\($0.key) units") }
                              + treatments.map { HTMLTable.Column("\($0) [CI]") })
        for (cut, point) in experiment.overTime.enumerated() {
            let units = experiment.variations.map { variation in
                point.variations.firstIndex { $0.key == variation.key }.map {
                    HTMLNumber.grouped.element(Double(point.variations[$0].units), pointer("overTime", cut, "variations", $0, "units"))
                } ?? "-"
            }
            let effects = treatments.map { key in
                point.comparisons.firstIndex { $0.variation == key && $0.metric == primary }.map {
                    interval(point.comparisons[$0], pointer("overTime", cut, "comparisons", $0))
                } ?? "-"
            }
            table.add([escape(point.untilText)] + units + effects)
        }
        out += "<details><summary>The figures over time</summary>" + table.html + "</details>\n"
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
        var table = HTMLTable([HTMLTable.Column(dimension, isText: true), HTMLTable.Column("units"), HTMLTable.Column("SRM p"),
                               HTMLTable.Column("variation", isText: true),
                               HTMLTable.Column("\(page.relative ? "lift" : "difference") on \(primary) [CI]"),
                               HTMLTable.Column("p adj"), HTMLTable.Column("verdict", isText: true)])
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
                table.add([row == 0 ? escape(slice.value) : "", row == 0 ? TableReport.grouped(units) : "", row == 0 ? srm : "",
                           escape(comparison.variation), interval(comparison, at("comparisons", index)),
                           HTMLNumber.fixed4.element(comparison.pValueAdjusted, at("comparisons", index, "pValueAdjusted")),
                           escape(said)])
            }
            if found.isEmpty { table.add([escape(slice.value), TableReport.grouped(units), srm, "no comparison"]) }
        }
        let title = "\(page.relative ? "Lift" : "Difference") on \(primary) vs \(baseline) for each \(dimension) value, with its CI"
        if !rows.isEmpty {
            out += "<figure>" + HTMLChart.forest(rows, format: effect, relative: page.relative, title: title)
                + "<figcaption>\(escape(title)).</figcaption></figure>\n"
        }
        out += table.html
    }

    /// An effect and its CI, each naming its field; for a baseline of 0, "lift undefined (baseline
    /// 0)" and the absolute difference with its CI.
    func interval(_ comparison: AnalysisReport.Comparison, _ at: JSONPointer) -> String {
        let (shown, field) = comparison.liftUndefined ? (HTMLNumber.signedFigure, at("absoluteDifference")) : (effect, at)
        let figures = shown.element(comparison.expected, field("expected")) + " [" + shown.element(comparison.ci[0], field("ci", 0))
            + ", " + shown.element(comparison.ci[1], field("ci", 1)) + "]"
        return comparison.liftUndefined ? "lift \(escape(TableReport.liftUndefined)); difference " + figures : figures
    }
}
