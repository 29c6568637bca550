import Foundation

/// The slow path for lines the byte scanner does not take (escaped strings, unusual layouts):
/// a full JSON parse, then the same tally as the fast path.
enum FallbackParser {
    /// Adds `line` to `tally`; false when it is not a JSON object.
    static func add(_ line: UnsafeBufferPointer<UInt8>, to tally: inout LogTally) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: Data(buffer: line)) as? [String: Any] else {
            return false
        }
        // Lay the needed strings out in one buffer and point the fields at them.
        var storage: [UInt8] = []
        var fields = LineFields()
        func put(_ key: String) -> ByteSlice {
            guard let text = object[key] as? String else { return .empty }
            let start = storage.count
            storage.append(contentsOf: text.utf8)
            return ByteSlice(start: start, count: storage.count - start)
        }
        fields.type = put("type")
        fields.user = put("user")
        fields.experiment = put("experiment")
        fields.variation = put("variation")
        fields.screen = put("screen")
        fields.feature = put("feature")
        let timestamp = put("ts")
        fields.variationID = (object["variationId"] as? NSNumber)?.intValue ?? -1
        fields.inExperiment = isTrue(object["inExperiment"])
        fields.hashUsed = isTrue(object["hashUsed"])
        storage.withUnsafeBufferPointer { buffer in
            fields.timestamp = timestamp
            tally.add(fields, in: buffer)
        }
        return true
    }

    private static func isTrue(_ value: Any?) -> Bool {
        guard let number = value as? NSNumber, String(cString: number.objCType) == "c" else { return false }
        return number.boolValue
    }
}

/// A log that cannot be analysed.
public enum AnalysisError: Error, Equatable, CustomStringConvertible {
    case cannotRead(path: String, reason: String)
    case noLogs(pattern: String)
    case emptyLog(files: [String])
    /// Every line is bad: probably not an event log at all.
    case noEvents(files: [String], badLines: Int, first: [Int])
    case unknownExperiment(key: String, known: [String])
    case strict(badLines: Int, first: [Int])

    public var description: String {
        switch self {
        case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
        case .noLogs(let pattern): "no log matches '\(pattern)'"
        case .emptyLog(let files): "\(files.joined(separator: ", ")) holds no events; run 'remix simulate' first"
        case .noEvents(let files, let count, let first):
            "none of the \(count) line(s) of \(files.joined(separator: ", ")) is a JSON event (first: "
                + first.map(String.init).joined(separator: ", ") + "); is it a Remix event log? (see docs/events.md)"
        case .unknownExperiment(let key, let known):
            known.isEmpty
                ? "experiment '\(key)' has no exposures in the log (the log has none at all)"
                : "experiment '\(key)' has no exposures in the log; experiments in it: \(known.sorted().joined(separator: ", "))"
        case .strict(let count, let first):
            "\(count) line(s) do not parse (first: \(first.map(String.init).joined(separator: ", "))); --strict makes that fatal"
        }
    }
}
