import ArgumentParser
import Foundation
import RemixEventLog
import RemixFormats
import RemixKit
import RemixSystem

/// `remix-bench eventlog`: encoding and appending events through the JSON Lines event log, against
/// a raw sequential write(2) of exactly the same bytes.
///
/// Both files are written without fsync (as the simulation writes its log). The peer's bytes are
/// encoded outside its clock, in the same blocks, and written in calls of at least 1 MiB; only the
/// write(2) calls are timed, so it is the floor for any writer of this log. Ours times the appends
/// (encoding included) and the close, not the filling of each block of events. The command fails
/// unless both wrote the same bytes (same size and checksum).
struct EventLogBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eventlog",
        abstract: "Time JSONLinesFile appends of simulation-shaped events against a raw write of the same bytes.")

    @Option(help: "How many events to append.")
    var events: Int = 2_000_000

    @Option(help: "Events per append call (the simulation appends blocks of sessions).")
    var batch: Int = 2048

    @Option(help: "Folder for the two temporary files.")
    var folder: String = NSTemporaryDirectory()

    func validate() throws {
        guard events > 0, batch > 0 else { throw ValidationError("--events and --batch must be positive") }
    }

    func run() throws {
        let sample = Self.sampleEvents()
        let logPath = folder + "/remix-bench-eventlog.jsonl", rawPath = folder + "/remix-bench-raw.jsonl"
        defer {
            unlink(logPath)
            unlink(rawPath)
        }
        var block: [LoggedEvent] = []
        block.reserveCapacity(batch)
        let log = try JSONLinesFile(path: logPath, truncate: true)
        // Only the appends and the close are timed, as only the peer's write(2) calls are: filling
        // the block (copying sample events) is the harness's work, not the log's.
        var logSeconds = 0.0
        var appended = 0
        while appended < events {
            Self.fill(&block, from: appended, count: min(batch, events - appended), sample: sample)
            logSeconds += try BenchTimer.throwingSeconds { try log.append(block) }
            appended += block.count
        }
        logSeconds += try BenchTimer.throwingSeconds { try log.close() }
        let size = Self.size(of: logPath)
        // Checksum the log, then delete it, so that the raw write reuses the freed page cache
        // rather than paying for fresh memory (which on a VM costs more than the copy itself).
        let logChecksum = try Self.checksum(ofFile: logPath)
        unlink(logPath)
        var rawChecksum = Checksum()
        let rawSeconds = try Self.rawWrite(to: rawPath) { encoder, appended in
            Self.fill(&block, from: appended, count: min(batch, events - appended), sample: sample)
            for event in block { encoder.encode(event) }
            return block.count
        } written: { rawChecksum.add($0) }
        guard Self.size(of: rawPath) == size, rawChecksum.value == logChecksum else {
            throw BenchError("the event log and the raw write differ: not the same bytes")
        }
        let megabytes = Double(size) / 1_048_576
        print("remix eventlog: \(events) events, \(size) bytes in \(BenchTimer.format(logSeconds)) s = "
              + "\(Int(Double(events) / logSeconds)) events/s, \(BenchTimer.format(megabytes / logSeconds)) MB/s")
        print("raw write: \(size) bytes in \(BenchTimer.format(rawSeconds)) s = "
              + "\(BenchTimer.format(megabytes / rawSeconds)) MB/s (identical bytes)")
    }

    /// Refills `block` with events `start ..< start + count`: the sample session repeated, each
    /// event a millisecond after the one before.
    static func fill(_ block: inout [LoggedEvent], from start: Int, count: Int, sample: [LoggedEvent]) {
        block.removeAll(keepingCapacity: true)
        for index in start..<start + count {
            var event = sample[index % sample.count]
            event.timestamp += Int64(index)
            block.append(event)
        }
    }

    /// One simulated session's worth of events: start, screens, an exposure, domain events, end.
    static func sampleEvents() -> [LoggedEvent] {
        let start: Int64 = 1_795_424_400_000
        func event(_ type: String, _ fields: [EventField]) -> LoggedEvent {
            LoggedEvent(timestamp: start, type: type, session: "s1-123456", user: "u1-123456", fields: fields)
        }
        func screen(_ kind: String, _ name: String, _ stack: String) -> LoggedEvent {
            event("screen", [EventField("transition", .string(kind)), EventField("screen", .string(name)),
                             EventField("stack", .string(stack))])
        }
        return [
            event("session_started", [EventField("app", .string("marketplace")), EventField("persona", .string("decisive seller")),
                                      EventField("attributes", .object([EventField("id", .string("u1-123456")),
                                                                        EventField("platform", .string("phone")),
                                                                        EventField("appVersion", .string("2.1.0")),
                                                                        EventField("country", .string("GB"))]))]),
            screen("show", "adverts", "adverts"),
            event("exposure", [EventField("experiment", .string("insertion-flow")), EventField("variation", .string("auto")),
                               EventField("variationId", .int(1)), EventField("feature", .string("AutoGroupInsertion")),
                               EventField("app", .string("marketplace")), EventField("slot", .string("insertion")),
                               EventField("bucket", .double(0.4127)), EventField("hashUsed", .bool(true)),
                               EventField("inExperiment", .bool(true))]),
            event("insertion_started", [EventField("flow", .string("AutoGroupInsertionCoordinator"))]),
            screen("push", "title", "adverts > title"),
            screen("present", "toast(Autoselecting group...)", "adverts > title ^ toast(Autoselecting group...)"),
            event("group_recommended", [EventField("group", .string("Mountain bikes"))]),
            event("advert_published", [EventField("advert", .string("FDBA48DB-C8C4-4A9A-AF8C-7859FA1C5CE6")),
                                       EventField("group", .string("Mountain bikes")),
                                       EventField("title", .string("Mountain bike, 29 \"inch\" wheels"))]),
            screen("pop", "title", "adverts"),
            event("session_ended", [EventField("outcome", .string("published")), EventField("durationMs", .int(9215)),
                                    EventField("steps", .int(6))]),
        ]
    }

    static func size(of path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Writes the bytes `encode` produces (it encodes the events from the given index on and
    /// returns how many it encoded, 0 at the end) in write(2) calls of at least 1 MiB; returns
    /// the seconds spent in write(2) alone — the floor for any log writer.
    static func rawWrite(
        to path: String, encode: (inout JSONLinesEncoder, Int) -> Int, written: (UnsafeRawBufferPointer) -> Void
    ) throws -> Double {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o644)
        guard descriptor >= 0 else { throw BenchError("cannot open \(path)") }
        defer { close(descriptor) }
        var encoder = JSONLinesEncoder(capacity: 2 << 20)
        var encoded = 0, seconds = 0.0, finished = false
        while !finished {
            encoder.removeAll()
            while encoder.bytes.count < 1 << 20 {
                let count = encode(&encoder, encoded)
                if count == 0 {
                    finished = true
                    break
                }
                encoded += count
            }
            seconds += try BenchTimer.throwingSeconds {
                try encoder.bytes.withUnsafeBytes { raw in
                    var offset = 0
                    while offset < raw.count {
                        let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                        if written < 0 && errno == EINTR { continue }
                        guard written > 0 else { throw BenchError("write failed: \(String(cString: strerror(errno)))") }
                        offset += written
                    }
                }
            }
            encoder.bytes.withUnsafeBytes { written($0) }
        }
        return seconds
    }

    /// The checksum of a file's bytes.
    static func checksum(ofFile path: String) throws -> UInt64 {
        guard let file = fopen(path, "rb") else { throw BenchError("cannot reopen \(path)") }
        defer { fclose(file) }
        var checksum = Checksum()
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count == 0 { return checksum.value }
            chunk.withUnsafeBytes { checksum.add(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
    }
}

/// FNV-1a over bytes fed in pieces: enough to tell whether two byte streams are the same.
struct Checksum {
    private var hash = FNV1a<UInt64>()
    /// The hash of the bytes so far.
    var value: UInt64 { hash.value }

    /// Over the bytes in place.
    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        hash.add(contentsOf: bytes)
    }
}

/// A benchmark that could not run or whose check failed.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension BenchTimer {
    /// Seconds a throwing `body` takes.
    static func throwingSeconds(_ body: () throws -> Void) throws -> Double {
        var failure: (any Error)?
        let seconds = Self.seconds {
            do { try body() } catch { failure = error }
        }
        if let failure { throw failure }
        return seconds
    }
}
