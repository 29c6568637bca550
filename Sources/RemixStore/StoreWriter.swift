import Foundation
import PostgresNIO
import RemixEventLog
import RemixKit

/// Which block of which run and shard a batch of events is: the key that makes a retried write a no-op.
package struct BlockKey: Sendable, Hashable, CustomStringConvertible {
    package var run: String
    package var shard: Int
    package var block: Int64

    /// Makes a key.
    package init(run: String, shard: Int, block: Int64) {
        self.run = run
        self.shard = shard
        self.block = block
    }

    package var description: String { "run \(run) shard \(shard) block \(block)" }
}

extension PostgresStore {
    /// Writes `events` as the block `key` in one transaction: its row in `remix_blocks`, then its
    /// events by COPY. Returns false and writes nothing when the store already has that block, so
    /// retrying a write whose outcome is unknown is always safe. A connection that closes during
    /// the write fails it as lost, even where the COPY itself would never return (``ConnectionWatch``).
    @discardableResult
    package func write(_ events: [LoggedEvent], as key: BlockKey) async throws(StoreError) -> Bool {
        try await unlessClosed { [self] () async throws(StoreError) -> Bool in try await transaction(events, as: key) }
    }

    /// The transaction of ``write(_:as:)``.
    private func transaction(_ events: [LoggedEvent], as key: BlockKey) async throws(StoreError) -> Bool {
        try await run("BEGIN")
        do {
            let claimed = try await rows("""
                INSERT INTO remix_blocks (run_id, shard, block, events)
                VALUES (\(key.run), \(key.shard), \(key.block), \(events.count))
                ON CONFLICT DO NOTHING RETURNING true
                """, as: Bool.self)
            guard !claimed.isEmpty else {
                try await run("ROLLBACK")
                return false
            }
            var rows = CopyRows(key: key)
            for event in events { rows.append(event) }
            let buffer = ByteBuffer(bytes: rows.bytes)
            do {
                try await connection.copyFrom(table: "remix_events", columns: StoreSchema.eventColumns, logger: Self.logger) {
                    try await $0.write(buffer)
                }
            } catch {
                throw StoreFailure.map(error, url)
            }
            try await run("COMMIT")
            return true
        } catch {
            _ = try? await run("ROLLBACK")
            throw StoreFailure.map(error, url)
        }
    }
}

/// Events as rows of `COPY remix_events FROM STDIN` in text format: tab-separated, `\N` for NULL,
/// backslash, tab, newline and carriage return escaped. Exposure fields get their own columns;
/// every other field goes into `fields` as a JSON object.
struct CopyRows {
    /// Exposure fields kept as columns, by their event-log names.
    static let exposureColumns: Set<String> = ["experiment", "variation", "variationId", "inExperiment", "hashUsed"]

    let key: BlockKey
    private(set) var bytes: [UInt8] = []
    private var seq = 0
    private var json = JSONLinesEncoder(capacity: 256)

    init(key: BlockKey) { self.key = key }

    /// Appends `event` as the block's next row.
    mutating func append(_ event: LoggedEvent) {
        var timestamp: [UInt8] = []
        Timestamp.appendRFC3339(milliseconds: event.timestamp, to: &timestamp)
        let isExposure = event.type == "exposure"
        func column(_ name: String) -> EventValue? {
            isExposure ? event.fields.first { $0.name == name }?.value : nil
        }
        for value in [key.run, String(key.shard), String(key.block), String(seq)] { field(Array(value.utf8)) }
        field(timestamp)
        for value in [event.type, event.session, event.user] { field(Array(value.utf8)) }
        field(column("experiment"))
        field(column("variation"))
        field(column("variationId"))
        field(column("inExperiment"))
        field(column("hashUsed"))
        json.removeAll()
        json.appendObject(isExposure ? event.fields.filter { !Self.exposureColumns.contains($0.name) } : event.fields)
        field(json.bytes, last: true)
        seq += 1
    }

    /// A column from an event field: strings, integers and booleans as text; anything else NULL.
    private mutating func field(_ value: EventValue?) {
        switch value {
        case .string(let text): field(Array(text.utf8))
        case .int(let number): field(Array(String(number).utf8))
        case .bool(let flag): field(flag ? [UInt8(ascii: "t")] : [UInt8(ascii: "f")])
        default:
            bytes.append(contentsOf: [0x5C, UInt8(ascii: "N"), 0x09])
        }
    }

    /// A column's text, escaped, then a tab (or the row's newline).
    private mutating func field(_ value: [UInt8], last: Bool = false) {
        for byte in value {
            switch byte {
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            default: bytes.append(byte)
            }
        }
        bytes.append(last ? 0x0A : 0x09)
    }
}

extension PostgresStore {
    /// How many blocks of `run`'s shard `shard` are stored, and how many users their sessions hold.
    package func storedBlocks(run: String, shard: Int) async throws(StoreError) -> (blocks: Int, users: Int) {
        let blocks = try await rows("""
            SELECT count(*)::integer FROM remix_blocks WHERE run_id = \(run) AND shard = \(shard)
            """, as: Int.self).first ?? 0
        guard blocks > 0 else { return (0, 0) }
        let users = try await rows("""
            SELECT count(DISTINCT "user")::integer FROM remix_events
            WHERE run_id = \(run) AND shard = \(shard) AND type = 'session_started'
            """, as: Int.self).first ?? 0
        return (blocks, users)
    }

    /// Records the run record of `run`'s shard `shard` (once: a second write is a no-op).
    package func writeRun(_ record: LoggedEvent, run runID: String, shard: Int, shards: Int) async throws(StoreError) {
        var json = JSONLinesEncoder(capacity: 512)
        json.appendObject(record.fields)
        let text = String(decoding: json.bytes, as: UTF8.self)
        func string(_ name: String) -> String {
            guard case .string(let value)? = record.fields.first(where: { $0.name == name })?.value else { return "" }
            return value
        }
        let (app, seed) = (string("app"), string("seed"))
        let timestamp = Date(timeIntervalSince1970: Double(record.timestamp) / 1000)
        try await run("""
            INSERT INTO remix_runs (run_id, shard, shards, ts, app, seed, record)
            VALUES (\(runID), \(shard), \(shards), \(timestamp), \(app), \(seed), \(text)::jsonb)
            ON CONFLICT DO NOTHING
            """)
    }
}
