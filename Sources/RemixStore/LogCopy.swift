import Foundation
import PostgresNIO
import RemixEventLog
import RemixFiles
import RemixFormats
import RemixKit

/// `remix log copy`: event logs between JSON Lines files and an event store, streaming both ways.
/// A file goes into the store as a run of its own, `copy-` and 16 hex digits of a hash of its
/// content, in blocks of ``blockSize`` events keyed like a simulation's, its run record last: a
/// copy that stopped half-way completes when run again, and a file already copied (whatever its
/// name or time) is refused unless a second copy is asked for. The store comes out in its stored
/// order (run, shard, block, event), run records first.
package enum LogCopy {
    /// Events per block written to the store.
    package static let blockSize = 10_000

    /// What a copy did.
    package struct Outcome: Sendable {
        package var events = 0
        package var blocksWritten = 0
        package var blocksSkipped = 0
        /// Lines that were not events, skipped: their count and the first few as `path:line: why`.
        package var badLines = 0
        package var firstBadLines: [String] = []
        /// The run the events went into (file → store).
        package var run: String?
    }

    /// Copies the JSON Lines file at `path` into the store at `url`; `progress` gets bytes read.
    /// A file whose content the store already holds as a complete copy is refused, naming that
    /// run, unless `again`: then it is stored once more, as the next copy (a run of its own).
    package static func fileToStore(_ path: String, _ url: StoreURL, again: Bool = false,
                                   progress: (Int, Int) -> Void = { _, _ in }) async throws -> Outcome {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        var contentHash = FNV1a<UInt64>()
        try LineReader.chunks(path) { contentHash.add(contentsOf: $0) }
        let content = contentHash.value
        let run = try await PostgresStore.with(url) { store in
            try await store.prepareSchema()
            var copy = 1
            while let stored = try await store.copyRecord(of: copyRun(content: content, copy: copy)) {
                guard again else {
                    throw StoreError(.alreadyStored, "\(path) is already in the event store at \(url.redacted) as run "
                        + "\(copyRun(content: content, copy: copy)) (copied from \(stored.source) at \(stored.time)): the "
                        + "same content stored again would count its events twice, so nothing was stored; to store it "
                        + "a second time anyway, add --again")
                }
                copy += 1
            }
            return copyRun(content: content, copy: copy)
        }
        var outcome = Outcome(run: run)
        let sink = StoreBlockSink(url: url, run: run, shard: 1, shards: 1, resume: true, retrySeconds: 30)
        do {
            try await copy(path, size: size, into: sink, outcome: &outcome, progress: progress)
        } catch {
            await sink.close()
            throw error
        }
        progress(size, size)
        outcome.blocksWritten = await sink.blocksWritten
        outcome.blocksSkipped = await sink.blocksSkipped
        return outcome
    }

    /// The lines of `path` as events into `sink`, in blocks of ``blockSize``, then the run record.
    private static func copy(_ path: String, size: Int, into sink: StoreBlockSink, outcome: inout Outcome,
                             progress: (Int, Int) -> Void) async throws {
        let record = LoggedEvent(timestamp: Int64(Date().timeIntervalSince1970 * 1000), type: "run", session: "", user: "",
                                 fields: [EventField("mode", .string("copy")), EventField("source", .string(path)),
                                          EventField("app", .string("")), EventField("seed", .string(""))])
        try await sink.open()
        var block: [LoggedEvent] = []
        var index = 0
        func flush() async throws {
            guard !block.isEmpty else { return }
            try await sink.write(block: index, lines: [], events: block, users: 0)
            outcome.events += block.count
            index += 1
            block.removeAll(keepingCapacity: true)
        }
        var lines = try LineReader(path)
        while let (line, number) = try lines.next() {
            switch event(from: line) {
            case .success(let event): block.append(event)
            case .failure(let reason):
                outcome.badLines += 1
                if outcome.firstBadLines.count < 5 { outcome.firstBadLines.append("\(path):\(number): \(reason.text)") }
            }
            if block.count == blockSize {
                try await flush()
                progress(lines.offset, size)
            }
        }
        try await flush()
        // Last: a run record says the copy is complete, and so a second one is refused.
        try await sink.record(run: record)
        await sink.finish()
    }

    /// The run of the `copy`-th copy of a file whose content hashes to `content`.
    static func copyRun(content: UInt64, copy: Int) -> String {
        let hash = String(format: "%016llx", content)
        return "copy-" + (copy == 1 ? hash : FNV1a<UInt64>.hex("\(hash) copy \(copy)".utf8))
    }

    struct LineProblem: Error { var text: String }

    /// One log line as an event: `ts`, `type`, `session`, `user` and the other fields in any order,
    /// read as the analysis reads them (the host's JSON reader: numbers exactly, integers told from
    /// doubles; `ts` by `CivilTime.milliseconds`), so a copy in the store analyses like its file.
    static func event(from line: [UInt8]) -> Result<LoggedEvent, LineProblem> {
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return .failure(LineProblem(text: "empty line")) }
        guard case .object(let members)? = try? JSONReader<EventValue>.parse(line) else {
            return .failure(LineProblem(text: "not a JSON object"))
        }
        func text(_ key: String) -> String? {
            guard case .string(let text)? = members.first(where: { $0.name == key })?.value else { return nil }
            return text
        }
        guard let ts = text("ts"), let type = text("type"), let user = text("user") else {
            return .failure(LineProblem(text: "no \"ts\", \"type\" and \"user\" strings"))
        }
        guard let time = CivilTime.milliseconds(ts) else {
            return .failure(LineProblem(text: "\"ts\" \(ts) is not an RFC 3339 date and time"))
        }
        // JSON allows \u0000; PostgreSQL's text and jsonb do not, and would fail the whole block.
        guard !holdsNUL(.object(members)) else {
            return .failure(LineProblem(text: "a NUL character (\\u0000) in a name or string, which PostgreSQL cannot "
                                        + "store; remove it from the line"))
        }
        let fields = members.filter { !["ts", "type", "session", "user"].contains($0.name) }
        return .success(LoggedEvent(timestamp: time, type: type, session: text("session") ?? "", user: user, fields: fields))
    }

    /// Whether `value` holds U+0000 in a string or an object's member name.
    static func holdsNUL(_ value: EventValue) -> Bool {
        switch value {
        case .string(let text): text.utf8.contains(0)
        case .array(let items): items.contains(where: holdsNUL)
        case .object(let fields): fields.contains { $0.name.utf8.contains(0) || holdsNUL($0.value) }
        case .int, .double, .bool, .null: false
        }
    }
}

