import Foundation
import RemixExperiments
import RemixFormats
import RemixLogReader

/// A bandit's results for the reports (docs/bandits.md): each arm's period-weighted estimate of
/// the metric over the units first exposed in each period (between two updates of the log), the
/// weights in force over time, and the bandit SRM against the expected counts Σ period units ×
/// that period's weight.
package struct BanditReport: Sendable {
    /// One arm.
    package struct Arm: Sendable, Equatable {
        package var variation: String
        package var units: Int
        /// The period-weighted mean and its standard error.
        package var mean: Double
        package var standardError: Double
        /// The plain mean over all the arm's units, which drifting weights and rates bias.
        package var pooledMean: Double
        /// The chance to be best from the final posteriors (seeded, as an update).
        package var bestProbability: Double
    }

    package var metric: String
    package var inverse: Bool
    package var arms: [Arm]
    /// Every `bandit_update` of the log, in order, with its time (ms).
    package var updates: [(time: Int64, update: BanditUpdate)]
    /// The bandit SRM p-value over all periods (a contextual bandit's: ``leafSRM(_:)``); nil without units.
    package var srmPValue: Double?
    /// A contextual bandit's leaves that the log has updates of: the file's order, then any other.
    package var leaves: [Leaf] = []

    /// One leaf of a contextual bandit: its `bandit_update`s in order, and its arms as the latest says them.
    package struct Leaf: Sendable {
        /// The leaf's id, as the updates' `leaf` writes it.
        package var leaf: String
        package var updates: [(time: Int64, update: BanditUpdate)]
        /// Each arm's units, weight and chance to be best at the leaf's latest update.
        package var arms: [BanditUpdate.Arm] { updates.last?.update.arms ?? [] }
    }

    /// Estimated cumulative regret: Σ over arms of its units × (the best arm's mean − its mean),
    /// with the period-weighted means (for an inverse metric, its mean − the best's).
    package var regret: Double {
        let best = inverse ? arms.map(\.mean).min() ?? 0 : arms.map(\.mean).max() ?? 0
        return arms.reduce(0) { $0 + Double($1.units) * abs(best - $1.mean) }
    }

    /// The same regret had the same units been split equally between the arms.
    package var equalSplitRegret: Double {
        let best = inverse ? arms.map(\.mean).min() ?? 0 : arms.map(\.mean).max() ?? 0
        let units = Double(arms.reduce(0) { $0 + $1.units })
        return arms.reduce(0) { $0 + units / Double(max(arms.count, 1)) * abs(best - $1.mean) }
    }
}

extension BanditReport {
    private static let newline = UInt8(ascii: "\n")

    /// The reports of the bandits among `definitions`, read from the files at `paths` (files that
    /// cannot be read again, such as standard input, are left out), by experiment key.
    static func read(paths: [String], definitions: [ExperimentDefinition], catalog: MetricCatalog) -> [String: BanditReport] {
        var trackers = definitions.compactMap { definition -> (BanditTracker, [String], [[Double]], [(Int64, BanditUpdate)])? in
            guard let bandit = definition.bandit else { return nil }
            let arms = definition.variations.count
            let start = definition.experiment.weights ?? Array(repeating: 1 / Double(arms), count: arms)
            return (BanditTracker(experiment: definition.key, arms: arms, metric: catalog.resolve(bandit.metric)),
                    definition.variations.map(\.key), [start], [])
        }
        guard !trackers.isEmpty else { return [:] }
        // Each contextual bandit's leaf updates, by experiment and leaf.
        var leaves: [String: [String: [(time: Int64, update: BanditUpdate)]]] = [:]
        let markers = Set(trackers.compactMap { $0.0.metric.event } + ["exposure", BanditUpdate.eventType]).map { Data("\"type\":\"\($0)\"".utf8) }
        for path in paths where LogReader.isRereadable(path) {
            guard let handle = FileHandle(forReadingAtPath: path) else { continue }
            defer { try? handle.close() }
            var pending = Data()
            func lines(_ bytes: Data) {
                for line in bytes.split(separator: newline) where markers.contains(where: { line.range(of: $0) != nil }) {
                    guard let object = LogLineObject.parse(line) else { continue }
                    // A plain bandit's update, read once for every tracker.
                    let update = BanditUpdate(line: object).flatMap { update in
                        update.leaf == nil ? object["ts"]?.stringValue.flatMap(CivilTime.parseMilliseconds).map { (update, $0) } : nil
                    }
                    if let update = BanditUpdate(line: object), let leaf = update.leaf,
                       let time = object["ts"]?.stringValue.flatMap(CivilTime.parseMilliseconds) {
                        leaves[update.experiment, default: [:]][leaf, default: []].append((time, update))
                        continue
                    }
                    for index in trackers.indices {
                        if let (update, time) = update, update.experiment == trackers[index].0.experiment {
                            trackers[index].0.close(at: time)
                            trackers[index].2.append(update.arms.map(\.weight))
                            trackers[index].3.append((time, update))
                        } else {
                            trackers[index].0.observe(object)
                        }
                    }
                }
            }
            while let chunk = try? handle.read(upToCount: 4 << 20), !chunk.isEmpty {
                pending.append(chunk)
                guard let last = pending.lastIndex(of: newline) else { continue }
                lines(pending[..<last])
                pending = Data(pending[(last + 1)...])
            }
            lines(pending)
        }
        var reports: [String: BanditReport] = [:]
        for (tracker, variations, history, updates) in trackers {
            let tallies = tracker.tallies()
            let estimates = BanditStatistics.estimates(tallies)
            let posteriors = estimates.map(BanditStatistics.posterior)
            let best = BanditStatistics.bestProbabilities(posteriors, inverse: tracker.metric.inverse, seed: 0x5eed)
            let arms = estimates.indices.map { arm in
                let units = tallies[arm].reduce(0) { $0 + $1.units }
                let sum = tallies[arm].reduce(0) { $0 + $1.sum }
                return Arm(variation: variations[arm], units: units, mean: estimates[arm].mean,
                           standardError: estimates[arm].variance.squareRoot(), pooledMean: units > 0 ? sum / Double(units) : 0,
                           bestProbability: best[arm])
            }
            let declared = definitions.first { $0.key == tracker.experiment }?.bandit?.leaves.map { String($0.leafId) } ?? []
            let found = leaves[tracker.experiment] ?? [:]
            let order = declared.filter { found[$0] != nil } + found.keys.filter { !declared.contains($0) }.sorted()
            let leafReports = order.map { Leaf(leaf: $0, updates: found[$0] ?? []) }
            // A contextual bandit's traffic follows each leaf's weights, not the experiment's: its SRM
            // is the leaves' own (each latest update's), Bonferroni-adjusted over the leaves.
            let srm = leafReports.isEmpty ? BanditStatistics.srmPValue(tallies, weights: history) : Self.leafSRM(leafReports)
            reports[tracker.experiment] = BanditReport(metric: tracker.metric.key, inverse: tracker.metric.inverse, arms: arms,
                                                       updates: updates, srmPValue: srm, leaves: leafReports)
        }
        return reports
    }
}

