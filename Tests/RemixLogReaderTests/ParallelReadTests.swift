import Foundation
@testable import RemixLogReader
import Testing

/// A log read in parallel parts (one thread each, split at line boundaries) gives what one stream
/// gives: every line counted once, the same bad lines, the same fields. Under ThreadSanitizer and
/// AddressSanitizer (.ci/run) this is the reader's own check of its threads and of its buffers.
@Suite struct ParallelReadTests {
    /// Counts what a pass sees: lines, bad lines by kind, events and timestamps per user, one number.
    struct Counts: ConcurrentLineSink {
        var lines = 0
        var tornFiles: [String] = []
        var numericNames: [[UInt8]] { [Array("amount".utf8)] }
        var needles: [[UInt8]] { [] }
        var badLines: [String: Int] = [:]
        var eventsByUser: [String: Int] = [:]
        var timeSum: Int64 = 0
        var amountSum = 0.0
        var timestamps = TimestampCache()

        mutating func noteBadLine(_ number: Int, _ reason: BadLineReason) {
            let kind = switch reason {
            case .syntax: "syntax"
            case .missing: "missing"
            default: "other"
            }
            badLines[kind, default: 0] += 1
        }

        mutating func add(_ fields: LineFields, in line: Span<UInt8>) -> BadLineReason? {
            guard fields.user.isPresent else { return .missing(field: "user") }
            guard let time = timestamps.milliseconds(line, fields.timestamp) else { return .badTimestamp("") }
            var user: [UInt8] = []
            for index in fields.user.range { user.append(line[index]) }
            eventsByUser[String(decoding: user, as: UTF8.self), default: 0] += 1
            timeSum += time
            if fields.numberMask & 1 != 0 { amountSum += fields.numbers[0] }
            return nil
        }

        /// The parts' counts added up.
        static func total(_ parts: [Counts]) -> Counts {
            var total = Counts()
            for part in parts {
                total.lines += part.lines
                total.tornFiles += part.tornFiles
                total.badLines.merge(part.badLines, uniquingKeysWith: +)
                total.eventsByUser.merge(part.eventsByUser, uniquingKeysWith: +)
                total.timeSum += part.timeSum
                total.amountSum += part.amountSum
            }
            return total
        }
    }

    /// A log of 6 000 lines: the writer's form, members in another order, escapes, numbers, blank
    /// lines, and bad lines of several kinds.
    static func log() -> String {
        var lines: [String] = []
        for index in 0..<6_000 {
            let user = "u\(index % 37)"
            let seconds = String(format: "%02d", index % 60)
            let ts = "2026-11-23T09:\(String(format: "%02d", index / 60 % 60)):\(seconds).\(String(format: "%03d", index % 1000))Z"
            switch index % 10 {
            case 0: lines.append(#"{"type":"viewed","user":"\#(user)","ts":"\#(ts)","amount":\#(index % 7)}"#)
            case 1: lines.append(#"{"ts":"\#(ts)","type":"t\"q","session":"s\#(index)","user":"\u0075\#(user.dropFirst().description)"}"#)
            case 2 where index % 50 == 2: lines.append(#"{"ts":"\#(ts)","type":"cut"#)
            case 3 where index % 70 == 3: lines.append("not json at all")
            case 4 where index % 90 == 4: lines.append("")
            case 5 where index % 110 == 5: lines.append(#"{"ts":"\#(ts)","type":"nouser"}"#)
            default:
                lines.append(#"{"ts":"\#(ts)","type":"step","session":"s\#(index)","user":"\#(user)","amount":\#(Double(index) / 4)}"#)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(arguments: [2, 3, 8])
    func partsOnThreadsAddUpToOneStream(jobs: Int) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("parallel-read-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.log().write(toFile: path, atomically: true, encoding: .utf8)
        // Small chunks and no minimum, so every part reads many chunks and lines cross chunk ends.
        let sizes = LogReader.Sizes(chunk: 4 << 10, parallelMinimum: 0, maxLineLength: 1 << 16)
        let one = try LogReader.read(path, jobs: 1, sizes: sizes) { Counts() }
        let parts = try LogReader.read(path, jobs: jobs, sizes: sizes) { Counts() }
        #expect(one.count == 1 && parts.count == jobs)
        let (whole, split) = (Counts.total(one), Counts.total(parts))
        #expect(whole.lines == 6_000)
        // Cut lines (120) and text (86) are not JSON; 55 have no user; 67 are blank.
        let badLines: [String: Int] = ["syntax": 206, "missing": 55]
        #expect(whole.badLines == badLines, "\(whole.badLines)")
        let events = whole.eventsByUser.values.reduce(0, +)
        #expect(events == 6_000 - 206 - 55 - 67)
        #expect(split.lines == whole.lines && split.badLines == whole.badLines && split.tornFiles == whole.tornFiles)
        #expect(split.eventsByUser == whole.eventsByUser && split.timeSum == whole.timeSum)
        #expect(split.amountSum == whole.amountSum && whole.amountSum > 0)
    }
}
