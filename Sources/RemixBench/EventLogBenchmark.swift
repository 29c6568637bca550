import ArgumentParser
import Foundation
import RemixEventLog
import RemixKit
#if canImport(Glibc)
import Glibc
#endif

/// `remix-bench eventlog`: encoding and appending events through the JSON Lines event log, against
/// a raw sequential write(2) of exactly the same bytes.
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

    func run() throws {
        guard events > 0, batch > 0 else { throw ValidationError("--events and --batch must be positive") }
        let sample = Self.sampleEvents()
        let logPath = folder + "/remix-bench-eventlog.jsonl", rawPath = folder + "/remix-bench-raw.jsonl"
        defer {
            unlink(logPath)
            unlink(rawPath)
        }
        let log = try JSONLinesFile(path: logPath, truncate: true)
        var appended = 0
        let logSeconds = try BenchTimer.throwingSeconds {
            var block: [LoggedEvent] = []
            block.reserveCapacity(batch)
            while appended < events {
                block.removeAll(keepingCapacity: true)
                for index in appended..<min(appended + batch, events) {
                    var event = sample[index % sample.count]
                    event.timestamp += Int64(index)
                    block.append(event)
                }
                try log.append(block)
                appended += block.count
            }
            try log.close()
        }
        let size = Self.size(of: logPath)
        // The peer writes as many bytes, from one encoded block held in memory, in 1 MiB calls.
        var encoder = JSONLinesEncoder(capacity: 1 << 20)
        while encoder.bytes.count < 1 << 20 { for event in sample { encoder.encode(event) } }
        let rawSeconds = try BenchTimer.throwingSeconds { try Self.rawWrite(encoder.bytes, total: size, to: rawPath) }
        let megabytes = Double(size) / 1_048_576
        print("remix eventlog: \(events) events, \(size) bytes in \(BenchTimer.format(logSeconds)) s = "
              + "\(Int(Double(events) / logSeconds)) events/s, \(BenchTimer.format(megabytes / logSeconds)) MB/s")
        print("raw write: \(size) bytes in \(BenchTimer.format(rawSeconds)) s = "
              + "\(BenchTimer.format(megabytes / rawSeconds)) MB/s")
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

    /// Writes `total` bytes sequentially, `block` after `block` in write(2) calls of up to 1 MiB:
    /// the floor for any log writer.
    static func rawWrite(_ block: [UInt8], total: Int, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o644)
        guard descriptor >= 0 else { throw ValidationError("cannot open \(path)") }
        defer { close(descriptor) }
        try block.withUnsafeBytes { raw in
            var remaining = total
            while remaining > 0 {
                let written = write(descriptor, raw.baseAddress!, min(min(1 << 20, raw.count), remaining))
                guard written > 0 else { throw ValidationError("write failed: \(String(cString: strerror(errno)))") }
                remaining -= written
            }
        }
    }
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
