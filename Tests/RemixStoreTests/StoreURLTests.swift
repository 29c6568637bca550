import Foundation
import RemixTestSupport
import Testing
@testable import RemixStore
@testable import RemixStoreURL

/// Store URLs: parsing, libpq's PG* variables and password file, redaction. No server needed.
@Suite struct StoreURLTests {
    /// No PG* variables and a HOME without a password file, so the machine's own settings never leak in.
    static let bare: [String: String] = ["HOME": "/nonexistent"]

    @Test func readsEveryPart() throws {
        let url = try StoreURL(parsing: "postgresql://ann:s3cret@db.example.com:6543/events?sslmode=require",
                               environment: Self.bare)
        #expect(url.user == "ann")
        #expect(url.password == "s3cret")
        #expect(url.host == "db.example.com")
        #expect(url.port == 6543)
        #expect(url.database == "events")
        #expect(url.sslMode == .require)
        #expect(url.endpoint == "db.example.com:6543")
    }

    @Test func optionsSetRunTimeSettingsAsLibpqDoes() throws {
        let url = try StoreURL(parsing: "postgresql://u@db/x?options=-c%20search_path%3Dteam_a%20-cstatement-timeout%3D0",
                               environment: Self.bare)
        #expect(url.settings == [.init(name: "search_path", value: "team_a"), .init(name: "statement_timeout", value: "0")])
        #expect(url.redacted.hasSuffix("?sslmode=prefer&options=-c%20search_path%3Dteam_a%20-c%20statement_timeout%3D0"))
        #expect(try StoreURL(parsing: url.redacted, environment: Self.bare).settings == url.settings)
        let environment = try StoreURL(parsing: "postgresql://u@db/x", environment: Self.bare.merging(["PGOPTIONS": "--search_path=b"]) { $1 })
        #expect(environment.settings == [.init(name: "search_path", value: "b")])
    }

    @Test func postgresSchemeEscapesIPv6AndSockets() throws {
        let short = try StoreURL(parsing: "postgres://bob%40corp:p%3Aw%2Fd@[::1]/my%20db", environment: Self.bare)
        #expect(short.user == "bob@corp")
        #expect(short.password == "p:w/d")
        #expect(short.host == "::1")
        #expect(short.port == 5432)
        #expect(short.database == "my db")
        #expect(short.endpoint == "[::1]:5432")
        let zoned = try StoreURL(parsing: "postgresql://u@[fe80::1%eth0]:6543/d", environment: Self.bare)
        #expect(zoned.host == "fe80::1%eth0" && zoned.port == 6543)
        let socket = try StoreURL(parsing: "postgresql://%2Fvar%2Frun%2Fpostgresql:5433/remix", environment: Self.bare)
        #expect(socket.unixSocketPath == "/var/run/postgresql/.s.PGSQL.5433")
        let query = try StoreURL(parsing: "postgresql:///remix?host=/tmp&port=7000&user=u&connect_timeout=3",
                                 environment: Self.bare)
        #expect(query.unixSocketPath == "/tmp/.s.PGSQL.7000")
        #expect(query.user == "u")
        #expect(query.connectTimeout == 3)
    }

