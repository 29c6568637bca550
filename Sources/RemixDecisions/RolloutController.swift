import Foundation
import RemixAnalysis
import RemixEventLog
import RemixExperiments
import RemixKit
import RemixSimulation
import RemixStatistics

/// The safe-rollout controller (docs/rollouts.md): at each step boundary of each rollout, it
/// analyses the log so far with the project's analysis — up to the boundary, as a team looking at
/// its dashboard then would; each line is counted once, as it is observed (``GrowingLogAnalysis``),
/// so a decision reads only the lines since the one before — and decides: a guardrail significantly worse (a one-sided sequential
/// test, ``GuardrailTest``) → rollback; a sample ratio mismatch (p < 0.001, with at least 8 units
/// per arm, as GrowthBook) → hold; otherwise advance, and after the last step → complete. Each
/// decision is a `rollout_decision` event at the boundary's time.
package final class RolloutController: VirtualTimeController {
    /// How the guardrails and the sample ratio are tested (GrowthBook's safe-rollout defaults).
    package typealias Settings = RolloutSettings

    /// One rollout followed: when its time starts and how far it has come.
    private struct Followed {
        let key: String
        let zero: Int64
        let stepMilliseconds: Double
        /// Boundaries passed (the next is `zero + (passed + 1) × step`).
        var passed = 0
        var finished = false
        /// The rollout's analysis of the lines observed so far.
        var analysis: GrowingLogAnalysis

        var next: Int64 { zero + Int64((Double(passed + 1) * stepMilliseconds).rounded()) }
    }

    private var followed: [Followed]
    private let settings: Settings
    /// Every decision made, in order.
    package private(set) var decisions: [RolloutDecision] = []
    package private(set) var stoppedAtLimit: [String] = []

    /// A controller for the rollouts of `experiments` on `app`; time zero is each rollout's
    /// schedule start, else `start` (the population's). Nothing is written anywhere: each
    /// rollout's analysis keeps what it counted in memory.
    package init(experiments: ExperimentSet, app: String, start: Int64, catalog: MetricCatalog,
                 settings: Settings = Settings()) throws {
        followed = try experiments.definitions.filter { $0.app == app && $0.rollout != nil && $0.isLive }.compactMap { definition in
            guard let rollout = definition.rollout else { return nil }
            let zero = definition.schedule?.start.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } ?? start
            var options = AnalysisOptions(logs: [], definitions: [definition.key: definition], alpha: settings.alpha,
                                          correction: .none, jobs: 1)
            options.catalog = catalog
            var followed = Followed(key: definition.key, zero: zero, stepMilliseconds: rollout.stepHours * 3_600_000,
                                    analysis: try Self.analysis(options, horizon: zero, key: definition.key))
            followed.analysis.advance(to: followed.next)
            return followed
        }
        self.settings = settings
    }

    private static func analysis(_ options: AnalysisOptions, horizon: Int64, key: String) throws -> GrowingLogAnalysis {
        do {
            return try GrowingLogAnalysis(options: options, horizon: horizon)
        } catch {
            throw RolloutControllerError("the rollout \(key) cannot analyse its log: \(error)")
        }
    }

    /// Whether `experiments` hold a rollout on `app` that a controller would follow.
    package static func follows(_ experiments: ExperimentSet, app: String) -> Bool {
        experiments.definitions.contains { $0.app == app && $0.rollout != nil && $0.isLive }
    }

    package func nextBoundary() -> Int64? {
        followed.filter { !$0.finished }.map(\.next).min()
    }

    package func observe(lines: [UInt8]) throws {
        for index in followed.indices where !followed[index].finished { followed[index].analysis.add(lines: lines) }
    }

    package func decide(at boundary: Int64, experiments: ExperimentSet) throws -> ControllerDecision {
        var definitions = experiments.definitions
        var events: [LoggedEvent] = []
        for index in followed.indices where !followed[index].finished && followed[index].next == boundary {
            followed[index].passed += 1
            guard let at = definitions.firstIndex(where: { $0.key == followed[index].key }),
                  var rollout = definitions[at].rollout else { continue }
            let figures = try analyse(definitions[at], in: &followed[index].analysis)
            let decision = RolloutDecision.decide(experiment: definitions[at].key, rollout: rollout, figures: figures,
                                                  settings: settings, time: boundary)
            switch decision.decision {
            case .rollback: rollout.rolledBack = true
            case .advance: rollout.step += 1
            case .hold, .complete: break
            }
            if decision.decision == .rollback || decision.decision == .complete { followed[index].finished = true }
            if !followed[index].finished, followed[index].passed >= ControllerLimit.decisions {
                followed[index].finished = true
                stoppedAtLimit.append(ControllerLimit.note(experiment: followed[index].key,
                                                           keeps: "its share then, \(rollout.share)"))
            }
            definitions[at].rollout = rollout
            definitions[at].experiment.coverage = rollout.share
            followed[index].analysis.advance(to: followed[index].next)
            decisions.append(decision)
            events.append(LoggedEvent(timestamp: boundary, type: RolloutDecision.eventType, session: "", user: "",
                                      fields: decision.fields))
        }
        return ControllerDecision(events: events, experiments: ExperimentSet(definitions: definitions, savedGroups: experiments.savedGroups,
                                                                   slotRules: experiments.slotRules))
    }

    /// The rollout's figures in the log so far, before the analysis's horizon (the boundary).
    private func analyse(_ definition: ExperimentDefinition, in analysis: inout GrowingLogAnalysis) throws -> RolloutFigures {
        analysis.options.definitions = [definition.key: definition]
        let report: AnalysisReport
        do {
            report = try analysis.report()
        } catch {
            throw RolloutControllerError("the rollout \(definition.key) could not analyse its log so far: \(error)")
        }
        guard let experiment = report.experiments.first(where: { $0.key == definition.key }),
              experiment.variations.count == 2 else { return RolloutFigures(units: [0, 0], srmPValue: nil, guardrails: []) }
        let units = experiment.variations.map(\.units)
        return RolloutFigures(units: units, srmPValue: experiment.srmPValue,
                              guardrails: GuardrailTest.results(experiment, alpha: settings.alpha, tuning: settings.sequentialTuning))
    }
}

/// A failure of the rollout controller.
package struct RolloutControllerError: Error, CustomStringConvertible {
    package let description: String

    init(_ description: String) {
        self.description = description
    }
}
