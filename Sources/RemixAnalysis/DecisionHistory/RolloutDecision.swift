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

    package init(experiment: String, time: Int64, step: Int, share: Double, decision: Kind, reason: String, units: [Int],
                 srmPValue: Double?, guardrails: [GuardrailResult]) {
        (self.experiment, self.time, self.step, self.share, self.decision) = (experiment, time, step, share, decision)
        (self.reason, self.units, self.srmPValue, self.guardrails) = (reason, units, srmPValue, guardrails)
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
