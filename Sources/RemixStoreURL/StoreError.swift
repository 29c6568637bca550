/// Why the event store cannot be used: a message for the user, never a stack trace or a password.
public struct StoreError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of problem it is, for callers and tests that act on it.
    public enum Kind: String, Sendable, Equatable {
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
    public var kind: Kind
    /// The message, complete: what failed, where, and what to do.
    public var message: String

    /// Makes an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
