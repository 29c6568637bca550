import RemixAnalysis

extension JSONReport {
    /// A bandit's report: `bandit: {metric, inverse, srmPValue, arms: [...], updates: [{time, update,
    /// enoughUnits, srmPValue, arms: [{variation, units, weight, bestProbability, posterior}]}],
    /// leaves: [{leaf, srmPValue, arms: [{variation, units, weight, bestProbability}], updates: [...]}]}`
    /// — `leaves` for a contextual bandit, each leaf's SRM and arms as its latest update says them
    /// (its `srmPValue` then the leaves', ``BanditReport/leafSRM(_:)``).
    static func banditObject(_ bandit: BanditReport, into out: JSONWriter) {
        out.key("bandit")
        out.object {
            out.field("metric", bandit.metric)
            out.field("inverse", bandit.inverse)
            out.field("srmPValue", bandit.srmPValue)
            out.field("regret", bandit.regret)
            out.field("equalSplitRegret", bandit.equalSplitRegret)
            out.key("arms")
            out.array(bandit.arms) { arm in
                out.object {
                    out.field("variation", arm.variation)
                    out.field("units", arm.units)
                    out.field("mean", arm.mean)
                    out.field("standardError", arm.standardError)
                    out.field("pooledMean", arm.pooledMean)
                    out.field("bestProbability", arm.bestProbability)
                }
            }
            updates(bandit.updates, into: out)
            if !bandit.leaves.isEmpty {
                out.key("leaves")
                out.array(bandit.leaves) { leaf in
                    out.object {
                        out.field("leaf", leaf.leaf)
                        out.field("srmPValue", leaf.updates.last?.update.srmPValue)
                        out.key("arms")
                        out.array(leaf.arms) { arm in armObject(arm, posterior: false, into: out) }
                        updates(leaf.updates, into: out)
                    }
                }
            }
        }
    }

    /// `updates`: each update's time, number, whether the weights moved, SRM p and arms.
    private static func updates(_ updates: [(time: Int64, update: BanditUpdate)], into out: JSONWriter) {
        out.key("updates")
        out.array(updates.map { $0 }) { time, update in
            out.object {
                out.field("time", BanditReport.timeText(time))
                out.field("update", update.update)
                out.field("enoughUnits", update.enoughUnits)
                out.field("srmPValue", update.srmPValue)
                out.key("arms")
                out.array(update.arms) { arm in armObject(arm, posterior: true, into: out) }
            }
        }
    }

    /// One arm at an update: variation, units, weight, chance of being best, and with `posterior`
    /// its posterior's mean and SD.
    private static func armObject(_ arm: BanditUpdate.Arm, posterior: Bool, into out: JSONWriter) {
        out.object {
            out.field("variation", arm.variation)
            out.field("units", arm.units)
            out.field("weight", arm.weight)
            out.field("bestProbability", arm.bestProbability)
            if posterior {
                out.field("posteriorMean", arm.posterior?.mean)
                out.field("posteriorSD", arm.posterior?.sd)
            }
        }
    }
}
