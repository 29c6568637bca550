import RemixAnalysis

/// One experiment's part of the HTML page: what it found, what must not be missed, the charts
/// (forest plots, funnel, effect over time, time to conversion, breakdowns) and the numbers.
struct HTMLExperimentSection {
    let page: HTMLPage
    let experiment: AnalysisReport.Experiment
    /// The experiment in the JSON report.
    let pointer: JSONPointer
    var out = ""

    init(page: HTMLPage, experiment: AnalysisReport.Experiment, pointer: JSONPointer) {
        self.page = page
        self.experiment = experiment
        self.pointer = pointer
    }

    var report: AnalysisReport { page.report }
    var effect: HTMLNumber { page.effect }
    var baseline: String { experiment.variations.first?.key ?? "-" }
    /// The primary metric: the experiment's, else the first reported.
    var primary: String { experiment.variations.first?.metrics.first?.metric ?? experiment.primaryMetric ?? "-" }
    func escape(_ text: String) -> String { HTMLStyle.escape(text) }
    func colour(of variation: String) -> Int { experiment.variations.firstIndex { $0.key == variation } ?? 0 }

    func verdict(_ comparison: AnalysisReport.Comparison, in experiment: AnalysisReport.Experiment) -> String {
        TableReport.verdict(comparison, hasFile: experiment.hasFile, alpha: report.alpha, absolute: !page.relative)
    }

    /// The section's markup, under the heading `title`.
    mutating func build(title: String) -> String {
        let units = experiment.variations.reduce(0) { $0 + $1.units }
        out += "<h2>\(escape(title))</h2>\n<p class=\"muted\">"
        out += (experiment.hasFile ? "primary metric <b>\(escape(experiment.primaryMetric ?? primary))</b>" : "no experiment file")
            + (experiment.guardrails.isEmpty ? "" : " · guardrails " + escape(experiment.guardrails.joined(separator: ", ")))
            + " · \(TableReport.grouped(units)) units · SRM p = "
            + (experiment.srmPValue.map { HTMLNumber.fixed4.element($0, pointer("srmPValue")) } ?? "n/a")
            + " · multiple-exposure units excluded: "
            + HTMLNumber.grouped.element(Double(experiment.multipleExposureUnits), pointer("multipleExposureUnits")) + "</p>\n"
        if let phases = experiment.phaseSummary { out += "<p class=\"muted\">\(escape(phases))</p>\n" }
        banners()
        verdictLine()
        forestPlots()
        out += "<h3>Numbers</h3>\n" + variationTable(experiment, pointer: pointer) + comparisonTable(experiment, pointer: pointer)
        rolloutTimeline()
        banditSection()
        funnel()
        overTime()
        timeToConversion()
        slices()
        return out
    }

    private mutating func banners() {
        if let srm = experiment.srmPValue, srm < srmThreshold {
            out += page.banner("Sample ratio mismatch", "SRM p = \(TableReport.fixed(srm, 4)) is below \(srmThreshold): the "
                               + "split of units is not the one planned — do not trust these results", alert: true)
        }
        if experiment.multipleExposureUnits > 0 {
            out += page.banner("Multiple exposures", "\(TableReport.grouped(experiment.multipleExposureUnits)) unit(s) saw more "
                               + "than one variation and are left out of every figure")
        }
        for warning in experiment.warnings {
            let label = warning.contains("no experiment file") ? "No experiment file"
                : warning.contains("does not declare") ? "Undeclared variations" : "Warning"
            out += page.banner(label, warning, alert: label != "Warning")
        }
        for note in experiment.notes { out += "<p class=\"note\">note: \(escape(note))</p>\n" }
    }

    /// Per treatment: winner, loser or inconclusive on the primary metric; then the guardrails that moved.
    private mutating func verdictLine() {
        out += "<div class=\"verdict\">"
        let treatments = experiment.variations.dropFirst()
        if treatments.isEmpty { out += "<p>Only one variation: nothing to compare.</p>" }
        for variation in treatments {
            guard let index = experiment.comparisons.firstIndex(where: { $0.variation == variation.key && $0.metric == primary }) else {
                continue
            }
            let comparison = experiment.comparisons[index]
            let said = verdict(comparison, in: experiment)
            let (tag, style) = said == "WINNER" ? ("winner", "win") : said == "LOSER" ? ("loser", "lose")
                : said == "significant" ? ("significant, no verdict without an experiment file", "none")
                : said.isEmpty ? ("inconclusive", "none") : (said.hasPrefix("⚠") ? "no result" : said, "none")
            let at = pointer("comparisons", index)
            out += "<p><span class=\"key \(HTMLStyle.colour(colour(of: variation.key)))\"></span><b>\(escape(variation.key))</b> vs "
                + "\(escape(baseline)) on \(escape(primary)): <span class=\"tag \(style)\">\(escape(tag))</span> "
                + interval(comparison, at) + (said.hasPrefix("⚠") ? " — " + escape(said) : "") + "</p>"
        }
        let moved = experiment.comparisons.filter { verdict($0, in: experiment).hasPrefix("guardrail") }
        if !moved.isEmpty {
            out += "<p>Guardrails that moved: " + moved.map { comparison in
                let said = verdict(comparison, in: experiment)
                let style = said.hasSuffix("(better)") ? "win" : said.hasSuffix("(worse)") ? "lose" : "guard"
                return "<span class=\"tag \(style)\">\(escape(comparison.metric))</span> \(escape(said.dropFirst("guardrail ".count).description)) "
                    + "in \(escape(comparison.variation))"
            }.joined(separator: "; ") + "</p>"
        } else if !experiment.guardrails.isEmpty, experiment.hasFile {
            out += "<p>No guardrail moved significantly.</p>"
        }
        out += "</div>\n"
    }

