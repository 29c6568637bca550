import RemixKit

/// One event as the event log stores it: when, what, in which session, for which user, and the
/// event's own fields.
package struct LoggedEvent: Sendable, Equatable {
    /// Milliseconds since 1970-01-01T00:00:00Z (virtual time in simulations).
    package var timestamp: Int64
    /// The event type, e.g. `exposure`, `advert_published`.
    package var type: String
    /// The session id.
    package var session: String
    /// The user id (the session's `id` attribute).
    package var user: String
    /// The event's own fields, in order.
    package var fields: [EventField]

    /// Makes an event.
    package init(timestamp: Int64, type: String, session: String, user: String, fields: [EventField] = []) {
        self.timestamp = timestamp
        self.type = type
        self.session = session
        self.user = user
        self.fields = fields
    }
}

/// Where events are stored: the JSON Lines file by default, a database when a team shares one.
package protocol EventLog: AnyObject {
    /// Appends events in order; they are durable after the next flush.
    func append(_ events: [LoggedEvent]) throws
    /// Writes everything appended so far.
    func flush() throws
    /// Flushes and releases the store; later appends fail.
    func close() throws
}
