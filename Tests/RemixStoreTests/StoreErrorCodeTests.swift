import PostgresNIO
import Testing
@testable import RemixStore

/// Whether a failure is worth another try is decided on codes — the client library's
/// `PSQLError.Code` and the server's SQLSTATE — never on a message's wording: each code in turn.
@Suite struct StoreErrorCodeTests {
    static let url = StoreURL(user: "remix", password: "secret", host: "db.example", port: 5432, database: "remix",
                              sslMode: .disable)

    /// Codes of the moment: lost or refused connections, rolled-back transactions, a server going
    /// down or coming up, no free connection slot.
    static let transient = ["08000", "08003", "08006", "08001", "08004", "08P01", "40000", "40001", "40P01", "40003",
                            "57P01", "57P02", "57P03", "53300"]
    /// Codes that would fail the same way again.
    static let lasting = ["57014", "57P04", "57000", "53100", "53200", "42501", "42P01", "23505", "22P02", "28P01", "28000",
                          "3D000", "XX000", "0A000", "25P02"]

    @Test(arguments: transient)
    func aCodeOfTheMomentIsTransient(_ code: String) throws {
        let state = try #require(SQLState(rawValue: code))
        #expect(state.isTransient)
        #expect(StoreError(.server, "m", sqlState: state).isTransient)
    }

    @Test(arguments: lasting)
    func aLastingCodeIsNot(_ code: String) throws {
        let state = try #require(SQLState(rawValue: code))
        #expect(!state.isTransient)
        #expect(!StoreError(.server, "m", sqlState: state).isTransient)
    }

    @Test func onlyFiveLettersOrDigitsAreACode() {
        for text in ["", "5701", "57P011", "57p01", "57 01", "5701é"] { #expect(SQLState(rawValue: text) == nil, "\(text)") }
        #expect(SQLState(rawValue: "57P01") == .adminShutdown)
        #expect(SQLState.adminShutdown.errorClass == "57")
    }

    /// The message does not matter: the same words without a code, or a transient code with any
    /// words, decide nothing by themselves.
    @Test func theMessageDecidesNothing() {
        #expect(!StoreError(.server, "PostgreSQL closed the connection (SQLSTATE 57P01)").isTransient)
        #expect(StoreError(.server, "anything", sqlState: .crashShutdown).isTransient)
        #expect(StoreError(.unreachable, "").isTransient)
        #expect(StoreError(.timeout, "").isTransient)
        for kind in [StoreError.Kind.badURL, .authentication, .missingDatabase, .tls, .schema, .alreadyStored] {
            #expect(!StoreError(kind, "", sqlState: .adminShutdown).isTransient, "\(kind)")
        }
    }

    /// Every `PSQLError.Code` the client library has, and what the store makes of it.
    @Test(arguments: [
        (PSQLError.Code.serverClosedConnection, StoreError.Kind.unreachable, true),
        (.clientClosedConnection, .unreachable, true),
        (.uncleanShutdown, .unreachable, true),
        (.connectionError, .unreachable, true),
        (.sslUnsupported, .tls, false),
        (.failedToAddSSLHandler, .tls, false),
        (.receivedUnencryptedDataAfterSSLRequest, .tls, false),
        (.authMechanismRequiresPassword, .authentication, false),
        (.unsupportedAuthMechanism, .authentication, false),
        (.saslError, .authentication, false),
        (.messageDecodingFailure, .server, false),
        (.unexpectedBackendMessage, .server, false),
        (.invalidCommandTag, .server, false),
        (.queryCancelled, .server, false),
        (.tooManyParameters, .server, false),
        (.poolClosed, .server, false),
        (.listenFailed, .server, false),
        (.unlistenFailed, .server, false),
        (.server, .server, false),
    ])
    func aClientCodeHasItsKind(code: PSQLError.Code, kind: StoreError.Kind, transient: Bool) {
        let error = StoreFailure.map(code, sqlState: nil, message: nil, underlying: nil, Self.url)
        #expect(error.kind == kind, "\(code): \(error.message)")
        #expect(error.isTransient == transient, "\(code)")
        #expect(error.sqlState == nil)
    }

    /// A server's error keeps its code, and the code alone picks the kind and the advice.
    @Test(arguments: [
        ("57P01", StoreError.Kind.server, true),
        ("40001", .server, true),
        ("08006", .server, true),
        ("57014", .server, false),
        ("28P01", .authentication, false),
        ("28000", .authentication, false),
        ("3D000", .missingDatabase, false),
        ("42501", .server, false),
    ])
    func aServerCodeIsKept(code: String, kind: StoreError.Kind, transient: Bool) {
        let error = StoreFailure.map(.server, sqlState: code, message: "said in the server's language", underlying: nil, Self.url)
        #expect(error.kind == kind, "\(code): \(error.message)")
        #expect(error.sqlState?.rawValue == code)
        #expect(error.isTransient == transient, "\(code)")
    }

    @Test func aServerErrorWithoutACodeIsLasting() {
        let error = StoreFailure.map(.server, sqlState: nil, message: "no code", underlying: nil, Self.url)
        #expect(error.kind == .server && error.sqlState == nil && !error.isTransient)
        #expect(error.message == "PostgreSQL at db.example:5432: no code")
    }
}