    /// A forest plot per metric group (primary, secondary, guardrails); with absolute differences,
    /// whose units differ between metrics, one per metric.
    private mutating func forestPlots() {
        let comparisons = Array(experiment.comparisons.enumerated())
        guard !comparisons.isEmpty else { return }
        let metrics = (experiment.variations.first?.metrics ?? []).map(\.metric)
        var groups: [(name: String, metrics: [String])] = []
        if page.relative {
            let guardrails = metrics.filter { experiment.guardrails.contains($0) && $0 != primary }
            let secondary = metrics.filter { $0 != primary && !guardrails.contains($0) }
            groups = [("Primary metric", [primary]), ("Secondary metrics", secondary), ("Guardrails", guardrails)]
        } else {
            groups = metrics.map { ($0 == primary ? "Primary metric" : experiment.guardrails.contains($0) ? "Guardrail" : "Metric", [$0]) }
        }
        out += "<h3>Effects against \(escape(baseline))</h3>\n"
        for group in groups where !group.metrics.isEmpty {
            let rows = comparisons.filter { group.metrics.contains($0.element.metric) }.map { index, comparison in
                let said = verdict(comparison, in: experiment)
                return forestRow(comparison, label: group.metrics.count == 1 ? comparison.variation
                                    : "\(comparison.metric) · \(comparison.variation)",
                                 pointer: pointer("comparisons", index), mark: Self.mark(said))
            }
            guard !rows.isEmpty else { continue }
            let name = group.metrics.count == 1 ? "\(group.name): \(group.metrics[0])" : group.name
            let title = "\(name) — \(page.relative ? "lift" : "difference") of each variation vs \(baseline) with its "
                + "\(Int(((1 - report.alpha) * 100).rounded()))% CI"
            out += "<figure>" + HTMLChart.forest(rows, format: effect, relative: page.relative, title: title)
                + "<figcaption>\(escape(title)); the dashed line is no effect.</figcaption></figure>\n"
        }
    }

    /// A forest plot's row for `comparison`: its effect with the CI, or no point where the baseline
    /// is 0 and the lift is undefined.
    func forestRow(_ comparison: AnalysisReport.Comparison, label: String, pointer: JSONPointer, mark: String) -> HTMLChart.Interval {
        var row = HTMLChart.Interval(label: label, colour: colour(of: comparison.variation), estimate: comparison.expected,
                                     low: comparison.ci[0], high: comparison.ci[1], pointer: pointer, mark: mark)
        if comparison.liftUndefined { row.undefined = "lift " + TableReport.liftUndefined }
        return row
    }

    /// The short verdict a chart row shows.
    static func mark(_ verdict: String) -> String {
        verdict == "WINNER" || verdict == "LOSER" ? verdict
            : verdict.hasSuffix("(better)") ? "better" : verdict.hasSuffix("(worse)") ? "worse"
            : verdict.hasPrefix("guardrail") ? "moved" : verdict.hasPrefix("too few") ? "too few units" : ""
    }

    /// The screens any variation's units reached — the union, as a screen only a treatment shows
    /// (AutoGroupInsertion's `toast`, ExpressionEntry's `expression`) is the point — by units over
    /// every variation (most first, then by name), `(other screens)` last.
    static func funnelScreens(_ variations: [AnalysisReport.Variation]) -> [String] {
        var units: [String: Int] = [:]
        for step in variations.flatMap(\.funnel) { units[step.screen, default: 0] += step.units }
        let other = units.removeValue(forKey: ScreenTally.otherName)
        return units.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key) + (other.map { _ in [ScreenTally.otherName] } ?? [])
    }

    private mutating func funnel() {
        let all = Self.funnelScreens(experiment.variations)
        let screens = all.prefix(8)
        out += "<h3>Funnel</h3>\n"
        guard !screens.isEmpty else {
            out += "<p class=\"note\">No screen events after exposure.</p>\n"
            return
        }
        let data = screens.map { screen in
            (screen: screen, bars: experiment.variations.enumerated().compactMap { index, variation -> HTMLChart.Bar? in
                guard let step = variation.funnel.first(where: { $0.screen == screen }) else { return nil }
                return HTMLChart.Bar(variation: variation.key, colour: index, share: step.share,
                                     pointer: pointer("variations", index, "funnel", screen, "share"))
            })
        }
        let title = "Share of each variation's exposed units reaching each screen after exposure"
        out += "<figure>" + legend() + HTMLChart.funnel(data, title: title) + "<figcaption>\(escape(title))"
            + (screens.count < all.count ? " (the 8 screens most units reached)" : "")
            + ".</figcaption></figure>\n"
    }

    /// The variations' colours (from the first treatment on, for charts of effects).
    func legend(treatmentsOnly: Bool = false) -> String {
        "<p class=\"note\">" + experiment.variations.enumerated().dropFirst(treatmentsOnly ? 1 : 0).map { index, variation in
            "<span class=\"key \(HTMLStyle.colour(index))\"></span>\(escape(variation.key))"
        }.joined(separator: " &#160; ") + "</p>"
    }
}