/// Reads a file in 1 MiB chunks, as they come or line by line.
struct LineReader {
    /// `body` gets each chunk of the file in turn.
    static func chunks(_ path: String, _ body: (Data) throws -> Void) throws {
        let handle = try open(path)
        defer { try? handle.close() }
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { try body(chunk) }
    }

    private static func open(_ path: String) throws(StoreError) -> FileHandle {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StoreError(.server, "cannot read \(path): no such file, or not readable")
        }
        return handle
    }

    private let handle: FileHandle
    private var pending: [UInt8] = []
    private var start = 0
    private var number = 0
    /// Bytes read so far.
    private(set) var offset = 0
    private var atEnd = false

    /// A reader of the lines of `path`.
    init(_ path: String) throws {
        handle = try Self.open(path)
    }

    /// The next line (without its newline) and its number; nil after the last. A last line without
    /// a newline is a line too.
    mutating func next() throws -> ([UInt8], Int)? {
        while true {
            if let newline = pending[start...].firstIndex(of: 0x0A) {
                defer { start = newline + 1 }
                number += 1
                return (Array(pending[start..<newline]), number)
            }
            pending.removeFirst(start)
            start = 0
            guard !atEnd else { break }
            if let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                offset += chunk.count
                pending += chunk
            } else {
                atEnd = true
                try? handle.close()
            }
        }
        guard !pending.isEmpty else { return nil }
        defer { pending.removeAll() }
        number += 1
        return (pending, number)
    }
}

extension LogCopy {
    /// Writes the store's events (of run `run`, or all) to the JSON Lines file `path`, replacing
    /// it: run records first, then events in stored order. Field order within a line is the
    /// store's (`jsonb` keeps no order); values are the same. `progress` gets (events, total).
    /// The events go to a temporary file beside `path` that replaces it only once all are written,
    /// so a store that cannot be reached, or is not a Remix event store, leaves `path` as it was;
    /// so does SIGINT or SIGTERM, which removes the temporary file (``StagedOutput``).
    package static func storeToFile(_ url: StoreURL, run: String?, _ path: String,
                                   progress: (Int, Int) -> Void = { _, _ in }) async throws -> Outcome {
        let staged = StagedOutput.file(path)
        let temporary = staged.path
        let count: Int
        do {
            count = try await PostgresStore.with(url) { store in
                guard try await store.installedVersion() != nil else {
                    throw StoreError(.schema, "there is no Remix event store at \(url.redacted) (no remix_events table); "
                        + "write one with 'remix simulate --log URL' or 'remix log copy FILE URL'")
                }
                let file = try JSONLinesFile(path: temporary, truncate: true)
                let written = try await store.export(run: run, into: file, progress: progress)
                try file.close()
                return written
            }
        } catch {
            staged.discard()
            throw error
        }
        do {
            try staged.commit()
        } catch {
            throw StoreError(.server, error.description)
        }
        var outcome = Outcome()
        outcome.events = count
        return outcome
    }
}

