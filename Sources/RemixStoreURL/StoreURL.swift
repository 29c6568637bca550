import Foundation

/// Where an event store is: a `postgresql://` (or `postgres://`) URL, with the pieces it leaves out
/// filled from `PGUSER`, `PGPASSWORD`, `PGHOST`, `PGPORT`, `PGDATABASE`, `PGSSLMODE`,
/// `PGCONNECT_TIMEOUT` and the password file (`PGPASSFILE` or `~/.pgpass`), as libpq does.
/// Its `description` is `redacted`: it never shows the password.
package struct StoreURL: Sendable, Equatable, CustomStringConvertible {
    /// A run-time setting of the session.
    package struct Setting: Sendable, Equatable {
        package var name: String
        package var value: String
    }


    /// How TLS is used, by libpq's names.
    package enum SSLMode: String, Sendable, CaseIterable {
        /// Plain TCP.
        case disable
        /// TLS when the server offers it, without checking its certificate; plain TCP otherwise.
        case prefer
        /// TLS or no connection; the certificate is not checked (as libpq's `require`).
        case require
        /// TLS with the certificate checked against the system's roots and the host name.
        case verifyFull = "verify-full"
    }

    /// The role to connect as.
    package var user: String
    /// The password, if any; never printed.
    package var password: String?
    /// A host name or address, or a folder holding the server's Unix socket (starts with `/`).
    package var host: String
    /// The TCP port (also names the Unix socket file).
    package var port: Int
    /// The database.
    package var database: String
    /// How TLS is used.
    package var sslMode: SSLMode
    /// Seconds to wait for a connection, if the URL or `PGCONNECT_TIMEOUT` says.
    package var connectTimeout: Int?
    /// Run-time settings for the session (`options=-c name=value` or `PGOPTIONS`), e.g. a
    /// `search_path` that puts the store's tables in a schema of their own.
    package var settings: [Setting] = []

    /// Makes a URL from its parts.
    package init(user: String, password: String?, host: String, port: Int, database: String, sslMode: SSLMode,
                connectTimeout: Int? = nil) {
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.database = database
        self.sslMode = sslMode
        self.connectTimeout = connectTimeout
    }

    /// Whether `text` is a store URL rather than a file path.
    package static func isStoreURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgresql://") || lower.hasPrefix("postgres://")
    }

    /// Whether `host` names a Unix socket folder.
    package var isUnixSocket: Bool { host.hasPrefix("/") }

    /// The Unix socket file when `host` is a folder.
    package var unixSocketPath: String? { isUnixSocket ? "\(host)/.s.PGSQL.\(port)" : nil }

    /// Host and port as messages show them: `db.example.com:5432`, `[::1]:5432`, or the socket file.
    package var endpoint: String {
        if let unixSocketPath { return unixSocketPath }
        return Self.isIPv6Literal(host) ? "[\(host)]:\(port)" : "\(Self.encode(host)):\(port)"
    }

    /// Whether `host` is an IPv6 literal: hex digits, colons and dots with at least one colon,
    /// then maybe a `%zone` of letters, digits, `-`, `_` and `.`.
    static func isIPv6Literal(_ host: some StringProtocol) -> Bool {
        let address = host.prefix { $0 != "%" }
        let zone = host.dropFirst(address.count).dropFirst()
        return address.contains(":") && address.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
            && zone.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || "-_.".contains($0) }
    }

    /// The URL without the password: `postgresql://user@host:port/database?sslmode=mode`.
    package var redacted: String {
        let hostPart = Self.isIPv6Literal(host) ? "[\(host)]" : Self.encode(host)
        let options = settings.map { "-c \($0.name)=\($0.value)" }.joined(separator: " ")
        return "postgresql://\(Self.encode(user))@\(hostPart):\(port)/\(Self.encode(database))?sslmode=\(sslMode.rawValue)"
            + (options.isEmpty ? "" : "&options=" + Self.encode(options))
    }

    package var description: String { redacted }

    /// Reads `text`, filling what it leaves out from `environment` and the password file
    /// (`home` is where `~/.pgpass` is looked for; nil: `HOME`).
    package init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment,
                home: String? = nil) throws(StoreError) {
        let parts = try URLParts(text)
        let env = { (name: String) -> String? in environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        user = parts.user ?? env("PGUSER") ?? Self.systemUser ?? "postgres"
        host = parts.host ?? env("PGHOST") ?? "localhost"
        if let port = parts.port {
            self.port = port
        } else if let given = env("PGPORT") {
            guard let port = Self.port(given) else { throw StoreError(.badURL, "PGPORT=\(given) is not a port (1-65535)") }
            self.port = port
        } else {
            port = 5432
        }
        database = parts.database ?? env("PGDATABASE") ?? user
        if let mode = parts.sslMode {
            sslMode = mode
        } else if let given = env("PGSSLMODE") {
            guard let mode = SSLMode(rawValue: given) else { throw StoreError(.badURL, Self.badSSLMode(given, "PGSSLMODE")) }
            sslMode = mode
        } else {
            sslMode = .prefer
        }
        if let timeout = parts.connectTimeout {
            connectTimeout = timeout
        } else if let given = env("PGCONNECT_TIMEOUT") {
            guard let seconds = Int(given), seconds >= 0 else {
                throw StoreError(.badURL, "PGCONNECT_TIMEOUT=\(given) is not a number of seconds")
            }
            connectTimeout = seconds
        }
        if let settings = parts.settings {
            self.settings = settings.map { Setting(name: $0.name, value: $0.value) }
        } else if let given = env("PGOPTIONS") {
            guard let settings = URLParts.settings(given) else {
                throw StoreError(.badURL, "PGOPTIONS=\(given) is not a list of -c name=value settings")
            }
            self.settings = settings.map { Setting(name: $0.name, value: $0.value) }
        }
        password = parts.password ?? env("PGPASSWORD")
        if password == nil {
            let file = env("PGPASSFILE") ?? ((home ?? env("HOME")).map { $0 + "/.pgpass" })
            password = file.flatMap { PasswordFile.lookup(path: $0, host: host, port: port, database: database, user: user) }
        }
    }

    /// `text` with any password in it replaced by `***`, for messages about text that is not a valid URL.
    package static func redact(_ text: String) -> String {
        var result = text
        if let scheme = result.range(of: "://") {
            let authorityEnd = result[scheme.upperBound...].firstIndex { $0 == "/" || $0 == "?" } ?? result.endIndex
            if let at = result[scheme.upperBound..<authorityEnd].lastIndex(of: "@"),
               let colon = result[scheme.upperBound..<at].firstIndex(of: ":") {
                result.replaceSubrange(result.index(after: colon)..<at, with: "***")
            }
        }
        if let query = result.firstIndex(of: "?") {
            let pairs = result[result.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false)
            let cleaned = pairs.map { $0.lowercased().hasPrefix("password=") ? "password=***" : String($0) }
            result = String(result[...query]) + cleaned.joined(separator: "&")
        }
        return result
    }

    static func port(_ text: String) -> Int? {
        guard let port = Int(text), (1...65535).contains(port) else { return nil }
        return port
    }

    static func badSSLMode(_ given: String, _ source: String) -> String {
        "\(source)=\(given) is not a supported sslmode; use one of "
            + SSLMode.allCases.map(\.rawValue).joined(separator: ", ")
    }

    /// The name of the user running this process, as libpq's default role.
    private static var systemUser: String? {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }

    /// Percent-encodes what a URL's user, host or path part cannot hold as-is.
    static func encode(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
