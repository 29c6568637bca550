import RemixLogReader

/// A log that cannot be analysed.
package enum AnalysisError: Error, Equatable, CustomStringConvertible {
    case cannotRead(path: String, reason: String)
    case noLogs(pattern: String)
    case emptyLog(files: [String])
    /// More than half of the lines are bad: probably not an event log at all.
    case noEvents(files: [String], badLines: Int, lines: Int, first: [BadLine])
    case unknownExperiment(key: String, known: [String])
    case strict(badLines: Int, first: [BadLine])
    /// Metrics other than plain proportions read the log twice.
    case notRereadable(path: String, metrics: [String])
    case tooManyValueFields(limit: Int, metrics: [String])
    case noDimensionValues(name: String, path: String)
    case tooManyCuts(count: Int, limit: Int, bucket: String)
    /// `--phase` names a phase the experiment does not have: `phases` are those of its file
    /// (`inFile`), else those the log holds.
    case noSuchPhase(key: String, phase: Int, phases: [Int], inFile: Bool)
    /// An option an event store's analysis does not offer.
    case notFromStore(option: String)
    /// The event store failed (its message says what to do).
    case store(String)

    package var description: String {
        switch self {
        case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
        case .noLogs(let pattern): "no log matches '\(pattern)'"
        case .emptyLog(let files): "\(files.joined(separator: ", ")) holds no events; run 'remix simulate' first"
        case .noEvents(let files, let bad, let lines, let first):
            (bad == lines ? "none of the \(lines) line(s)" : "\(bad) of the \(lines) lines")
                + " of \(files.joined(separator: ", ")) \(bad == lines ? "is a JSON event" : "are not JSON events") (first: "
                + Self.list(first) + "); is it a Remix event log? (see docs/events.md)"
        case .unknownExperiment(let key, let known):
            known.isEmpty
                ? "experiment '\(key)' has no exposures in the log (the log has none at all)"
                : "experiment '\(key)' has no exposures in the log; experiments in it: \(known.sorted().joined(separator: ", "))"
        case .strict(let count, let first):
            "\(count) line(s) are not events (first: \(Self.list(first))); --strict makes that fatal"
        case .tooManyCuts(let count, let limit, let bucket):
            "--by \(bucket) would cut this log at \(count) times, each read again; at most \(limit)"
                + (bucket == "hour" ? ": use --by day" : "")
        case .notFromStore(let option):
            "\(option) is not available on an event store yet; export the events with "
                + "'remix log copy URL events.jsonl' and analyse the file"
        case .store(let message): message
        case .noDimensionValues(let name, let path):
            "--dimension \(name): no session_started event has '\(path)'; name an attribute of the population "
                + "(platform, country, appVersion …) or one of \(DimensionTally.topLevelFields.joined(separator: ", "))"
        case .notRereadable(let path, let metrics):
            (metrics.first?.hasPrefix("--") == true ? metrics.joined(separator: ", ") : "metrics \(metrics.joined(separator: ", "))")
                + " read the log twice, and \(path) can be read only once; "
                + "save it to a file and analyse the file"
        case .tooManyValueFields(let limit, let metrics):
            "metrics \(metrics.joined(separator: ", ")) sum more than \(limit) different value fields; analyse fewer at a time"
        case .noSuchPhase(let key, let phase, let phases, let inFile):
            "--phase \(phase): " + (inFile ? "experiment '\(key)' has \(Self.phaseList(phases))" : "the log holds \(Self.phaseList(phases)) "
                + "of experiment '\(key)'") + " (numbered from 0, as GrowthBook numbers them); give one of them, latest or all"
        }
    }

    /// "only phase 0", "phases 0 and 1", "phases 0 to 4" or "phases 0, 2, 5".
    private static func phaseList(_ phases: [Int]) -> String {
        guard let first = phases.first, let last = phases.last, phases.count > 1 else { return "only phase \(phases.first ?? 0)" }
        if phases.count == 2 { return "phases \(first) and \(last)" }
        if last - first + 1 == phases.count { return "phases \(first) to \(last)" }
        return "phases " + phases.map(String.init).joined(separator: ", ")
    }

    private static func list(_ lines: [BadLine]) -> String {
        lines.map(\.description).joined(separator: "; ")
    }
}

extension AnalysisError {
    /// The reader's error as the analysis' (the same case, the same message).
    package init(_ error: LogReadError) {
        switch error {
        case .cannotRead(let path, let reason): self = .cannotRead(path: path, reason: reason)
        case .noLogs(let pattern): self = .noLogs(pattern: pattern)
        }
    }

    /// What `read` returns, its reader's error thrown as the analysis'.
    static func reading<Value>(_ read: () throws(LogReadError) -> Value) throws(AnalysisError) -> Value {
        do throws(LogReadError) {
            return try read()
        } catch {
            throw AnalysisError(error)
        }
    }
}
