import Foundation
import RemixAnalysis
import RemixEventLog
import RemixExperiments
import RemixFormats
import RemixKit
import RemixLogReader
import RemixSimulation

/// The bandit controller (docs/bandits.md): each bandit of the app keeps equal weights until
/// `exploreHours` after its time zero, then at every `updateHours` it reads the log so far — each
/// unit's first exposure and its metric before the update — and sets the weights to each arm's
/// probability of being best (``BanditStatistics``), floored at `minWeight`. Each update is a
/// `bandit_update` event at its time; the sessions after it meet the new weights.
package final class BanditController: VirtualTimeController {
    /// One bandit followed.
    private struct Followed {
        let key: String
        /// The contextual leaf (index into the bandit's leaves) it learns for; nil for a plain bandit.
        let leaf: Int?
        let bandit: Bandit
        let variations: [String]
        let zero: Int64
        let inverse: Bool
        var tracker: BanditTracker
        /// The weights in force in each period so far.
        var history: [[Double]]
        var updates = 0

        var next: Int64 { bandit.boundary(updates, from: zero) }
    }

    private var followed: [Followed]
    /// Every update made, in order.
    package private(set) var updates: [BanditUpdate] = []

    package var stoppedAtLimit: [String] {
        var seen = Set<String>()
        return followed.filter { $0.updates >= ControllerLimit.decisions && seen.insert($0.key).inserted }.map {
            ControllerLimit.note(experiment: $0.key, keeps: "its last weights")
        }
    }

    /// A controller for the live bandits of `experiments` on `app`; time zero is each bandit's
    /// schedule start, else `start` (the population's).
    package init(experiments: ExperimentSet, app: String, start: Int64, catalog: MetricCatalog) {
        followed = experiments.definitions.filter { $0.app == app && $0.bandit != nil && $0.isLive }.compactMap { definition -> [Followed]? in
            guard let bandit = definition.bandit else { return nil }
            let zero = definition.schedule?.start.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } ?? start
            let metric = catalog.resolve(bandit.metric)
            let arms = definition.variations.count
            var tracker = BanditTracker(experiment: definition.key, arms: arms, metric: metric)
            tracker.expectBoundary(bandit.boundary(0, from: zero))
            let leaves: [Int?] = bandit.leaves.isEmpty ? [nil] : bandit.leaves.indices.map { $0 }
            return leaves.map { leaf in
                Followed(key: definition.key, leaf: leaf, bandit: bandit, variations: definition.variations.map(\.key), zero: zero,
                         inverse: metric.inverse, tracker: tracker,
                         history: [definition.experiment.weights ?? Array(repeating: 1 / Double(arms), count: arms)])
            }
        }.flatMap { $0 }
    }

    /// Whether `experiments` hold a live bandit on `app`.
    package static func follows(_ experiments: ExperimentSet, app: String) -> Bool {
        experiments.definitions.contains { $0.app == app && $0.bandit != nil && $0.isLive }
    }

    package func nextBoundary() -> Int64? {
        followed.filter { $0.updates < ControllerLimit.decisions }.map(\.next).min()
    }

    package func observe(lines: [UInt8]) throws {
        let contextual = followed.contains { $0.leaf != nil }
        let wanted = Set(followed.compactMap { $0.tracker.metric.event } + ["exposure"] + (contextual ? ["session_started"] : []))
            .map { Array("\"type\":\"\($0)\"".utf8) }
        for line in lines.split(separator: UInt8(ascii: "\n")) where wanted.contains(where: { Self.contains(line, $0) }) {
            guard let object = LogLineObject.parse(line) else { continue }
            if object["type"]?.stringValue == "session_started" {
                remember(object)
                continue
            }
            let user = object["user"]?.stringValue ?? ""
            for index in followed.indices {
                // A leaf learns from the exposures of its users only (their leaf from their attributes).
                if let leaf = followed[index].leaf, object["type"]?.stringValue == "exposure",
                   leaves[followed[index].key]?[user] != leaf { continue }
                followed[index].tracker.observe(object)
            }
        }
    }

    /// Each contextual bandit's leaf of each user seen, by key: from the user's first session's attributes.
    private var leaves: [String: [String: Int]] = [:]
    private var banditsWithLeaves: [String: Bandit] {
        Dictionary(followed.filter { $0.leaf != nil }.map { ($0.key, $0.bandit) }, uniquingKeysWith: { first, _ in first })
    }

    /// A session's attributes as the simulation assigned with them (booleans stay booleans, as the
    /// bandit's leaf conditions test them), so each user gets the leaf the simulation gave it.
    private func remember(_ session: [String: AttributeValue]) {
        guard let user = session["user"]?.stringValue, let attributes = session["attributes"]?.objectValue else { return }
        let context = AssignmentContext(attributes: attributes)
        for (key, bandit) in banditsWithLeaves where leaves[key]?[user] == nil {
            if let leaf = bandit.leaf(for: context) { leaves[key, default: [:]][user] = leaf }
        }
    }

    package func decide(at boundary: Int64, experiments: ExperimentSet) throws -> ControllerDecision {
        var definitions = experiments.definitions
        var events: [LoggedEvent] = []
        for index in followed.indices where followed[index].next == boundary && followed[index].updates < ControllerLimit.decisions {
            guard let at = definitions.firstIndex(where: { $0.key == followed[index].key }) else { continue }
            let update = Self.update(&followed[index], at: boundary)
            if let leaf = followed[index].leaf {
                definitions[at].bandit?.leaves[leaf].weights = update.arms.map(\.weight)
            } else {
                definitions[at].experiment.weights = update.arms.map(\.weight)
            }
            updates.append(update)
            events.append(LoggedEvent(timestamp: boundary, type: BanditUpdate.eventType, session: "", user: "", fields: update.fields))
        }
        return ControllerDecision(events: events, experiments: ExperimentSet(definitions: definitions, savedGroups: experiments.savedGroups,
                                                                   slotRules: experiments.slotRules))
    }

    /// The update of `bandit` at `boundary`: figures from the log before it, new weights when every
    /// arm has enough units; the period closes and the next one starts with the weights in force.
    private static func update(_ bandit: inout Followed, at boundary: Int64) -> BanditUpdate {
        let tallies = bandit.tracker.tallies()
        let current = bandit.history.last ?? []
        bandit.updates += 1
        let srm = BanditStatistics.srmPValue(tallies, weights: bandit.history)
        let estimates = BanditStatistics.estimates(tallies)
        let moved = BanditStatistics.update(tallies, inverse: bandit.inverse, minWeight: bandit.bandit.minWeight,
                                            seed: seed(bandit.key + (bandit.leaf.map { "/\($0)" } ?? ""), update: bandit.updates))
        let arms = estimates.indices.map { arm in
            BanditUpdate.Arm(variation: bandit.variations[arm], units: estimates[arm].units,
                             weight: moved?[arm].weight ?? current[arm], bestProbability: moved?[arm].bestProbability,
                             posterior: moved?[arm].posterior ?? BanditStatistics.posterior(estimates[arm]))
        }
        bandit.history.append(arms.map(\.weight))
        bandit.tracker.close(at: boundary)
        bandit.tracker.expectBoundary(bandit.next)
        return BanditUpdate(experiment: bandit.key, update: bandit.updates,
                            leaf: bandit.leaf.map { String(bandit.bandit.leaves[$0].leafId) }, enoughUnits: moved != nil,
                            srmPValue: srm, arms: arms)
    }

    /// The Monte Carlo seed of an update: FNV-1a of the key, mixed with the update's number.
    static func seed(_ key: String, update: Int) -> UInt64 {
        FNV1a<UInt64>.hash(key.utf8) ^ (UInt64(update) &* 0x9E37_79B9_7F4A_7C15)
    }

    private static func contains(_ line: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard line.count >= needle.count, let first = needle.first else { return false }
        var index = line.startIndex
        while index <= line.endIndex - needle.count {
            if line[index] == first, line[index..<index + needle.count].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