extension PostgresStore {
    /// Streams run records, then events, as JSON lines into `file`; returns the events written.
    func export(run runID: String?, into file: JSONLinesFile, progress: (Int, Int) -> Void) async throws -> Int {
        let runFilter = runID ?? ""
        let total = try await rows("""
            SELECT count(*)::integer FROM remix_events WHERE \(runFilter) = '' OR run_id = \(runFilter)
            """, as: Int.self).first ?? 0
        let time = "to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
        let records = try await run(PostgresQuery(unsafeSQL: """
            SELECT \(time), record::text FROM remix_runs WHERE $1 = '' OR run_id = $1 ORDER BY run_id, shard
            """, binds: binds(runFilter)))
        var lines: [UInt8] = []
        for try await (ts, record) in records.decode((String, String).self) {
            lines += LogCopy.line(ts: ts, type: "run", session: "", user: "", exposure: nil, fields: record)
        }
        try file.append(encodedLines: lines)
        lines.removeAll(keepingCapacity: true)
        let events = try await run(PostgresQuery(unsafeSQL: """
            SELECT \(time), type, session, "user", experiment, variation, variation_id, in_experiment, hash_used, fields::text
            FROM remix_events WHERE $1 = '' OR run_id = $1 ORDER BY run_id, shard, block, seq
            """, binds: binds(runFilter)))
        var written = 0
        for try await row in events.decode((String, String, String, String, String?, String?, Int?, Bool?, Bool?, String).self) {
            let exposure = row.1 == "exposure" ? (row.4, row.5, row.6, row.7, row.8) : nil
            lines += LogCopy.line(ts: row.0, type: row.1, session: row.2, user: row.3, exposure: exposure, fields: row.9)
            written += 1
            if lines.count >= 1 << 20 {
                try file.append(encodedLines: lines)
                lines.removeAll(keepingCapacity: true)
                progress(written, total)
            }
        }
        try file.append(encodedLines: lines)
        progress(written, total)
        return written
    }

    /// When and from which path the copy `run` was completed (its run record), if it was.
    func copyRecord(of run: String) async throws(StoreError) -> (time: String, source: String)? {
        do {
            let rows = try await self.run("""
                SELECT to_char(written_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS "UTC"'), coalesce(record ->> 'source', '')
                FROM remix_runs WHERE run_id = \(run) AND shard = 1
                """)
            var records: [(time: String, source: String)] = []
            for try await record in rows.decode((String, String).self) { records.append(record) }
            return records.first
        } catch {
            throw StoreFailure.map(error, url)
        }
    }

    private func binds(_ run: String) -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(run)
        return bindings
    }
}

extension LogCopy {
    /// One JSON line: the common fields, an exposure's columns, then the stored fields object's members.
    static func line(ts: String, type: String, session: String, user: String,
                     exposure: (String?, String?, Int?, Bool?, Bool?)?, fields: String) -> [UInt8] {
        var text = "{\"ts\":\"\(ts)\",\"type\":\(JSONText.quoted(type)),\"session\":\(JSONText.quoted(session)),"
            + "\"user\":\(JSONText.quoted(user))"
        if let (experiment, variation, variationID, inExperiment, hashUsed) = exposure {
            text += ",\"experiment\":" + (experiment.map(JSONText.quoted) ?? "null")
                + ",\"variation\":" + (variation.map(JSONText.quoted) ?? "null")
                + ",\"variationId\":" + (variationID.map { String($0) } ?? "null")
                + ",\"inExperiment\":" + (inExperiment.map { String($0) } ?? "null")
                + ",\"hashUsed\":" + (hashUsed.map { String($0) } ?? "null")
        }
        let inner = fields.trimmingCharacters(in: .whitespaces).dropFirst().dropLast()
        if !inner.trimmingCharacters(in: .whitespaces).isEmpty { text += "," + inner }
        return Array((text + "}\n").utf8)
    }
}
