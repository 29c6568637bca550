import RemixAnalysis
import RemixExperiments
import RemixStatistics

extension RolloutDecision {
    /// The decision for `rollout` at step `rollout.step` from `figures`: rollback when a guardrail
    /// is significantly worse, hold on a sample ratio mismatch, else advance or, after the last step, complete.
    package static func decide(experiment: String, rollout: Rollout, figures: RolloutFigures, settings: RolloutSettings,
                               time: Int64) -> RolloutDecision {
        var decision = RolloutDecision(experiment: experiment, time: time, step: rollout.step + 1, share: rollout.share,
                                       decision: .advance, reason: "", units: figures.units, srmPValue: figures.srmPValue,
                                       guardrails: figures.guardrails)
        let worse = figures.guardrails.filter(\.worse)
        let srmTested = figures.units.count == 2 && figures.units.allSatisfy { $0 >= settings.srmMinimumUnits }
        if !worse.isEmpty {
            decision.decision = .rollback
            decision.share = 0
            decision.reason = worse.map(\.summary).joined(separator: "; ") + ": roll back"
        } else if srmTested, let p = figures.srmPValue, p < settings.srmThreshold {
            decision.decision = .hold
            decision.reason = "sample ratio mismatch (p \(Figure.p(p)) < \(Figure.p(settings.srmThreshold)); "
                + "\(figures.units[0]) control vs \(figures.units[1]) rollout units): hold at step \(rollout.step + 1)"
        } else if rollout.step + 1 < rollout.steps.count {
            decision.share = rollout.steps[rollout.step + 1]
            decision.reason = "no guardrail significantly worse (\(figures.units[safe: 0]) control, \(figures.units[safe: 1]) rollout units): "
                + "advance to step \(rollout.step + 2), share \(Figure.share(decision.share))"
        } else {
            decision.decision = .complete
            decision.reason = "no guardrail significantly worse after the last step (\(figures.units[safe: 0]) control, "
                + "\(figures.units[safe: 1]) rollout units): the ramp is complete at share \(Figure.share(decision.share))"
        }
        return decision
    }
}

/// The thresholds a rollout's decisions use (GrowthBook's safe-rollout defaults).
package struct RolloutSettings: Sendable {
    package var alpha = 0.05
    package var sequentialTuning = TestSettings.defaultSequentialTuning
    package var srmThreshold = RemixAnalysis.srmThreshold
    /// Fewer units in an arm and the sample ratio is not tested (GrowthBook's DEFAULT_SRM_MINIMINUM_COUNT_PER_VARIATION).
    package var srmMinimumUnits = 8

    package init() {}
}

/// What a rollout's controller read at a boundary: units per arm (control, rollout), the SRM p-value and the guardrails' tests.
package struct RolloutFigures: Sendable, Equatable {
    package var units: [Int]
    package var srmPValue: Double?
    package var guardrails: [GuardrailResult]

    package init(units: [Int], srmPValue: Double?, guardrails: [GuardrailResult]) {
        self.units = units
        self.srmPValue = srmPValue
        self.guardrails = guardrails
    }
}

extension Array where Element == Int {
    /// The element at `index`, or 0.
    fileprivate subscript(safe index: Int) -> Int { indices.contains(index) ? self[index] : 0 }
}
