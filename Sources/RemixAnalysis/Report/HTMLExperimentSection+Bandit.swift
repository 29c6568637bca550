extension HTMLExperimentSection {
    /// A bandit: each arm's period-weighted estimate, and its weights over time drawn as lines
    /// (the equal start, then each update's weights in force from its time on).
    mutating func banditSection() {
        guard let bandit = experiment.bandit else { return }
        out += "<h3>Bandit</h3>\n<p class=\"muted\">Each arm's mean of \(escape(bandit.metric)) weighted period by period "
            + "(each period's share of all units), as GrowthBook does against Simpson's paradox; pooled: the plain mean. "
            + "Bandit SRM p " + (bandit.srmPValue.map { TableReport.fixed($0, 4) } ?? "n/a")
            + " against the units the weights in force lead one to expect.</p>\n"
        var table = HTMLTable([.init("arm", isText: true), .init("units"), .init("mean"), .init("± 95 %"), .init("pooled"),
                               .init("chance best")])
        for arm in bandit.arms {
            table.add([escape(arm.variation), TableReport.grouped(arm.units), TableReport.figure(arm.mean),
                       TableReport.figure(1.959964 * arm.standardError), TableReport.figure(arm.pooledMean),
                       TableReport.percent(arm.bestProbability)])
        }
        out += table.html
        guard !bandit.updates.isEmpty else { return }
        let cuts = ["start"] + bandit.updates.map { BanditReport.timeText($0.time) }
        let series = bandit.arms.indices.map { arm in
            let start = 1 / Double(bandit.arms.count)
            let weights = [start] + bandit.updates.map { $0.update.arms.indices.contains(arm) ? $0.update.arms[arm].weight : .nan }
            return (label: bandit.arms[arm].variation, colour: arm, points: weights.enumerated().map { index, weight in
                HTMLChart.Interval(label: bandit.arms[arm].variation, colour: arm, estimate: weight, low: weight, high: weight,
                                   pointer: index == 0 ? pointer("bandit", "arms", arm) : pointer("bandit", "updates", index - 1, "arms", arm, "weight"))
            })
        }
        let title = "Each arm's weight after each update"
        out += "<figure>" + HTMLChart.overTime(series, cuts: cuts, format: .percent, relative: false, title: title)
            + "<figcaption>\(escape(title)).</figcaption></figure>\n"
    }
}