    @Test func fillsFromTheEnvironmentAsLibpqDoes() throws {
        let environment = ["PGUSER": "envuser", "PGPASSWORD": "envpass", "PGHOST": "envhost", "PGPORT": "7777",
                           "PGDATABASE": "envdb", "PGSSLMODE": "disable", "HOME": "/nonexistent"]
        let filled = try StoreURL(parsing: "postgresql://", environment: environment)
        #expect(filled == StoreURL(user: "envuser", password: "envpass", host: "envhost", port: 7777, database: "envdb",
                                   sslMode: .disable, connectTimeout: nil))
        let given = try StoreURL(parsing: "postgresql://u:p@h:1/d?sslmode=verify-full", environment: environment)
        #expect(given == StoreURL(user: "u", password: "p", host: "h", port: 1, database: "d", sslMode: .verifyFull,
                                  connectTimeout: nil))
        let defaults = try StoreURL(parsing: "postgresql://someone@", environment: Self.bare)
        #expect(defaults.host == "localhost" && defaults.port == 5432 && defaults.database == "someone")
        #expect(defaults.sslMode == .prefer && defaults.password == nil)
    }

    @Test func passwordFileMatchesLikeLibpq() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(".pgpass", """
            # comment
            other:5432:*:ann:wrong
            db.example.com:5432:events:ann:first\\:match
            *:*:*:ann:fallback
            localhost:5432:*:*:socket
            """)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        let home = try StoreURL(parsing: "postgresql://ann@db.example.com/events", environment: Self.bare,
                                home: folder.location)
        #expect(home.password == "first:match")
        let viaVariable = try StoreURL(parsing: "postgresql://ann@elsewhere/x", environment: ["PGPASSFILE": file])
        #expect(viaVariable.password == "fallback")
        let socket = try StoreURL(parsing: "postgresql://bo@%2Ftmp/x", environment: ["PGPASSFILE": file])
        #expect(socket.password == "socket")
        let explicit = try StoreURL(parsing: "postgresql://ann:given@db.example.com/events", environment: ["PGPASSFILE": file])
        #expect(explicit.password == "given")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let readable = try StoreURL(parsing: "postgresql://ann@db.example.com/events", environment: ["PGPASSFILE": file])
        #expect(readable.password == nil, "a password file others may read is ignored, as libpq does")
    }

    @Test func redactionNeverShowsThePassword() throws {
        let url = try StoreURL(parsing: "postgresql://ann:hunter2@db:5432/events?sslmode=require", environment: Self.bare)
        #expect(url.redacted == "postgresql://ann@db:5432/events?sslmode=require")
        #expect(!"\(url)".contains("hunter2"))
        #expect(StoreURL.redact("postgres://ann:hunter2@db/x?password=hunter2&sslmode=bad")
                == "postgres://ann:***@db/x?password=***&sslmode=bad")
        for bad in ["postgresql://ann:hunter2@db:99999/x", "postgresql://ann:hunter2@db/x?password=hunter2&colour=red",
                    "postgresql://ann:hunter2@db/x?sslmode=allow", "postgresql://ann:hunter2%00@db/x"] {
            let error = #expect(throws: StoreError.self) { try StoreURL(parsing: bad, environment: Self.bare) }
            #expect(error?.kind == .badURL)
            #expect(error.map { !$0.message.contains("hunter2") } == true, "\(error?.message ?? "")")
        }
    }

    @Test(arguments: [
        ("mysql://db/x", "must start with postgresql://"),
        ("postgresql://db:port/x", "port port is not a number"),
        ("postgresql://db:0/x", "port 0 is not a number"),
        ("postgresql://a,b/x", "several hosts"),
        ("postgresql://[::1/x", "not closed"),
        ("postgresql://[db:p%40x]:5432/x", "is not an IPv6 address"),
        ("postgresql://[]/x", "[] is not an IPv6 address"),
        ("postgresql://[fe80::1%eth 0]/x", "is not an IPv6 address"),
        ("postgresql://db/x?colour=red", "unknown parameter colour; known: sslmode"),
        ("postgresql://db/x?sslmode", "has no value"),
        ("postgresql://db/x?sslmode=allow", "use one of disable, prefer, require, verify-full"),
        ("postgresql://db/%zz", "bad %-escape"),
        ("postgresql://db/x?options=search_path%3Dy", "is not a list of -c name=value settings"),
        ("postgresql://db/x?options=-c%20%3Dy", "is not a list of -c name=value settings"),
        // PostgreSQL takes a NUL nowhere: refused before any server sees it.
        ("postgresql://u@db/re%00mix", "the database contains %00 (a NUL character), which PostgreSQL does not accept"),
        ("postgresql://u%00x@db/remix", "the user contains %00 (a NUL character)"),
        ("postgresql://u:pw%00@db/remix", "the password contains %00 (a NUL character)"),
        ("postgresql://u@d%00b/remix", "the host contains %00 (a NUL character)"),
        ("postgresql://u@db/remix?dbname=a%00b", "the dbname contains %00 (a NUL character)"),
    ])
    func badURLsSayWhy(text: String, expected: String) {
        let error = #expect(throws: StoreError.self) { try StoreURL(parsing: text, environment: Self.bare) }
        #expect(error?.message.contains(expected) == true, "\(error?.message ?? "no error")")
        #expect(error?.message.hasPrefix("bad store URL ") == true)
    }

    @Test func badEnvironmentValuesSayWhich() {
        for (name, value) in [("PGPORT", "x"), ("PGSSLMODE", "sometimes"), ("PGCONNECT_TIMEOUT", "soon")] {
            let error = #expect(throws: StoreError.self) {
                try StoreURL(parsing: "postgresql://db/x", environment: [name: value])
            }
            #expect(error?.message.hasPrefix("\(name)=\(value) ") == true, "\(error?.message ?? "")")
        }
    }

    @Test func tellsURLsFromPaths() {
        #expect(StoreURL.isStoreURL("postgresql://db/x"))
        #expect(StoreURL.isStoreURL("POSTGRES://db/x"))
        #expect(!StoreURL.isStoreURL("events.jsonl"))
        #expect(!StoreURL.isStoreURL("./postgresql:/x"))
    }
}
