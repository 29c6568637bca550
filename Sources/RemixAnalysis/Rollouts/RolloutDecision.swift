import Foundation
import RemixExperiments
import RemixFormats
import RemixKit
import RemixStatistics

/// A safe rollout controller's decision at a step boundary, as its `rollout_decision` event says
/// it: which step was tested, the share of traffic from then on, what was decided and why, and the
/// figures tested (units per arm, the SRM p-value, each guardrail's one-sided sequential test).
package struct RolloutDecision: Sendable, Equatable {
    /// What the controller decided.
    package enum Kind: String, Sendable, CaseIterable {
        /// A guardrail is significantly worse: no session is in the rollout from now on.
        case rollback
        /// Sample ratio mismatch: stay at this step.
        case hold
        /// Go to the next step's share.
        case advance
        /// The last step passed: the ramp is complete, and the last share stays.
        case complete
    }

    /// The event's type.
    package static let eventType = "rollout_decision"

    package var experiment: String
    /// The boundary's time, ms since the Unix epoch.
    package var time: Int64
    /// The step whose sessions were tested (1-based).
    package var step: Int
    /// The share of traffic in the rollout from this boundary on (0 after a rollback).
    package var share: Double
    package var decision: Kind
    package var reason: String
    /// Units in the control arm and the rollout arm so far.
    package var units: [Int]
    package var srmPValue: Double?
    package var guardrails: [GuardrailResult]

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

    /// The event's fields, in a stable order.
    package var fields: [EventField] {
        [
            EventField("experiment", .string(experiment)),
            EventField("step", .int(step)),
            EventField("share", .double(share)),
            EventField("decision", .string(decision.rawValue)),
            EventField("reason", .string(reason)),
            EventField("units", .array(units.map(EventValue.int))),
            EventField("srmPValue", Figure.value(srmPValue)),
            EventField("guardrails", .array(guardrails.map { guardrail in
                .object([
                    EventField("metric", .string(guardrail.metric)),
                    EventField("inverse", .bool(guardrail.inverse)),
                    EventField("control", Figure.value(guardrail.control)),
                    EventField("rollout", Figure.value(guardrail.rollout)),
                    EventField("effect", Figure.value(guardrail.effect)),
                    EventField("bound", Figure.value(guardrail.bound)),
                    EventField("pValue", Figure.value(guardrail.pValue)),
                    EventField("worse", .bool(guardrail.worse)),
                    EventField("error", guardrail.error.map(EventValue.string) ?? .null),
                ])
            })),
        ]
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

extension GuardrailResult {
    /// The test in words: `cancelled is significantly worse: +0.062 (bound +0.021 > 0, p 0.0031)`.
    package var summary: String {
        let side = inverse ? "> 0" : "< 0"
        return "\(metric) is significantly worse: \(Figure.signed(effect)) (one-sided bound \(Figure.signed(bound)) \(side), "
            + "p \(Figure.p(pValue)))"
    }
}

/// How rollout figures are written in reasons and events.
package enum Figure {
    package static func value(_ value: Double?) -> EventValue {
        guard let value, value.isFinite else { return .null }
        return .double(value)
    }

    package static func signed(_ value: Double) -> String {
        (value >= 0 ? "+" : "") + String(format: "%.4f", value)
    }

    package static func p(_ value: Double) -> String {
        value < 0.0001 ? String(format: "%.1e", value) : String(format: "%.4f", value)
    }

    package static func share(_ value: Double) -> String {
        String(format: "%g", value)
    }
}

extension Array where Element == Int {
    /// The element at `index`, or 0.
    fileprivate subscript(safe index: Int) -> Int { indices.contains(index) ? self[index] : 0 }
}

extension RolloutDecision {
    /// The boundary's time as RFC 3339 to the second, e.g. `2026-11-23T09:30:00Z`.
    package var timeText: String {
        let (days, rest) = (time.quotientAndRemainder(dividingBy: 86_400_000))
        let (dayNumber, milliseconds) = rest < 0 ? (days - 1, rest + 86_400_000) : (days, rest)
        let date = CivilTime.civil(fromDays: dayNumber)
        let seconds = milliseconds / 1000
        return String(format: "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ", date.year, date.month, date.day,
                      seconds / 3600, seconds / 60 % 60, seconds % 60)
    }

    /// The figures tested, in words: units per arm, SRM p and each guardrail's effect with its bound
    /// and p, or why it is untested in the words the other tables use (``StatisticsMessage/words(_:)``).
    package var figuresText: String {
        let units = units.count == 2 ? "\(units[0]) / \(units[1]) units" : "no units"
        let srm = srmPValue.map { "SRM p \(Figure.p($0))" } ?? "SRM p n/a"
        let tests = guardrails.map { guardrail in
            guardrail.error.map { "\(guardrail.metric) untested (\(StatisticsMessage.words($0)))" }
                ?? "\(guardrail.metric) \(Figure.signed(guardrail.effect)) (bound \(Figure.signed(guardrail.bound)), p \(Figure.p(guardrail.pValue)))"
        }
        return ([units, srm] + tests).joined(separator: " · ")
    }
}
