import RemixAnalysis

extension HTMLExperimentSection {
    /// A rollout's timeline: at each step boundary, the step tested, the share from then on, the
    /// decision (a rollback marked), the figures tested and why.
    mutating func rolloutTimeline() {
        guard !experiment.rolloutTimeline.isEmpty else { return }
        out += "<h3>Rollout timeline</h3>\n<p class=\"muted\">Share: of traffic in the rollout from that time on, half of it "
            + "with the feature. Guardrails tested one-sided and sequentially, as GrowthBook's safe rollouts.</p>\n"
        let steps = experiment.rolloutTimeline.enumerated().map { index, decision in
            HTMLChart.ShareStep(label: "\(decision.timeText) · \(decision.decision.rawValue) after step \(decision.step)",
                                share: decision.share, rollback: decision.decision == .rollback,
                                pointer: pointer("rolloutTimeline", index, "share"))
        }
        let title = "Share of traffic in the rollout after each decision"
        out += "<figure>" + HTMLChart.rolloutShares(steps, title: title) + "<figcaption>\(escape(title)).</figcaption></figure>\n"
        var table = HTMLTable([.init("time", isText: true), .init("step"), .init("share"), .init("decision", isText: true),
                               .init("control / rollout units"), .init("SRM p"), .init("guardrails tested", isText: true),
                               .init("reason", isText: true)])
        for decision in experiment.rolloutTimeline {
            let kind = decision.decision == .rollback ? "<span class=\"tag lose\">rollback</span>" : escape(decision.decision.rawValue)
            let units = decision.units.map { TableReport.grouped($0) }.joined(separator: " / ")
            let tests = decision.guardrails.map { guardrail in
                escape(guardrail.metric) + " " + (guardrail.error.map { "untested (\(escape(TableReport.errorText($0))))" }
                    ?? "\(TableReport.signedFigure(guardrail.effect)) (bound \(TableReport.signedFigure(guardrail.bound)), "
                    + "p \(TableReport.fixed(guardrail.pValue, 4)))" + (guardrail.worse ? " <span class=\"tag lose\">worse</span>" : ""))
            }.joined(separator: "<br>")
            table.add([escape(decision.timeText), String(decision.step), TableReport.figure(decision.share), kind, units,
                       decision.srmPValue.map { TableReport.fixed($0, 4) } ?? "n/a", tests, escape(decision.reason)])
        }
        out += table.html
    }
}
