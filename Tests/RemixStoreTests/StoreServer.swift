import Foundation
import PostgresNIO
import RemixTestSupport
import Testing
@testable import RemixStore

/// The PostgreSQL server the database tests use: `REMIX_TEST_POSTGRES_URL`, as `.ci/with-postgres`
/// sets it. Without it the database suites are skipped; under `CI=true`, where they must run, one
/// test (``StoreServerPresenceTests``) fails instead, saying what is missing and how to give it —
/// once, not once per database test.
enum StoreServer {
    static let environment = ProcessInfo.processInfo.environment

    /// What an environment gives the database tests.
    enum Availability: Equatable {
        /// A server's URL: the database suites run.
        case given(String)
        /// No server, and none required: the database suites skip.
        case absent
        /// No server under `CI=true`: the database suites skip, and the presence test fails.
        case missingUnderCI

        init(_ environment: [String: String]) {
            if let url = environment["REMIX_TEST_POSTGRES_URL"], !url.isEmpty {
                self = .given(url)
            } else {
                self = RequiredUnderCI.holds(in: environment) ? .missingUnderCI : .absent
            }
        }

        /// Whether the database suites run.
        var runsDatabaseTests: Bool {
            if case .given = self { return true }
            return false
        }
    }

    static var availability: Availability { Availability(environment) }
    static var given: String? {
        if case .given(let url) = availability { return url }
        return nil
    }

    /// Whether the database tests run: only with a server.
    static var shouldRun: Bool { availability.runsDatabaseTests }

    static let skipReason: Comment = """
        no PostgreSQL for the store tests: run them inside .ci/with-postgres (e.g. .ci/with-postgres swift test \
        --filter RemixStoreTests), or set REMIX_TEST_POSTGRES_URL
        """

    /// What the presence test says under `CI=true` without a server.
    static let missingUnderCI = """
        CI=true but REMIX_TEST_POSTGRES_URL is not set, so the event-store tests (RemixStoreTests) cannot run: run the \
        tests inside a throwaway PostgreSQL with `.ci/with-postgres swift test` (as .ci/run does), or set \
        REMIX_TEST_POSTGRES_URL=postgresql://USER:PASSWORD@HOST:PORT/DATABASE for a server of your own
        """

    struct Missing: Error, CustomStringConvertible {
        var description: String { StoreServer.missingUnderCI }
    }

    /// The server's URL as given; throws when there is none.
    static func urlText() throws -> String {
        guard let given else { throw Missing() }
        return given
    }

    /// The server's URL; throws when there is none.
    static func url() throws -> StoreURL {
        try StoreURL(parsing: try urlText(), environment: [:])
    }

    /// Runs `body` connected to the server in a fresh PostgreSQL schema of its own (first on the
    /// search path), dropped afterwards, so tests running at once never see each other's tables
    /// (nor wait for each other's schema lock, which is the schema's own).
    static func withScratchSchema(_ body: (PostgresStore) async throws -> Void) async throws {
        let store = try await PostgresStore.connect(try url())
        try await inSchema(scratchName("remix_test_"), on: store) { name in
            try await store.run(PostgresQuery(unsafeSQL: "SET search_path TO \(name)"))
            try await body(store)
        }
    }

    /// Runs `body` with the URL of a fresh PostgreSQL schema of its own (first on the search path of
    /// every connection made from it, as the two connections of one analysis need), and its text as
    /// a user gives it; the schema is dropped afterwards.
    static func withScratchURL(_ body: (StoreURL, String) async throws -> Void) async throws {
        let name = scratchName("remix_url_")
        let text = try urlText(inSchema: name)
        let url = try StoreURL(parsing: text)
        try await inSchema(name, on: try await PostgresStore.connect(try self.url())) { _ in try await body(url, text) }
    }

    /// Creates schema `name` on `store`, runs `body`, then drops the schema and closes `store`,
    /// whether or not `body` throws.
    private static func inSchema(_ name: String, on store: PostgresStore, _ body: (String) async throws -> Void) async throws {
        do {
            try await store.run(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(name)"))
            try await body(name)
        } catch {
            _ = try? await store.run(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(name) CASCADE"))
            await store.close()
            throw error
        }
        try await store.run(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(name) CASCADE"))
        await store.close()
    }

    /// A name for a scratch schema no other test uses: `prefix` and 32 hex digits.
    static func scratchName(_ prefix: String) -> String {
        prefix + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// The server's URL with `schema` first on the search path (`options=-c search_path=…`), so
    /// that every connection made from it — a `remix` process's, a reconnecting writer's — works
    /// in that schema.
    static func urlText(inSchema schema: String) throws -> String {
        let given = try urlText()
        return given + (given.contains("?") ? "&" : "?") + "options=-c%20search_path%3D\(schema)"
    }

    /// Expects `operation` to fail with a `StoreError` of `kind`, and returns it. (Hangs are the
    /// product's own time limits' to catch, which show in its messages; speed is not asserted in
    /// tests, which share a loaded machine.)
    static func expectFailure(
        _ kind: StoreError.Kind, sourceLocation: SourceLocation = #_sourceLocation, _ operation: () async throws -> Void
    ) async -> StoreError? {
        let caught: Result<Void, any Error>
        do {
            try await operation()
            caught = .success(())
        } catch {
            caught = .failure(error)
        }
        switch caught {
        case .success:
            Issue.record("expected a \(kind) error, and it succeeded", sourceLocation: sourceLocation)
            return nil
        case .failure(let error as StoreError):
            #expect(error.kind == kind, "\(error.message)", sourceLocation: sourceLocation)
            return error
        case .failure(let error):
            Issue.record("expected a StoreError, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }
}

/// A loopback TCP socket that is bound and maybe listening, never accepting or answering: a port
/// that refuses connections (not listening) or one that never speaks (listening).
final class SilentSocket {
    let descriptor: Int32
    let port: Int

    init(listening: Bool) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
            }
        }
        guard bound, !listening || listen(fd, 4) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
