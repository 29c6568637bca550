/// A PostgreSQL error code (SQLSTATE): five letters or digits, the first two its class (Appendix A
/// of PostgreSQL's manual). The store decides what to do about a server's error on this code —
/// never on the message, whose wording (and language: `lc_messages`) the server chooses.
package struct SQLState: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The five characters, e.g. `57P01`.
    package let rawValue: String

    /// A code of five ASCII letters or digits; nil for anything else.
    package init?(rawValue: String) {
        guard rawValue.utf8.count == 5, rawValue.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) })
        else { return nil }
        self.rawValue = rawValue
    }

    /// The class: the first two characters (`08` connection exception, `40` transaction rollback, …).
    package var errorClass: String { String(rawValue.prefix(2)) }

    package var description: String { rawValue }

    /// Whether the same work may succeed if tried again (on a new connection): the server could not
    /// keep or make the connection (class `08`), rolled the transaction back because of others
    /// (class `40`: serialization failures, deadlocks), is shutting down or starting up after a
    /// restart or crash (`57P01`–`57P03`), or has no connection slot free (`53300`). Anything else —
    /// a refused password, a missing table, a statement timeout (`57014`) — would fail the same way again.
    package var isTransient: Bool {
        switch errorClass {
        case "08", "40": true
        default: Self.transientCodes.contains(self)
        }
    }

    private static let transientCodes: Set<SQLState> = [.adminShutdown, .crashShutdown, .cannotConnectNow, .tooManyConnections]

    /// `28P01`: the password was wrong.
    package static let invalidPassword = SQLState(known: "28P01")
    /// `28000`: the role may not connect (pg_hba.conf, no such role).
    package static let invalidAuthorization = SQLState(known: "28000")
    /// `3D000`: the database does not exist.
    package static let invalidCatalogName = SQLState(known: "3D000")
    /// `42501`: the role lacks a privilege.
    package static let insufficientPrivilege = SQLState(known: "42501")
    /// `25006`: a write in a read-only transaction (a hot standby, or `default_transaction_read_only`).
    package static let readOnlySQLTransaction = SQLState(known: "25006")
    /// `22021`: a character the database cannot hold (a NUL, or one outside its encoding).
    package static let characterNotInRepertoire = SQLState(known: "22021")
    /// `57014`: a statement was cancelled (statement_timeout, or by an administrator).
    package static let queryCanceled = SQLState(known: "57014")
    /// `57P01`: the server is shutting down (or an administrator ended the connection).
    package static let adminShutdown = SQLState(known: "57P01")
    /// `57P02`: another server process crashed, so the server ends every connection.
    package static let crashShutdown = SQLState(known: "57P02")
    /// `57P03`: the server is starting up or recovering, not yet taking connections.
    package static let cannotConnectNow = SQLState(known: "57P03")
    /// `53300`: every connection slot is taken.
    package static let tooManyConnections = SQLState(known: "53300")

    /// A code spelled out in this file (five letters or digits by construction).
    private init(known: StaticString) {
        rawValue = known.description
    }
}
