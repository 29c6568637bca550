/// Where a simulation writes its events, block by block in order: a JSON Lines file, or an event
/// store (RemixStore). A block is the events of a run of consecutive users, already encoded as
/// JSON lines; a sink that stores rows rather than lines also gets the events themselves.
package protocol EventBlockSink: AnyObject {
    /// Whether ``write(block:lines:events:)`` needs `events` (they are collected only then).
    var needsEvents: Bool { get }
    /// Starts the run with its record (the `run` event) before any block.
    func begin(run record: LoggedEvent) throws
    /// Writes block `index` of the shard: `lines` are its events as JSON lines, `events` the same
    /// events as values when ``needsEvents`` (else empty), `users` how many users it holds.
    func write(block index: Int, lines: [UInt8], events: [LoggedEvent], users: Int) throws
    /// Makes everything written durable.
    func finish() throws
}

/// Where a simulation writes when writing is asynchronous I/O (an event store, RemixStore): the
/// same steps as ``EventBlockSink``, each awaited, in order, by the one task that runs the
/// simulation's writer.
package protocol AsyncEventBlockSink: AnyObject, Sendable {
    /// Whether ``write(block:lines:events:users:)`` needs `events` (they are collected only then).
    var needsEvents: Bool { get }
    /// Starts the run with its record (the `run` event) before any block.
    func begin(run record: LoggedEvent) async throws
    /// Writes block `index` of the shard, as ``EventBlockSink/write(block:lines:events:users:)``.
    func write(block index: Int, lines: [UInt8], events: [LoggedEvent], users: Int) async throws
    /// Makes everything written durable.
    func finish() async throws
}

extension JSONLinesFile: EventBlockSink {
    package var needsEvents: Bool { false }

    package func begin(run record: LoggedEvent) throws {
        var encoder = JSONLinesEncoder()
        encoder.encode(record)
        try append(encodedLines: encoder.bytes)
    }

    package func write(block _: Int, lines: [UInt8], events _: [LoggedEvent], users _: Int) throws {
        try append(encodedLines: lines)
    }

    package func finish() throws {
        try flush()
    }
}
