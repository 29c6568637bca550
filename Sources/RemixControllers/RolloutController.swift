import Foundation
import RemixAnalysis
import RemixEventLog
import RemixExperiments
import RemixKit
import RemixSimulation

/// The safe-rollout controller (docs/rollouts.md): at each step boundary of each rollout, it
/// analyses the log so far with the project's analysis — up to the boundary, as a team looking at
/// its dashboard then would — and decides: a guardrail significantly worse (a one-sided sequential
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

        var next: Int64 { zero + Int64((Double(passed + 1) * stepMilliseconds).rounded()) }
    }

    private var followed: [Followed]
    private let catalog: MetricCatalog
    private let settings: Settings
    private let log: URL
    private let handle: FileHandle
    /// Every decision made, in order.
    package private(set) var decisions: [RolloutDecision] = []

    /// A controller for the rollouts of `experiments` on `app`; time zero is each rollout's
    /// schedule start, else `start` (the population's). The log so far is kept in a temporary file.
    package init(experiments: ExperimentSet, app: String, start: Int64, catalog: MetricCatalog,
                 settings: Settings = Settings()) throws {
        followed = experiments.definitions.filter { $0.app == app && $0.rollout != nil && $0.isLive }.compactMap { definition in
            guard let rollout = definition.rollout else { return nil }
            let zero = definition.schedule?.start.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } ?? start
            return Followed(key: definition.key, zero: zero, stepMilliseconds: rollout.stepHours * 3_600_000)
        }
        self.catalog = catalog
        self.settings = settings
        log = FileManager.default.temporaryDirectory.appendingPathComponent("remix-rollout-\(UUID().uuidString).jsonl")
        guard FileManager.default.createFile(atPath: log.path, contents: nil),
              let handle = FileHandle(forWritingAtPath: log.path) else {
            throw RolloutControllerError("cannot make the rollout controller's working log at \(log.path); "
                                         + "check that the temporary folder (TMPDIR) is writable")
        }
        self.handle = handle
    }

    deinit {
        try? handle.close()
        try? FileManager.default.removeItem(at: log)
    }

    /// Whether `experiments` hold a rollout on `app` that a controller would follow.
    package static func follows(_ experiments: ExperimentSet, app: String) -> Bool {
        experiments.definitions.contains { $0.app == app && $0.rollout != nil && $0.isLive }
    }

    package func nextBoundary() -> Int64? {
        followed.filter { !$0.finished }.map(\.next).min()
    }

    package func observe(lines: [UInt8]) throws {
        try handle.write(contentsOf: Data(lines))
    }

    package func decide(at boundary: Int64, experiments: ExperimentSet) throws -> ControllerDecision {
        var definitions = experiments.definitions
        var events: [LoggedEvent] = []
        for index in followed.indices where !followed[index].finished && followed[index].next == boundary {
            followed[index].passed += 1
            guard let at = definitions.firstIndex(where: { $0.key == followed[index].key }),
                  var rollout = definitions[at].rollout else { continue }
            let figures = try analyse(definitions[at], until: boundary)
            let decision = RolloutDecision.decide(experiment: definitions[at].key, rollout: rollout, figures: figures,
                                                  settings: settings, time: boundary)
            switch decision.decision {
            case .rollback: rollout.rolledBack = true
            case .advance: rollout.step += 1
            case .hold, .complete: break
            }
            if decision.decision == .rollback || decision.decision == .complete { followed[index].finished = true }
            definitions[at].rollout = rollout
            definitions[at].experiment.coverage = rollout.share
            decisions.append(decision)
            events.append(LoggedEvent(timestamp: boundary, type: RolloutDecision.eventType, session: "", user: "",
                                      fields: decision.fields))
        }
        return ControllerDecision(events: events, experiments: ExperimentSet(definitions: definitions, savedGroups: experiments.savedGroups,
                                                                   slotRules: experiments.slotRules))
    }

    /// The rollout's figures in the log so far, before `until`.
    private func analyse(_ definition: ExperimentDefinition, until: Int64) throws -> RolloutFigures {
        var options = AnalysisOptions(logs: [log.path], definitions: [definition.key: definition], alpha: settings.alpha,
                                      correction: .none, jobs: 1)
        options.until = until
        options.catalog = catalog
        let report: AnalysisReport
        do {
            report = try Analyzer.run(options)
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
