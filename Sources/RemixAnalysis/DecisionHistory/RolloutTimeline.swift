import Foundation
import RemixExperiments
import RemixFormats
import RemixLogReader
import RemixStatistics

/// The `rollout_decision` events of logs, by experiment, in log order: each rollout's timeline
/// for the reports. Read only when an experiment file holds a rollout, in a pass of its own that
/// looks at the lines naming the event.
enum RolloutTimeline {
    private static let marker = Data(#""type":"rollout_decision""#.utf8)
    private static let newline = UInt8(ascii: "\n")

    /// A `rollout_decision` line whose `decision` is none Remix knows: where it is and what it says.
    struct UnknownDecision: Sendable, Equatable {
        var experiment: String
        var path: String
        /// The 1-based line number.
        var line: Int
        var value: String

        /// The warning the reports give: the line is left out, the others kept.
        var warning: String {
            "\(experiment): \(path):\(line): rollout_decision has the unknown decision "
                + Excerpt.quoted(JSONText.visible(value)) + " (known: "
                + RolloutDecision.Kind.allCases.map(\.rawValue).joined(separator: ", ")
                + "); the timeline leaves this line out and keeps the readable decisions"
        }
    }

    /// The decisions in the files at `paths` (files that cannot be read again, such as standard
    /// input, are left out), by experiment key, and the lines whose decision is unknown.
    static func read(paths: [String]) -> (decisions: [String: [RolloutDecision]], unknown: [UnknownDecision]) {
        var found: [String: [RolloutDecision]] = [:]
        var unknown: [UnknownDecision] = []
        for path in paths where LogReader.isRereadable(path) {
            guard let handle = FileHandle(forReadingAtPath: path) else { continue }
            defer { try? handle.close() }
            var pending = Data()
            // The file offset of `pending`'s first byte, and the offsets of lines with an unknown decision.
            var consumed = 0
            var odd: [(offset: Int, experiment: String, value: String)] = []
            while let chunk = try? handle.read(upToCount: 4 << 20), !chunk.isEmpty {
                pending.append(chunk)
                guard let last = pending.lastIndex(of: newline) else { continue }
                collect(pending[..<last], at: consumed, into: &found, unknown: &odd)
                consumed += last + 1
                pending = Data(pending[(last + 1)...])
            }
            collect(pending, at: consumed, into: &found, unknown: &odd)
            if !odd.isEmpty {
                let lines = lineNumbers(path: path, offsets: odd.map(\.offset))
                unknown += zip(odd, lines).map { UnknownDecision(experiment: $0.experiment, path: path, line: $1, value: $0.value) }
            }
        }
        return (found, unknown)
    }

    /// The decisions of the lines of `bytes` (which starts at file offset `base`) that name the
    /// event (found by Foundation's search, not byte by byte); lines with an unknown decision go
    /// to `unknown` with their offset.
    private static func collect(_ bytes: Data, at base: Int, into found: inout [String: [RolloutDecision]],
                                unknown: inout [(offset: Int, experiment: String, value: String)]) {
        var from = bytes.startIndex
        while from < bytes.endIndex, let range = bytes.range(of: marker, in: from..<bytes.endIndex) {
            let start = bytes[..<range.lowerBound].lastIndex(of: newline).map { $0 + 1 } ?? bytes.startIndex
            let end = bytes[range.upperBound...].firstIndex(of: newline) ?? bytes.endIndex
            switch read(bytes[start..<end]) {
            case .decision(let decision): found[decision.experiment, default: []].append(decision)
            case .unknown(let experiment, let value): unknown.append((base + start - bytes.startIndex, experiment, value))
            case nil: break
            }
            from = end
        }
    }

    /// The 1-based line numbers of the byte `offsets` (ascending) of the file at `path`, counted
    /// again only when a line needs naming.
    private static func lineNumbers(path: String, offsets: [Int]) -> [Int] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return offsets.map { _ in 0 } }
        defer { try? handle.close() }
        var numbers: [Int] = []
        var line = 1, position = 0, next = 0
        while next < offsets.count, let chunk = try? handle.read(upToCount: 4 << 20), !chunk.isEmpty {
            for byte in chunk {
                while next < offsets.count, offsets[next] == position {
                    numbers.append(line)
                    next += 1
                }
                if byte == newline { line += 1 }
                position += 1
            }
        }
        while numbers.count < offsets.count { numbers.append(line) }
        return numbers
    }

    /// What a `rollout_decision` line holds: a decision, or a decision value Remix does not know.
    enum Read {
        case decision(RolloutDecision)
        case unknown(experiment: String, value: String)
    }

    /// The line read: nil when it is no `rollout_decision` of an experiment at a time.
    static func read(_ line: Data) -> Read? {
        guard let object = LogLineObject.parse(line), object["type"]?.stringValue == RolloutDecision.eventType,
              let experiment = object["experiment"]?.stringValue,
              object["ts"]?.stringValue.flatMap(CivilTime.parseMilliseconds) != nil else { return nil }
        if let decision = decision(line) { return .decision(decision) }
        let written = object["decision"]
        let value = written?.stringValue ?? written?.numberValue.map(JSONText.number) ?? written.map { "\($0)" } ?? "(none)"
        return .unknown(experiment: experiment, value: value)
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
        let (timelines, unknown) = RolloutTimeline.read(paths: files)
        for index in experiments.indices {
            experiments[index].rolloutTimeline = timelines[experiments[index].key] ?? []
            experiments[index].rolloutWarnings = unknown.filter { $0.experiment == experiments[index].key }.map(\.warning)
        }
    }
}
