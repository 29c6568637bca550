import Foundation
import PostgresNIO
import RemixKit

/// One connection to the event store. `connect` gives up within its timeout and turns every
/// failure into a `StoreError` that says what to do; nothing it throws shows the password.
/// Transactions (`prepareSchema`, `write`) use the one connection: one task at a time per store.
package final class PostgresStore: Sendable {
    /// Where the store is.
    package let url: StoreURL
    /// The open connection.
    let connection: PostgresConnection
    /// Ends calls that the connection's closing would leave waiting (``unlessClosed(_:)``).
    let watch: ConnectionWatch
    /// A logger that keeps PostgresNIO quiet: failures reach the user as `StoreError`s.
    static let logger: Logger = {
        var logger = Logger(label: "remix.store")
        logger.logLevel = .critical
        return logger
    }()

    /// The time `connect` allows when the URL and `PGCONNECT_TIMEOUT` say nothing.
    package static let defaultTimeout: Duration = .seconds(5)

    private init(url: StoreURL, connection: PostgresConnection) {
        self.url = url
        self.connection = connection
        self.watch = ConnectionWatch(connection.closeFuture)
    }

    /// Connects to `url`, giving up after its `connectTimeout` (or `timeout`) with an error.
    package static func connect(_ url: StoreURL, timeout: Duration? = nil) async throws(StoreError) -> PostgresStore {
        let limit = timeout ?? url.connectTimeout.flatMap { $0 > 0 ? Duration.seconds($0) : nil } ?? defaultTimeout
        let configuration = try configuration(for: url, timeout: limit)
        do {
            let connection = try await withThrowingTaskGroup(of: PostgresConnection?.self) { group in
                group.addTask {
                    try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
                }
                group.addTask {
                    try await Task.sleep(for: limit)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let connection = first else {
                    throw StoreFailure.timeout(url, seconds: limit.seconds)
                }
                return connection
            }
            return PostgresStore(url: url, connection: connection)
        } catch {
            throw StoreFailure.map(error, url)
        }
    }

    /// Whether the connection is closed (by us, or because the server went away).
    package var isClosed: Bool { connection.isClosed }

    /// Closes the connection.
    package func close() async {
        try? await connection.close()
    }

    /// Runs `body` with the connection, then closes it, even when `body` throws.
    package static func with<Result: Sendable>(
        _ url: StoreURL, timeout: Duration? = nil, _ body: (PostgresStore) async throws -> Result
    ) async throws -> Result {
        let store = try await connect(url, timeout: timeout)
        do {
            let result = try await body(store)
            await store.close()
            return result
        } catch {
            await store.close()
            throw error
        }
    }

    /// Runs `query` (bind parameters only), turning server errors into `StoreError`s.
    @discardableResult
    func run(_ query: PostgresQuery) async throws(StoreError) -> PostgresRowSequence {
        do {
            return try await connection.query(query, logger: Self.logger)
        } catch {
            throw StoreFailure.map(error, url)
        }
    }

    /// Runs `query` and collects every row, decoded as `T`.
    func rows<T: PostgresDecodable & Sendable>(_ query: PostgresQuery, as: T.Type) async throws(StoreError) -> [T] {
        do {
            var result: [T] = []
            for try await value in try await connection.query(query, logger: Self.logger).decode(T.self) {
                result.append(value)
            }
            return result
        } catch {
            throw StoreFailure.map(error, url)
        }
    }

    /// The connection settings for `url`: host or socket, credentials, TLS as its sslmode asks.
    static func configuration(for url: StoreURL, timeout: Duration) throws(StoreError) -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if let socket = url.unixSocketPath {
            configuration = .init(unixSocketPath: socket, username: url.user, password: url.password, database: url.database)
        } else {
            configuration = .init(host: url.host, port: url.port, username: url.user, password: url.password,
                                  database: url.database, tls: try tls(for: url))
        }
        configuration.options.connectTimeout = .nanoseconds(Int64(timeout.seconds * 1_000_000_000))
        configuration.options.additionalStartupParameters = url.settings.map { ($0.name, $0.value) }
        return configuration
    }

    private static func tls(for url: StoreURL) throws(StoreError) -> PostgresConnection.Configuration.TLS {
        var settings = TLSConfiguration.makeClientConfiguration()
        if url.sslMode != .verifyFull { settings.certificateVerification = .none }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: settings)
        } catch {
            throw StoreError(.tls, "cannot set up TLS for \(url.endpoint): \(error)")
        }
        switch url.sslMode {
        case .disable: return .disable
        case .prefer: return .prefer(context)
        case .require, .verifyFull: return .require(context)
        }
    }
}
