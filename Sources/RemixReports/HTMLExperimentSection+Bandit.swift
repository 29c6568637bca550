import RemixAnalysis

extension HTMLExperimentSection {
    /// A bandit: each arm's period-weighted estimate, and its weights over time drawn as lines
    /// (the equal start, then each update's weights in force from its time on); for a contextual
    /// bandit, each leaf's arms at its latest update and its weights over time.
    mutating func banditSection() {
        guard let bandit = experiment.bandit else { return }
        out += "<h3>Bandit</h3>\n<p class=\"muted\">Each arm's mean of \(escape(bandit.metric)) weighted period by period "
            + "(each period's share of all units), as GrowthBook does against Simpson's paradox; pooled: the plain mean. "
            + "Bandit SRM p " + (bandit.srmPValue.map { TableReport.fixed($0, 4) } ?? "n/a")
            + (bandit.leaves.isEmpty ? " against the units the weights in force lead one to expect.</p>\n"
                : ": the smallest of the leaves' own (at their latest updates) × \(bandit.leaves.count) leaves.</p>\n")
        var table = HTMLTable([.init("arm", isText: true), .init("units"), .init("mean"), .init("± 95 %"), .init("pooled"),
                               .init("chance best")])
        for arm in bandit.arms {
            table.add([escape(arm.variation), TableReport.grouped(arm.units), TableReport.figure(arm.mean),
                       TableReport.figure(1.959964 * arm.standardError), TableReport.figure(arm.pooledMean),
                       TableReport.percent(arm.bestProbability)])
        }
        out += table.html
        // The closures point from a copy: `weightChart` mutates `self`.
        let pointer = self.pointer
        weightChart(bandit.updates, arms: bandit.arms.map(\.variation), title: "Each arm's weight after each update",
                    pointer: { update, arm in
                        update.map { pointer("bandit", "updates", $0, "arms", arm, "weight") } ?? pointer("bandit", "arms", arm)
                    })
        for (index, leaf) in bandit.leaves.enumerated() {
            guard let (time, latest) = leaf.updates.last else { continue }
            out += "<h4>Leaf \(escape(leaf.leaf))</h4>\n<p class=\"muted\">Its users only: each arm at the leaf's latest "
                + "update (\(latest.update), \(BanditReport.timeText(time))); its bandit SRM p "
                + (latest.srmPValue.map { TableReport.fixed($0, 4) } ?? "n/a") + ".</p>\n"
            var arms = HTMLTable([.init("arm", isText: true), .init("units"), .init("weight"), .init("chance best")])
            for arm in leaf.arms {
                arms.add([escape(arm.variation), TableReport.grouped(arm.units), TableReport.percent(arm.weight),
                          arm.bestProbability.map(TableReport.percent) ?? "n/a"])
            }
            out += arms.html
            weightChart(leaf.updates, arms: leaf.arms.map(\.variation), title: "Leaf \(leaf.leaf): each arm's weight after each update",
                        pointer: { update, arm in
                            update.map { pointer("bandit", "leaves", index, "updates", $0, "arms", arm, "weight") }
                                ?? pointer("bandit", "leaves", index, "arms", arm)
                        })
        }
    }

    /// The weights of `arms` from an equal start through each of `updates`, as lines over time;
    /// `at(update, arm)` points into the JSON report (a nil update: the start).
    private mutating func weightChart(_ updates: [(time: Int64, update: BanditUpdate)], arms: [String], title: String,
                                      pointer at: (Int?, Int) -> JSONPointer) {
        guard !updates.isEmpty else { return }
        let cuts = ["start"] + updates.map { BanditReport.timeText($0.time) }
        let series = arms.indices.map { arm in
            let start = 1 / Double(arms.count)
            let weights = [start] + updates.map { $0.update.arms.indices.contains(arm) ? $0.update.arms[arm].weight : .nan }
            return (label: arms[arm], colour: arm, points: weights.enumerated().map { index, weight in
                HTMLChart.Interval(label: arms[arm], colour: arm, estimate: weight, low: weight, high: weight,
                                   pointer: at(index == 0 ? nil : index - 1, arm))
            })
        }
        out += "<figure>" + HTMLChart.overTime(series, cuts: cuts, format: .percent, relative: false, title: title)
            + "<figcaption>\(escape(title)).</figcaption></figure>\n"
    }
}
