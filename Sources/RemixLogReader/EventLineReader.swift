/// Takes every event line of a log, in order (see ``EventLineReader``).
package protocol EventLineVisitor: AnyObject {
    /// One well-formed event line: `raw` is the line as written (a JSON object the scanner has
    /// checked), a view into the reader's buffer valid only during the call.
    func visit(_ line: ScannedEventLine, raw: Span<UInt8>)
}

/// A well-formed event line's time, type and user, decoded.
package struct ScannedEventLine {
    /// The event's time, in milliseconds since the epoch.
    package let time: Int64
    package let type: String
    /// The user id; empty for run records.
    package let user: String
}

/// What a pass of ``EventLineReader`` saw besides the events.
package struct EventLineCounts: Sendable {
    /// Lines read, events among them included.
    package var lines = 0
    /// Lines that are not events (bad JSON, no `ts`, `type` or `user`, a bad time).
    package var badLines = 0
    /// The first bad lines, with file and line number.
    package var firstBadLines: [BadLine] = []
}

/// Reads logs line by line, in order and on one thread, for readers whose state spans lines (a
/// session is many lines): each well-formed event goes to a visitor with its time, type and user
/// decoded and its bytes at hand. Memory is the read buffer; the visitor keeps what it needs.
package enum EventLineReader {
    /// Visits every event of the logs at `paths` (`-` is standard input) in file order.
    package static func read(paths: [String], visitor: any EventLineVisitor) throws(LogReadError) -> EventLineCounts {
        var counts = EventLineCounts()
        for path in paths {
            // One part (jobs 1): `make` runs once, on this thread, before the read.
            nonisolated(unsafe) let visitor = visitor
            let sinks = try LogReader.read(path, jobs: 1, sizes: LogReader.Sizes()) { unsafe VisitingSink(visitor: visitor) }
            for sink in sinks {
                counts.lines += sink.lines
                counts.badLines += sink.badLines.count
                for bad in sink.badLines where counts.firstBadLines.count < 5 {
                    counts.firstBadLines.append(BadLine(path: LogReader.displayName(path), line: bad.line, reason: bad.reason))
                }
            }
        }
        return counts
    }
}

/// Hands each event line to a visitor.
private struct VisitingSink: LineSink {
    let visitor: any EventLineVisitor
    var lines = 0
    var tornFiles: [String] = []
    var badLines: [(line: Int, reason: BadLineReason)] = []
    var numericNames: [[UInt8]] { [] }
    var needles: [[UInt8]] { [] }
    private var timestamps = TimestampCache()

    init(visitor: any EventLineVisitor) {
        self.visitor = visitor
    }

    mutating func noteBadLine(_ number: Int, _ reason: BadLineReason) {
        badLines.append((number, reason))
    }

    mutating func add(_ fields: LineFields, in line: Span<UInt8>) -> BadLineReason? {
        add(fields, in: line, raw: line)
    }

    mutating func add(_ fields: LineFields, in line: Span<UInt8>, raw: Span<UInt8>) -> BadLineReason? {
        guard fields.timestamp.isPresent else { return .missing(field: "ts") }
        guard let time = timestamps.milliseconds(line, fields.timestamp) else {
            return .badTimestamp(line.extracting(fields.timestamp.range).extracting(first: 40).string)
        }
        guard fields.type.isPresent else { return .missing(field: "type") }
        guard fields.user.isPresent else { return .missing(field: "user") }
        let type = line.extracting(fields.type.range).string
        let user = line.extracting(fields.user.range).string
        visitor.visit(ScannedEventLine(time: time, type: type, user: user), raw: raw)
        return nil
    }
}
