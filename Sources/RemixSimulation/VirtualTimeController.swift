import RemixFormats
import RemixEventLog
import RemixExperiments
import RemixKit

/// Decides, at boundaries in virtual time, what the sessions that start after each boundary meet,
/// from the log written so far: a safe rollout's controller (RemixDecisions), a bandit's. With
/// one, ``SimulationRunner`` runs as a barrier in virtual time: the sessions of an epoch (those
/// starting before the next boundary) are simulated and written, then the controller decides,
/// then the next epoch runs with what it decided.
package protocol VirtualTimeController: AnyObject {
    /// The next time (ms since the Unix epoch) at which it decides, or nil when it decides nothing more.
    func nextBoundary() -> Int64?
    /// Takes lines as they are written to the log (JSON Lines, in log order): the run record, each
    /// epoch's sessions and the controller's own events.
    func observe(lines: [UInt8]) throws
    /// Decides at `boundary` from what it observed: the events to log at that time, and the
    /// experiments that sessions starting from then on meet (changed from `experiments`).
    func decide(at boundary: Int64, experiments: ExperimentSet) throws -> ControllerDecision
    /// The experiments it stopped deciding for at ``ControllerLimit/decisions``, each as a sentence
    /// naming the experiment and the limit.
    var stoppedAtLimit: [String] { get }
}

/// How far a controller goes in one run.
package enum ControllerLimit {
    /// Decisions per experiment (a rollout's step boundaries, a bandit's updates): past them the
    /// experiment keeps what was last decided and the run finishes its sessions.
    package static let decisions = 1_000

    /// What a controller says of `experiment` when it stops there; `keeps` is what its sessions meet from then on.
    package static func note(experiment: String, keeps: String) -> String {
        "\(experiment): \(CountText.grouped(decisions)) decisions, the limit of one run per experiment; "
            + "the later sessions meet \(keeps)"
    }
}

/// What a controller decided at a boundary.
package struct ControllerDecision: Sendable {
    /// Logged at the boundary's time, after the epoch's sessions.
    package var events: [LoggedEvent]
    /// What the sessions after the boundary meet.
    package var experiments: ExperimentSet

    package init(events: [LoggedEvent], experiments: ExperimentSet) {
        self.events = events
        self.experiments = experiments
    }
}

/// Why a run with a controller cannot be made as asked.
package enum VirtualTimeControllerMessages {
    package static let shardsNeedStore = "a rollout or bandit decides at each boundary from every shard's sessions, which shards "
        + "share only through an event store: give every shard the same --log postgresql://… (or leave out --shard and "
        + "write one file)"
}

/// Several controllers run as one (a rollout and a bandit in the same run): the earliest boundary
/// of any, every line to each, and at a boundary each controller due then decides in turn, each
/// from the experiments the one before left.
package final class CombinedController: VirtualTimeController {
    private let controllers: [any VirtualTimeController]

    package init(_ controllers: [any VirtualTimeController]) {
        self.controllers = controllers
    }

    package func nextBoundary() -> Int64? {
        controllers.compactMap { $0.nextBoundary() }.min()
    }

    package func observe(lines: [UInt8]) throws {
        for controller in controllers { try controller.observe(lines: lines) }
    }

    package var stoppedAtLimit: [String] { controllers.flatMap(\.stoppedAtLimit) }

    package func decide(at boundary: Int64, experiments: ExperimentSet) throws -> ControllerDecision {
        var decision = ControllerDecision(events: [], experiments: experiments)
        for controller in controllers where controller.nextBoundary() == boundary {
            let next = try controller.decide(at: boundary, experiments: decision.experiments)
            decision.events += next.events
            decision.experiments = next.experiments
        }
        return decision
    }
}
