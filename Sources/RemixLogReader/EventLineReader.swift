/// Takes every event line of a log, in order (see ``EventLineReader``).
package protocol EventLineVisitor: AnyObject {
    /// One well-formed event line; the line is valid only during the call.
    func visit(_ line: ScannedEventLine)
}

/// A well-formed event line: its bytes as written, and its time, type and user decoded. The bytes
/// point into the reader's buffer, valid only while the visitor holds them.
package struct ScannedEventLine {
    /// The line as written (a JSON object the scanner has checked).
    package let raw: UnsafeBufferPointer<UInt8>
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
            let sinks = try LogReader.read(path, jobs: 1, sizes: LogReader.Sizes()) { VisitingSink(visitor: visitor) }
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

    mutating func add(_ fields: LineFields, in line: UnsafeBufferPointer<UInt8>) -> BadLineReason? {
        add(fields, in: line, raw: line)
    }

    mutating func add(_ fields: LineFields, in line: UnsafeBufferPointer<UInt8>, raw: UnsafeBufferPointer<UInt8>) -> BadLineReason? {
        guard fields.timestamp.isPresent else { return .missing(field: "ts") }
        guard let time = timestamps.milliseconds(line, fields.timestamp) else {
            return .badTimestamp(String(decoding: Self.slice(line, fields.timestamp).prefix(40), as: UTF8.self))
        }
        guard fields.type.isPresent else { return .missing(field: "type") }
        guard fields.user.isPresent else { return .missing(field: "user") }
        let type = String(decoding: Self.slice(line, fields.type), as: UTF8.self)
        let user = String(decoding: Self.slice(line, fields.user), as: UTF8.self)
        visitor.visit(ScannedEventLine(raw: raw, time: time, type: type, user: user))
        return nil
    }

    /// The bytes of `range` in `line`.
    private static func slice(_ line: UnsafeBufferPointer<UInt8>, _ range: ByteSlice) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: line[range.start..<(range.start + range.count)])
    }
}
