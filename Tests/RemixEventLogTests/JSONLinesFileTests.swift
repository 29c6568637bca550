import Foundation
import RemixCLITestSupport
import RemixTestSupport
import RemixEventLog
import RemixKit
import Synchronization
import Testing

/// JSONLinesFile in one process: buffering, flush, close, errors, truncate vs append, two writers.
@Suite struct JSONLinesFileTests {
    static func event(_ index: Int, _ tag: String = "e") -> LoggedEvent {
        LoggedEvent(timestamp: Int64(index), type: tag, session: "s-\(tag)", user: "u-\(index)", fields: [
            EventField("index", .int(index)), EventField("text", .string("line \(index) with \"quotes\" and \n newline")),
        ])
    }

    static func contents(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }

    @Test func appendIsBufferedAndFlushWritesCompleteLines() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("events.jsonl")
        let file = try JSONLinesFile(path: path)
        try file.append((0..<3).map { Self.event($0) })
        try file.flush()
        let lines = try LogLines(path: path)
        #expect(lines.torn == nil)
        #expect(lines.complete.count == 3)
        #expect(lines.complete.compactMap(jsonObject).compactMap { ($0["index"] as? NSNumber)?.intValue } == [0, 1, 2])
        try file.append([Self.event(3)])
        try file.flush()
        try file.flush()
        #expect(try LogLines(path: path).complete.count == 4, "a second flush must not write lines twice")
        try file.close()
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs Linux's /dev/full"))
    func aFullDiskIsAClearErrorThatStaysReported() throws {
        let file = try JSONLinesFile(path: "/dev/full")
        try file.append([Self.event(0)])
        #expect(throws: EventLogError.writeFailed(path: "/dev/full", reason: "No space left on device")) { try file.flush() }
        #expect(throws: EventLogError.self, "the failure is sticky: later appends fail too") { try file.append([Self.event(1)]) }
        #expect(EventLogError.writeFailed(path: "/dev/full", reason: "No space left on device").description
            == "cannot write the event log /dev/full: No space left on device; the lines written before this are intact")
        #expect(throws: EventLogError.self) { try file.close() }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs Linux's /dev/full"))
    func aFullDiskStopsSimulateWithExitOne() async throws {
        let result = await RemixInProcess.run(["simulate", "--sessions", "2000", "--no-report", "--experiments", Repository.experiments,
                                               "--log", "/dev/full"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot write the event log /dev/full: No space left on device"), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
    }

    @Test func closeFlushesAndLaterAppendsThrowClosed() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("events.jsonl")
        let file = try JSONLinesFile(path: path)
        try file.append((0..<5).map { Self.event($0) })
        try file.close()
        let lines = try LogLines(path: path)
        #expect(lines.complete.count == 5)
        #expect(lines.torn == nil)
        #expect(throws: EventLogError.closed(path: path)) { try file.append([Self.event(9)]) }
        #expect(throws: EventLogError.closed(path: path)) { try file.append(encodedLines: Array("{}\n".utf8)) }
        try file.close() // closing twice is harmless
        #expect(try LogLines(path: path).complete.count == 5)
        #expect(EventLogError.closed(path: path).description.contains(path))
    }

    @Test func openingInAMissingFolderThrowsCannotOpenNamingThePath() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("missing/deeper/events.jsonl")
        do {
            _ = try JSONLinesFile(path: path)
            Issue.record("opening \(path) should fail")
        } catch {
            guard case .cannotOpen(let failedPath, let reason) = error else {
                Issue.record("expected cannotOpen, got \(error)")
                return
            }
            #expect(failedPath == path)
            #expect(!reason.isEmpty)
            #expect(error.description.contains(path))
            #expect(error.description.contains("--log"))
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func truncateEmptiesAndAppendKeeps() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("events.jsonl")
        try "{\"old\":1}\n".write(toFile: path, atomically: false, encoding: .utf8)
        let appending = try JSONLinesFile(path: path)
        try appending.append([Self.event(1)])
        try appending.close()
        let appended = try LogLines(path: path)
        #expect(appended.complete.count == 2)
        #expect(appended.complete.first == "{\"old\":1}")
        let truncating = try JSONLinesFile(path: path, truncate: true)
        // Truncation happens on open, before anything is written.
        #expect(Self.contents(path).isEmpty)
        try truncating.append([Self.event(2)])
        try truncating.close()
        let truncated = try LogLines(path: path)
        #expect(truncated.complete.count == 1)
        #expect((jsonObject(truncated.complete[0])?["index"] as? NSNumber)?.intValue == 2)
    }

    @Test func aFullBufferIsWrittenWithoutAFlush() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("events.jsonl")
        let file = try JSONLinesFile(path: path, bufferSize: 4096)
        for index in 0..<200 { try file.append([Self.event(index)]) }
        let written = try LogLines(path: path)
        #expect(written.torn == nil, "writes end on line boundaries")
        #expect(written.complete.count > 0, "26 KB through a 4 KiB buffer must reach the file before close")
        #expect(written.complete.allSatisfy { jsonObject($0) != nil })
        try file.close()
        #expect(try LogLines(path: path).complete.count == 200)
    }

