/// Why the event store cannot be used: a message for the user, never a stack trace or a password.
package struct StoreError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of problem it is, for callers and tests that act on it.
    package enum Kind: String, Sendable, Equatable {
        /// The store URL cannot be read.
        case badURL
        /// Nothing answers at the host and port, or the host is unknown.
        case unreachable
        /// The server did not answer in time.
        case timeout
        /// The user or password was refused.
        case authentication
        /// The database does not exist.
        case missingDatabase
        /// TLS was asked for and is not available.
        case tls
        /// The database holds tables that are not a Remix store of a version this binary knows.
        case schema
        /// What was to be written is already in the store (a run, a copied file); writing it again
        /// needs asking for.
        case alreadyStored
        /// Any other error the server reported.
        case server
    }

    /// What kind of problem it is.
    package var kind: Kind
    /// The message, complete: what failed, where, and what to do.
    package var message: String
    /// The code of the server's error, when the server reported one.
    package var sqlState: SQLState?

    /// Makes an error.
    package init(_ kind: Kind, _ message: String, sqlState: SQLState? = nil) {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
    }

    /// Whether the same work may succeed on a new connection, so that a writer that can repeat it
    /// safely tries again: the connection failed or was lost (``Kind/unreachable``,
    /// ``Kind/timeout``, as the client library's error codes say), or the server's code is one of
    /// the moment (``SQLState/isTransient``). Decided on codes only, never on the message.
    package var isTransient: Bool {
        switch kind {
        case .unreachable, .timeout: true
        case .server: sqlState?.isTransient ?? false
        case .badURL, .authentication, .missingDatabase, .tls, .schema, .alreadyStored: false
        }
    }

    package var description: String { message }
}
