import Foundation

/// The cuts of `--by`: cumulative results at each whole hour or day (UTC) of the log.
package enum TimeBucket: String, Sendable, CaseIterable {
    case hour, day

    package var milliseconds: Int64 { self == .hour ? 3_600_000 : 86_400_000 }
}

extension AnalysisReport {
    /// An experiment's results as if the log ended at `until` (every event before it counts).
    package struct OverTimePoint: Sendable {
        /// The cut, in milliseconds since the epoch (a whole hour or day, UTC).
        package var until: Int64
        package var variations: [Variation]
        package var comparisons: [Comparison]

        /// The cut as RFC 3339 text.
        package var untilText: String { Date(timeIntervalSince1970: Double(until) / 1000).formatted(.iso8601) }
    }
}

extension Analyzer {
    /// At most this many cuts: each reads the log again.
    package static let maximumCuts = 1000

    /// Adds to each experiment of `report` its results at every whole `bucket` from the first
    /// exposure to the end of the log: the log is analysed again up to each cut (the last cut's
    /// results are the report's own).
    static func addOverTime(_ report: inout AnalysisReport, tally: LogTally, options: AnalysisOptions,
                            bucket: TimeBucket) throws(AnalysisError) {
        let keys = Set(report.experiments.map(\.key))
        var start = Int64.max
        for (index, experiment) in tally.experiments.enumerated()
        where keys.contains(tally.experimentNames.string(index)) {
            experiment.exposures.forEach { _, _, exposure in start = min(start, exposure.first) }
        }
        guard start != .max, tally.latestTime != .min else { return }
        let step = bucket.milliseconds
        let first = Self.floor(start, step) + step, last = Self.floor(tally.latestTime, step) + step
        let count = Int((last - first) / step) + 1
        guard count <= maximumCuts else { throw .tooManyCuts(count: count, limit: maximumCuts, bucket: bucket.rawValue) }
        for cut in stride(from: first, to: last, by: Int(step)) {
            var partial = options
            partial.by = nil
            partial.until = cut
            for experiment in report.experiments {
                if case .number(let number) = experiment.phase { partial.phaseByExperiment[experiment.key] = .number(number) }
            }
            let part = try run(partial)
            for index in report.experiments.indices {
                let key = report.experiments[index].key
                guard let found = part.experiments.first(where: { $0.key == key }) else { continue }
                report.experiments[index].overTime.append(OverTimePointBuilder.point(found, until: cut))
            }
        }
        for index in report.experiments.indices {
            report.experiments[index].overTime.append(OverTimePointBuilder.point(report.experiments[index], until: last))
        }
    }

    private static func floor(_ time: Int64, _ step: Int64) -> Int64 {
        let remainder = time % step
        return remainder < 0 ? time - remainder - step : time - remainder
    }
}

enum OverTimePointBuilder {
    static func point(_ experiment: AnalysisReport.Experiment, until: Int64) -> AnalysisReport.OverTimePoint {
        AnalysisReport.OverTimePoint(until: until, variations: experiment.variations, comparisons: experiment.comparisons)
    }
}