    /// Events are encoded straight into the file's buffer, which is written whenever it fills:
    /// one append of many events through a small buffer writes exactly the encoder's bytes.
    @Test func oneAppendLargerThanTheBufferWritesTheEncodersBytes() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("events.jsonl")
        let file = try JSONLinesFile(path: path, bufferSize: 4096)
        let events = (0..<300).map { Self.event($0) }
        try file.append(events)
        #expect(try LogLines(path: path).torn == nil, "writes end on line boundaries")
        try file.append([Self.event(300)])
        try file.close()
        var encoder = JSONLinesEncoder()
        for event in events + [Self.event(300)] { encoder.encode(event) }
        #expect(FileManager.default.contents(atPath: path) == Data(encoder.bytes))
    }

    @Test func encodedLinesLargerThanTheBufferAreWrittenInOrder() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("events.jsonl")
        let file = try JSONLinesFile(path: path, bufferSize: 4096)
        try file.append([Self.event(0)])
        var encoder = JSONLinesEncoder()
        for index in 1...100 { encoder.encode(Self.event(index)) }
        try file.append(encodedLines: encoder.bytes)
        try file.append([Self.event(101)])
        try file.close()
        let indices = try LogLines(path: path).complete.map { (jsonObject($0)?["index"] as? NSNumber)?.intValue }
        #expect(indices == (0...101).map { $0 })
    }

    @Test func twoInstancesOnOneFileNeverInterleaveInsideALine() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("shared.jsonl")
        // Each writer alternates small appends (buffered) with 400-line chunks of ~1 KB lines
        // (written straight through). Everything is prepared first and both threads start
        // together, so they really write to the file at the same time.
        let chunks = 40
        let perWriter = chunks / 2 * 10 + chunks / 2 * 400
        let padding = String(repeating: "x", count: 1000)
        func prepare(_ tag: String) -> [(events: [LoggedEvent], bytes: [UInt8])] {
            var next = 0
            return (0..<chunks).map { chunk in
                let count = chunk.isMultiple(of: 2) ? 10 : 400
                defer { next += count }
                if count == 10 { return ((next..<next + count).map { Self.event($0, tag) }, []) }
                let text = (next..<next + count).map { #"{"type":"\#(tag)","index":\#($0),"pad":"\#(padding)"}"# + "\n" }
                return ([], Array(text.joined().utf8))
            }
        }
        let work = [prepare("a"), prepare("b")]
        let files = [try JSONLinesFile(path: path, bufferSize: 4096), try JSONLinesFile(path: path, bufferSize: 4096)]
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        let failures = Mutex<[String]>([])
        for (chunks, file) in zip(work, files) {
            done.enter()
            Thread.detachNewThread {
                start.wait()
                do {
                    for chunk in chunks {
                        if chunk.bytes.isEmpty {
                            try file.append(chunk.events)
                        } else {
                            try file.append(encodedLines: chunk.bytes)
                        }
                    }
                    try file.close()
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
                done.leave()
            }
        }
        start.signal()
        start.signal()
        done.wait()
        #expect(failures.withLock { $0 }.isEmpty)
        let lines = try LogLines(path: path)
        #expect(lines.torn == nil)
        #expect(lines.complete.count == 2 * perWriter)
        var seen: [String: [Int]] = [:]
        for line in lines.complete {
            guard let object = jsonObject(line), let type = object["type"] as? String,
                  let index = (object["index"] as? NSNumber)?.intValue else {
                Issue.record("line does not parse: \(line.prefix(200))")
                return
            }
            seen[type, default: []].append(index)
        }
        // Each writer's lines keep their order.
        #expect(seen["a"] == Array(0..<perWriter))
        #expect(seen["b"] == Array(0..<perWriter))
    }
}
