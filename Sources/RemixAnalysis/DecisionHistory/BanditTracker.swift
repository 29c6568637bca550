import RemixExperiments
import RemixFormats
import RemixLogReader

/// Follows one bandit through a log's lines (docs/bandits.md): each unit's first exposure — its
/// arm, and the period (between two updates) it fell in — and its metric value from events at or
/// after that exposure. Only the first exposure counts (GrowthBook's rule without sticky
/// bucketing; with it a returning user keeps the arm anyway). Memory: one entry per exposed unit.
package struct BanditTracker: Sendable {
    /// One unit: its arm, period, first exposure time and value so far.
    private struct Unit: Sendable {
        var arm: Int
        var period: Int
        var exposed: Int64
        var value = 0.0
        var converted = false
    }

    package let experiment: String
    package let arms: Int
    package let metric: MetricDefinition
    /// The update times passed so far, ascending: period p runs from boundary p−1 to boundary p.
    package private(set) var boundaries: [Int64] = []
    /// Exposed units in log order (sums in that order, so the same log gives the same bits), and
    /// where each user's is.
    private var units: [Unit] = []
    private var unitIndex: [String: Int] = [:]
    /// Metric events not yet before the next update (counted once their time has passed).
    private var pending: [(user: String, time: Int64, value: Double)] = []

    package init(experiment: String, arms: Int, metric: MetricDefinition) {
        self.experiment = experiment
        self.arms = arms
        self.metric = metric
    }

    /// Reads one parsed log line (a JSON object, ``LogLineObject``).
    package mutating func observe(_ line: [String: AttributeValue]) {
        guard let type = line["type"]?.stringValue, let user = line["user"]?.stringValue, !user.isEmpty,
              let stamp = line["ts"]?.stringValue, let time = CivilTime.parseMilliseconds(stamp) else { return }
        if type == "exposure" {
            guard line["experiment"]?.stringValue == experiment, line["inExperiment"]?.boolValue == true,
                  let arm = LogLineObject.integer(line["variationId"]), (0..<arms).contains(arm), unitIndex[user] == nil else { return }
            unitIndex[user] = units.count
            units.append(Unit(arm: arm, period: boundaries.count, exposed: time))
        } else if type == metric.event {
            let value = metric.value.map { LogLineObject.metricValue(line[$0]) } ?? 1
            if let next = nextBoundary, time >= next {
                pending.append((user, time, value))
            } else {
                count(user: user, time: time, value: value)
            }
        }
    }

    /// Closes the current period at `time` (an update): later exposures fall in the next period,
    /// and held events before `time` count.
    package mutating func close(at time: Int64) {
        boundaries.append(time)
        let held = pending
        pending = []
        for event in held {
            if let next = nextBoundary, event.time >= next {
                pending.append(event)
            } else {
                count(user: event.user, time: event.time, value: event.value)
            }
        }
    }

    /// The boundary the current period ends at, when known: set by ``expectBoundary(_:)``.
    package private(set) var nextBoundary: Int64?

    /// Says when the current period will end, so that events at or after it wait for the update.
    package mutating func expectBoundary(_ time: Int64?) {
        nextBoundary = time
    }

    /// The tallies `[arm][period]` over the periods so far (including the open one).
    package func tallies() -> [[BanditTally]] {
        let periods = boundaries.count + 1
        var tallies = [[BanditTally]](repeating: [BanditTally](repeating: BanditTally(), count: periods), count: arms)
        for unit in units {
            let value: Double
            switch metric.kind {
            case .proportion: value = unit.converted ? 1 : 0
            default: value = metric.capAbsolute.map { min(unit.value, $0) } ?? unit.value
            }
            tallies[unit.arm][unit.period].add(value)
        }
        return tallies
    }

    private mutating func count(user: String, time: Int64, value: Double) {
        guard let at = unitIndex[user], time >= units[at].exposed else { return }
        if let hours = metric.windowHours, Double(time - units[at].exposed) >= hours * 3_600_000 { return }
        units[at].value += value
        units[at].converted = true
    }
}
