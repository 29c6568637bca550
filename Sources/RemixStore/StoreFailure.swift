import Foundation
import PostgresNIO

/// Turns what PostgresNIO and SwiftNIO throw into `StoreError`s that say what failed and what to do.
enum StoreFailure {
    static func map(_ error: any Error, _ url: StoreURL) -> StoreError {
        if let error = error as? StoreError { return error }
        let at = url.endpoint
        if error is CancellationError { return StoreError(.timeout, "the operation on PostgreSQL at \(at) was cancelled") }
        guard let error = error as? PSQLError else {
            return StoreError(.server, "PostgreSQL at \(at): \(String(describing: type(of: error)))")
        }
        switch error.code {
        case .server:
            return server(error, url)
        case .connectionError:
            if let underlying = error.underlying as? ChannelError, case .connectTimeout(let limit) = underlying {
                return timeout(url, seconds: Double(limit.nanoseconds) / 1e9)
            }
            return StoreError(.unreachable, "cannot connect to PostgreSQL at \(at): \(reason(error.underlying)) — "
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
                + "(\(error.code)): check the user and password")
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown:
            return StoreError(.unreachable, "PostgreSQL at \(at) closed the connection (\(error.code))"
                + (error.underlying.map { ": \(reason($0))" } ?? ""))
        default:
            return StoreError(.server, "PostgreSQL at \(at): \(error.code)")
        }
    }

    /// The connection was not ready within `seconds`.
    static func timeout(_ url: StoreURL, seconds: Double) -> StoreError {
        StoreError(.timeout, "PostgreSQL at \(url.endpoint) did not answer within \(seconds) s "
            + "(is it a PostgreSQL server, and is the network reachable?)")
    }

    /// An error the server reported, by its SQLSTATE.
    private static func server(_ error: PSQLError, _ url: StoreURL) -> StoreError {
        let state = error.serverInfo?[.sqlState] ?? ""
        let message = error.serverInfo?[.message] ?? "error"
        let at = url.endpoint
        switch state {
        case "28P01", "28000":
            return StoreError(.authentication, "authentication as \"\(url.user)\" with PostgreSQL at \(at) failed: "
                + "check the user and password (URL, PGPASSWORD or ~/.pgpass) — server said: \(message)")
        case "3D000":
            return StoreError(.missingDatabase, "database \"\(url.database)\" does not exist on PostgreSQL at \(at); "
                + "create it with: createdb -h \(url.host) -p \(url.port) -U \(url.user) \(url.database)")
        case "42501":
            return StoreError(.server, "PostgreSQL at \(at) refused: \(message) — user \"\(url.user)\" needs the right "
                + "to create tables in database \"\(url.database)\"")
        case "57014":
            // A statement timeout (or a cancel by an administrator): not the store's fault, and a
            // retry on a new connection would meet the same limit.
            return StoreError(.server, "PostgreSQL at \(at) cancelled a statement: \(message) (SQLSTATE 57014) — a "
                + "statement_timeout of the server, database or user \"\(url.user)\" is shorter than this work takes; "
                + "lift it for Remix with options=-c%20statement_timeout%3D0 in the store URL (or "
                + "PGOPTIONS='-c statement_timeout=0'), or, if someone cancelled the statement, run the command again")
        default:
            return StoreError(.server, "PostgreSQL at \(at): \(message)" + (state.isEmpty ? "" : " (SQLSTATE \(state))"))
        }
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
