import Foundation
import RemixExperiments
import RemixFormats

/// The `rollout_decision` events of logs, by experiment, in log order: each rollout's timeline
/// for the reports. Read only when an experiment file holds a rollout, in a pass of its own that
/// looks at the lines naming the event.
enum RolloutTimeline {
    private static let marker = Data(#""type":"rollout_decision""#.utf8)
    private static let newline = UInt8(ascii: "\n")

    /// The decisions in the files at `paths` (files that cannot be read again, such as standard
    /// input, are left out), by experiment key.
    static func read(paths: [String]) -> [String: [RolloutDecision]] {
        var found: [String: [RolloutDecision]] = [:]
        for path in paths where LogReader.isRereadable(path) {
            guard let handle = FileHandle(forReadingAtPath: path) else { continue }
            defer { try? handle.close() }
            var pending = Data()
            while let chunk = try? handle.read(upToCount: 4 << 20), !chunk.isEmpty {
                pending.append(chunk)
                guard let last = pending.lastIndex(of: newline) else { continue }
                collect(pending[..<last], into: &found)
                pending = Data(pending[(last + 1)...])
            }
            collect(pending, into: &found)
        }
        return found
    }

    /// The decisions of the lines of `bytes` that name the event (found by Foundation's search, not byte by byte).
    private static func collect(_ bytes: Data, into found: inout [String: [RolloutDecision]]) {
        var from = bytes.startIndex
        while from < bytes.endIndex, let range = bytes.range(of: marker, in: from..<bytes.endIndex) {
            let start = bytes[..<range.lowerBound].lastIndex(of: newline).map { $0 + 1 } ?? bytes.startIndex
            let end = bytes[range.upperBound...].firstIndex(of: newline) ?? bytes.endIndex
            if let decision = decision(bytes[start..<end]) { found[decision.experiment, default: []].append(decision) }
            from = end
        }
    }

    /// The decision a `rollout_decision` line says, or nil when it is not one.
    static func decision(_ line: Data) -> RolloutDecision? {
        guard let object = LogLineObject.parse(line), object["type"]?.stringValue == RolloutDecision.eventType,
              let experiment = object["experiment"]?.stringValue,
              let time = object["ts"]?.stringValue.flatMap(CivilTime.parseMilliseconds),
              let kind = object["decision"]?.stringValue.flatMap(RolloutDecision.Kind.init(rawValue:)) else { return nil }
        // As before: guardrails that are not all objects, or units not all whole numbers, read as none.
        let items = object["guardrails"]?.arrayValue ?? [], objects = items.compactMap(\.objectValue)
        let guardrails = objects.count < items.count ? [] : objects.map { item in
            GuardrailResult(metric: item["metric"]?.stringValue ?? "", inverse: item["inverse"]?.boolValue ?? false,
                            control: number(item["control"]), rollout: number(item["rollout"]), effect: number(item["effect"]),
                            bound: number(item["bound"]), pValue: number(item["pValue"]), worse: item["worse"]?.boolValue ?? false,
                            error: item["error"]?.stringValue)
        }
        let units = (object["units"]?.arrayValue ?? []).map(LogLineObject.integer)
        return RolloutDecision(experiment: experiment, time: time, step: LogLineObject.integer(object["step"]) ?? 0,
                               share: number(object["share"]), decision: kind, reason: object["reason"]?.stringValue ?? "",
                               units: units.contains(nil) ? [] : units.compactMap { $0 }, srmPValue: object["srmPValue"]?.numberValue,
                               guardrails: guardrails)
    }

    private static func number(_ value: AttributeValue?) -> Double {
        value?.numberValue ?? .nan
    }
}

extension Analyzer {
    /// Gives each experiment of `experiments` that has a rollout in `definitions` its timeline from the log files.
    static func attachRolloutTimelines(_ experiments: inout [AnalysisReport.Experiment], files: [String],
                                       definitions: [String: ExperimentDefinition]) {
        guard definitions.values.contains(where: { $0.rollout != nil }) else { return }
        let timelines = RolloutTimeline.read(paths: files)
        for index in experiments.indices { experiments[index].rolloutTimeline = timelines[experiments[index].key] ?? [] }
    }
}