extension BanditReport {
    /// The smallest of the leaves' bandit SRM p-values (each leaf's latest update's) times the
    /// number of leaves that have one, at most 1; nil when none has one.
    static func leafSRM(_ leaves: [Leaf]) -> Double? {
        let values = leaves.compactMap { $0.updates.last?.update.srmPValue }
        return values.min().map { min(1, $0 * Double(values.count)) }
    }

    /// A time (ms) as RFC 3339 to the second, e.g. `2026-11-23T09:30:00Z`.
    package static func timeText(_ time: Int64) -> String {
        let (days, rest) = time.quotientAndRemainder(dividingBy: 86_400_000)
        let (dayNumber, milliseconds) = rest < 0 ? (days - 1, rest + 86_400_000) : (days, rest)
        let date = CivilTime.civil(fromDays: dayNumber)
        let seconds = milliseconds / 1000
        return String(format: "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ", date.year, date.month, date.day,
                      seconds / 3600, seconds / 60 % 60, seconds % 60)
    }
}

extension Analyzer {
    /// Gives each bandit of `experiments` its report from the log files; its SRM test is the
    /// bandit's (expected counts from the weights in force), as equal weights are not what ran.
    static func attachBanditReports(_ experiments: inout [AnalysisReport.Experiment], files: [String],
                                    definitions: [String: ExperimentDefinition], catalog: MetricCatalog) {
        let bandits = definitions.values.filter { $0.bandit != nil }.sorted { $0.key < $1.key }
        guard !bandits.isEmpty else { return }
        let reports = BanditReport.read(paths: files, definitions: bandits, catalog: catalog)
        for index in experiments.indices {
            guard let report = reports[experiments[index].key] else { continue }
            experiments[index].bandit = report
            experiments[index].srmPValue = report.srmPValue
        }
    }
}

extension BanditReport {
    /// The weights in force at the end of the log at `path`: each bandit's latest `bandit_update`
    /// (a plain bandit's, not a leaf's), by experiment key.
    package static func latestWeights(path: String) throws -> [String: [Double]] {
        try latest(path: path).plain
    }

    /// The weights in force at the end of the log at `path` of each contextual bandit's leaves: the
    /// latest `bandit_update` with that `leaf`, by experiment key and then leaf id.
    package static func latestLeafWeights(path: String) throws -> [String: [String: [Double]]] {
        try latest(path: path).leaves
    }

    private static func latest(path: String) throws -> (plain: [String: [Double]], leaves: [String: [String: [Double]]]) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw AnalysisError.cannotRead(path: path, reason: "cannot open it; check the path")
        }
        defer { try? handle.close() }
        let marker = Data("\"type\":\"\(BanditUpdate.eventType)\"".utf8)
        var latest: [String: [Double]] = [:]
        var leaves: [String: [String: [Double]]] = [:]
        var pending = Data()
        func lines(_ bytes: Data) {
            for line in bytes.split(separator: newline) where line.range(of: marker) != nil {
                guard let object = LogLineObject.parse(line), let update = BanditUpdate(line: object) else { continue }
                if let leaf = update.leaf {
                    leaves[update.experiment, default: [:]][leaf] = update.arms.map(\.weight)
                } else {
                    latest[update.experiment] = update.arms.map(\.weight)
                }
            }
        }
        while let chunk = try handle.read(upToCount: 4 << 20), !chunk.isEmpty {
            pending.append(chunk)
            guard let last = pending.lastIndex(of: newline) else { continue }
            lines(pending[..<last])
            pending = Data(pending[(last + 1)...])
        }
        lines(pending)
        return (latest, leaves)
    }
}
