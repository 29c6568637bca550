import RemixLogReader

/// The analysis of a log that grows while it is analysed (a simulation in virtual time): lines are
/// counted once, as they come, into the same tally ``Analyzer/run(_:)`` makes of a file, and a
/// report of the lines so far before a horizon is made from that tally — the same figures as
/// `Analyzer.run` with `until` at the horizon over the whole log so far, without reading it again.
/// Lines at or after the horizon are held (as written) until the horizon passes them. Memory: the
/// tally (per unit), the value metrics' events (``KeptEvents``, all kept) and the held lines.
package struct GrowingLogAnalysis {
    /// The analysis asked for; its `logs` are not read and `until` follows the horizon.
    package var options: AnalysisOptions
    private let reading: LogReading
    private var sink: HorizonSink
    private var splitter: LineSplitter

    /// An analysis of the lines to come, counting those before `horizon`.
    package init(options: AnalysisOptions, horizon: Int64) throws(AnalysisError) {
        self.options = options
        reading = try LogReading(options)
        let tally = LogTally(tracked: reading.events, timed: reading.timed, kept: reading.makeKept(limitBytes: .max),
                             keptFieldNames: reading.fieldNames)
        sink = HorizonSink(tally: tally, horizon: horizon)
        splitter = LineSplitter(maxLineLength: LogReader.Sizes().maxLineLength, numericNames: reading.fieldNames)
        self.options.until = horizon
    }

    /// Events before this time are counted.
    package var horizon: Int64 { sink.horizon }

    /// Counts whole JSON lines (each ending in a newline) before the horizon and holds the others.
    package mutating func add(lines: [UInt8]) {
        _ = splitter.split(lines.span, atEnd: true, into: &sink)
    }

    /// Moves the horizon on to `horizon`, counting the held lines now before it.
    package mutating func advance(to horizon: Int64) {
        sink.horizon = max(sink.horizon, horizon)
        options.until = sink.horizon
        let held = sink.held
        sink.held = []
        add(lines: held)
    }

    /// The report of the lines counted so far (as ``Analyzer/run(_:)`` reports a log, without the
    /// parts read from files: rollout timelines, bandit reports, `--by`, `--dimension`).
    package func report() throws(AnalysisError) -> AnalysisReport {
        var tally = sink.tally
        let (experiments, _) = try Analyzer.experimentReports(&tally, files: [], reading: reading, options: options)
        let log = AnalysisReport.Log(files: [], lines: tally.lines, badLines: tally.badLineCount, firstBadLines: tally.badLines,
                                     tornFiles: tally.tornFiles, otherScreenEvents: nil, runs: tally.runRecords)
        return AnalysisReport(experiments: experiments, log: log, alpha: options.alpha, correction: options.correction,
                              elapsedSeconds: 0, settings: options.testSettings)
    }
}

/// Passes lines before the horizon on to the tally and keeps the others as written.
private struct HorizonSink: LineSink {
    var tally: LogTally
    var horizon: Int64
    /// Lines at or after the horizon, each with its newline.
    var held: [UInt8] = []
    private var timestamps = TimestampCache()

    init(tally: LogTally, horizon: Int64) {
        self.tally = tally
        self.horizon = horizon
    }

    var lines: Int {
        get { tally.lines }
        set { tally.lines = newValue }
    }
    var tornFiles: [String] {
        get { tally.tornFiles }
        set { tally.tornFiles = newValue }
    }
    var numericNames: [[UInt8]] { tally.numericNames }
    var needles: [[UInt8]] { tally.needles }

    mutating func noteBadLine(_ number: Int, _ reason: BadLineReason) {
        tally.noteBadLine(number, reason)
    }

    mutating func add(_ fields: LineFields, in line: Span<UInt8>) -> BadLineReason? {
        tally.add(fields, in: line)
    }

    mutating func add(_ fields: LineFields, in line: Span<UInt8>,
                      raw: Span<UInt8>) -> BadLineReason? {
        if fields.timestamp.isPresent, let time = timestamps.milliseconds(line, fields.timestamp), time >= horizon {
            // Held, not counted: the line is counted when it is passed on.
            tally.lines -= 1
            held.append(contentsOf: raw)
            held.append(UInt8(ascii: "\n"))
            return nil
        }
        return tally.add(fields, in: line, raw: raw)
    }
}
