import Foundation
import PostgresNIO

/// Turns what PostgresNIO and SwiftNIO throw into `StoreError`s that say what failed and what to do.
/// The kind follows the client library's code (`PSQLError.Code`) and the server's SQLSTATE, which
/// the error keeps; whether to try again is decided on those (``StoreError/isTransient``).
enum StoreFailure {
    static func map(_ error: any Error, _ url: StoreURL) -> StoreError {
        if let error = error as? StoreError { return error }
        if error is CancellationError { return StoreError(.timeout, "the operation on PostgreSQL at \(url.endpoint) was cancelled") }
        guard let error = error as? PSQLError else {
            return StoreError(.server, "PostgreSQL at \(url.endpoint): \(String(describing: type(of: error)))")
        }
        return map(error.code, sqlState: error.serverInfo?[.sqlState], message: error.serverInfo?[.message],
                   underlying: error.underlying, url)
    }

    /// The error for a failure the client library reports as `code`, with the server's `sqlState`
    /// and `message` when the server sent an error, and the `underlying` error of a connection.
    static func map(_ code: PSQLError.Code, sqlState: String?, message: String?, underlying: (any Error)?,
                    _ url: StoreURL) -> StoreError {
        let at = url.endpoint
        switch code {
        case .server:
            return server(sqlState.flatMap(SQLState.init(rawValue:)), message: message ?? "error", url)
        case .connectionError:
            if let underlying = underlying as? ChannelError, case .connectTimeout(let limit) = underlying {
                return timeout(url, seconds: Double(limit.nanoseconds) / 1e9)
            }
            return StoreError(.unreachable, "cannot connect to PostgreSQL at \(at): \(reason(underlying)) — "
                + "is PostgreSQL running on \(at)?")
        case .sslUnsupported:
            return StoreError(.tls, "PostgreSQL at \(at) does not offer TLS, but sslmode=\(url.sslMode.rawValue) requires it")
        case .failedToAddSSLHandler, .receivedUnencryptedDataAfterSSLRequest:
            return StoreError(.tls, "TLS with PostgreSQL at \(at) failed (sslmode=\(url.sslMode.rawValue))")
        case .authMechanismRequiresPassword:
            return StoreError(.authentication, "PostgreSQL at \(at) asks for a password for user \"\(url.user)\" and none "
                + "was given: put it in the URL, PGPASSWORD or ~/.pgpass")
        case .unsupportedAuthMechanism, .saslError:
            return StoreError(.authentication, "authentication as \"\(url.user)\" with PostgreSQL at \(at) failed "
                + "(\(code)): check the user and password")
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown:
            return StoreError(.unreachable, "PostgreSQL at \(at) closed the connection (\(code))"
                + (underlying.map { ": \(reason($0))" } ?? ""))
        default:
            return StoreError(.server, "PostgreSQL at \(at): \(code)")
        }
    }

    /// The connection was not ready within `seconds`.
    static func timeout(_ url: StoreURL, seconds: Double) -> StoreError {
        StoreError(.timeout, "PostgreSQL at \(url.endpoint) did not answer within \(seconds) s "
            + "(is it a PostgreSQL server, and is the network reachable?)")
    }

    /// An error the server reported, by its SQLSTATE (kept in the error, for ``StoreError/isTransient``).
    private static func server(_ state: SQLState?, message: String, _ url: StoreURL) -> StoreError {
        let at = url.endpoint
        let text: String, kind: StoreError.Kind
        switch state {
        case .invalidPassword, .invalidAuthorization:
            kind = .authentication
            text = "authentication as \"\(url.user)\" with PostgreSQL at \(at) failed: "
                + "check the user and password (URL, PGPASSWORD or ~/.pgpass) — server said: \(message)"
        case .invalidCatalogName:
            kind = .missingDatabase
            text = "database \"\(url.database)\" does not exist on PostgreSQL at \(at); "
                + "create it with: createdb -h \(url.host) -p \(url.port) -U \(url.user) \(url.database)"
        case .insufficientPrivilege:
            kind = .server
            text = "PostgreSQL at \(at) refused: \(message) — user \"\(url.user)\" needs the right "
                + "to create tables in database \"\(url.database)\""
        case .readOnlySQLTransaction:
            kind = .server
            text = "PostgreSQL at \(at) is read-only for user \"\(url.user)\" (SQLSTATE 25006: a hot standby, or "
                + "default_transaction_read_only is on for the server, database or user), and Remix writes there — events, "
                + "sticky buckets, and the temporary tables of an analysis; give the URL of a server that takes writes (the "
                + "primary), or turn it off for Remix with options=-c%20default_transaction_read_only%3Doff in the store URL"
        case .characterNotInRepertoire:
            kind = .server
            text = "PostgreSQL at \(at) cannot store a text: \(message) (SQLSTATE 22021) — PostgreSQL holds no NUL "
                + "character (\\u0000) in text, nor one outside the database's encoding; remove it from the value"
        case .queryCanceled:
            // A statement timeout (or a cancel by an administrator): not the store's fault, and a
            // retry on a new connection would meet the same limit.
            kind = .server
            text = "PostgreSQL at \(at) cancelled a statement: \(message) (SQLSTATE 57014) — a "
                + "statement_timeout of the server, database or user \"\(url.user)\" is shorter than this work takes; "
                + "lift it for Remix with options=-c%20statement_timeout%3D0 in the store URL (or "
                + "PGOPTIONS='-c statement_timeout=0'), or, if someone cancelled the statement, run the command again"
        default:
            kind = .server
            text = "PostgreSQL at \(at): \(message)" + (state.map { " (SQLSTATE \($0))" } ?? "")
        }
        return StoreError(kind, text, sqlState: state)
    }

    /// Why a connection failed, in a few words.
    private static func reason(_ error: (any Error)?) -> String {
        guard let error else { return "no connection" }
        if let error = error as? NIOConnectionError {
            if error.dnsAError != nil || error.dnsAAAAError != nil { return "unknown host \(error.host)" }
            if let first = error.connectionErrors.first { return reason(first.error) }
            return "no address to connect to"
        }
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)).lowercased() }
        if let error = error as? ChannelError, case .connectTimeout = error { return "timed out" }
        return String(describing: error)
    }
}
