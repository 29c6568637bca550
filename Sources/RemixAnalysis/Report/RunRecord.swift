import RemixExperiments
import RemixFormats
import RemixLogReader

extension AnalysisReport {
    /// A run record of the log (an event of type `run`, written by `remix simulate` at the start
    /// of each run or shard): what produced the events that follow it.
    package struct RunRecord: Sendable, Equatable {
        /// One input file of the run and its content hash.
        package struct Source: Sendable, Equatable {
            package var role: String
            package var path: String
            package var hash: String
        }

        package var timestamp: String
        package var version: String
        package var app: String
        package var seed: String
        package var users: Int?
        package var shard: String
        package var sources: [Source]
    }
}

extension AnalysisReport {
    /// At most this many run records are read from a log (the first ones).
    package static var runRecordLimit: Int { LogTally.runLinesKept }
}

extension AnalysisReport.RunRecord {
    /// The record of one raw log line, or nil when it is not a JSON object of type `run`.
    package init?(line: [UInt8]) {
        guard let object = LogLineObject.parse(line), object["type"] == "run" else { return nil }
        func text(_ key: String) -> String {
            switch object[key] {
            case .string(let string)?: string
            case .number(let number)?: JSONText.number(number)
            default: ""
            }
        }
        timestamp = text("ts")
        version = text("version")
        app = text("app")
        seed = text("seed")
        users = object["users"]?.numberValue.flatMap { Int(exactly: $0) }
        shard = text("shard")
        sources = (object["sources"]?.arrayValue ?? []).compactMap { item in
            guard let source = item.objectValue else { return nil }
            return Source(role: source["role"]?.stringValue ?? "", path: source["path"]?.stringValue ?? "",
                          hash: source["hash"]?.stringValue ?? "")
        }
    }
}

extension LogTally {
    /// At most this many run records are kept (their raw lines), the first in log order.
    static let runLinesKept = 64

    /// Counts one line as ``add(_:in:)`` does and keeps the raw line of a run record (an event
    /// without a user whose type is `run`) while fewer than ``runLinesKept`` are kept.
    mutating func add(_ fields: LineFields, in line: Span<UInt8>,
                      raw: Span<UInt8>) -> BadLineReason? {
        let reason = add(fields, in: line)
        if reason == nil, fields.user.isEmpty, fields.user.isPresent, runLines.count < Self.runLinesKept,
           line.extracting(fields.type.range).equals("run") {
            runLines.append(raw.array)
        }
        return reason
    }

    /// The kept run records, decoded.
    var runRecords: [AnalysisReport.RunRecord] { runLines.compactMap(AnalysisReport.RunRecord.init(line:)) }
}
