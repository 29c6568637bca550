import Foundation

/// What a store URL itself says; nil where it says nothing.
struct URLParts {
    var user: String?
    var password: String?
    var host: String?
    var port: Int?
    var database: String?
    var sslMode: StoreURL.SSLMode?
    var connectTimeout: Int?
    var settings: [(name: String, value: String)]?

    /// The query parameters a store URL may carry.
    static let parameters = ["sslmode", "host", "port", "user", "password", "dbname", "connect_timeout", "options"]

    /// Reads `postgresql://[user[:password]@][host][:port][/database][?name=value&…]`.
    init(_ text: String) throws(StoreError) {
        let shown = StoreURL.redact(text)
        func bad(_ reason: String) -> StoreError { StoreError(.badURL, "bad store URL \(shown): \(reason)") }
        guard StoreURL.isStoreURL(text), let schemeEnd = text.range(of: "://") else {
            throw bad("it must start with postgresql:// or postgres://")
        }
        var rest = text[schemeEnd.upperBound...]
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var authority = rest
        if let slash = rest.firstIndex(of: "/") {
            authority = rest[..<slash]
            database = try Self.decode(rest[rest.index(after: slash)...], "database", bad)
        }
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            authority = authority[authority.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                user = try Self.decode(userInfo[..<colon], "user", bad)
                password = try Self.decode(userInfo[userInfo.index(after: colon)...], "password", bad)
            } else {
                user = try Self.decode(userInfo, "user", bad)
            }
        }
        guard !authority.contains(",") else { throw bad("several hosts are not supported; give one") }
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw bad("an IPv6 address in [ ] is not closed") }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            guard let host, StoreURL.isIPv6Literal(host) else { throw bad("[\(host ?? "")] is not an IPv6 address") }
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw bad("unexpected text after the IPv6 address: \(after)") }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = try Self.decode(authority[..<colon], "host", bad)
            portText = authority[authority.index(after: colon)...]
        } else {
            host = try Self.decode(authority, "host", bad)
        }
        if let portText, !portText.isEmpty {
            guard let port = StoreURL.port(String(portText)) else { throw bad("port \(portText) is not a number in 1-65535") }
            self.port = port
        }
        for pair in query.split(separator: "&") {
            let name = String(pair.prefix { $0 != "=" })
            guard pair.count > name.count else { throw bad("parameter \(name) has no value (name=value)") }
            let value = try Self.decode(pair.dropFirst(name.count + 1), name, bad) ?? ""
            try set(name, value, bad)
        }
    }

    private mutating func set(_ name: String, _ value: String, _ bad: (String) -> StoreError) throws(StoreError) {
        switch name {
        case "sslmode":
            guard let mode = StoreURL.SSLMode(rawValue: value) else {
                throw bad(StoreURL.badSSLMode(value, "sslmode"))
            }
            sslMode = mode
        case "host": host = value.isEmpty ? nil : value
        case "port":
            guard let port = StoreURL.port(value) else { throw bad("port \(value) is not a number in 1-65535") }
            self.port = port
        case "user": user = value.isEmpty ? nil : value
        case "password": password = value
        case "dbname": database = value.isEmpty ? nil : value
        case "connect_timeout":
            guard let seconds = Int(value), seconds >= 0 else { throw bad("connect_timeout=\(value) is not a number of seconds") }
            connectTimeout = seconds
        case "options":
            guard let settings = Self.settings(value) else {
                throw bad("options=\(value) is not a list of -c name=value settings (e.g. options=-c%20search_path%3Dremix)")
            }
            self.settings = settings
        default:
            throw bad("unknown parameter \(name); known: \(Self.parameters.joined(separator: ", "))")
        }
    }

    /// Run-time settings as libpq's `options` gives them: `-c name=value`, `-cname=value` or
    /// `--name=value`, separated by spaces; nil when something else is there.
    static func settings(_ text: String) -> [(name: String, value: String)]? {
        var result: [(name: String, value: String)] = []
        var tokens = text.split(separator: " ").map(String.init)[...]
        while let token = tokens.popFirst() {
            var setting: String
            if token == "-c", let next = tokens.popFirst() {
                setting = next
            } else if token.hasPrefix("--") {
                setting = String(token.dropFirst(2))
            } else if token.hasPrefix("-c") {
                setting = String(token.dropFirst(2))
            } else {
                return nil
            }
            setting = setting.replacingOccurrences(of: "-", with: "_")
            guard let equals = setting.firstIndex(of: "="), equals != setting.startIndex,
                  setting[..<equals].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) else { return nil }
            result.append((String(setting[..<equals]), String(setting[setting.index(after: equals)...])))
        }
        return result
    }

    /// Percent-decodes a part; an empty part is nil (as libpq treats it: not given). A NUL is
    /// refused here: the server would cut a name or password at it, or reject it.
    private static func decode(_ text: Substring, _ part: String, _ bad: (String) -> StoreError) throws(StoreError) -> String? {
        guard !text.isEmpty else { return nil }
        guard let decoded = String(text).removingPercentEncoding else { throw bad("the \(part) has a bad %-escape") }
        guard !decoded.utf8.contains(0) else {
            throw bad("the \(part) contains %00 (a NUL character), which PostgreSQL does not accept in a name, password "
                      + "or setting; remove it")
        }
        return decoded
    }
}

/// libpq's password file: lines `host:port:database:user:password`, `*` matching anything, `\:` and
/// `\\` escaping; `#` starts a comment. Like libpq, a file that others may read is ignored.
enum PasswordFile {
    static func lookup(path: String, host: String, port: Int, database: String, user: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let permissions = attributes[.posixPermissions] as? Int, permissions & 0o077 == 0,
              let text = try? String(contentsOfFile: path, encoding: .utf8)
        else { return nil }
        let hosts = host.hasPrefix("/") ? [host, "localhost"] : [host]
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = split(line)
            guard fields.count == 5 else { continue }
            func matches(_ field: String, _ values: [String]) -> Bool { field == "*" || values.contains(field) }
            if matches(fields[0], hosts), matches(fields[1], [String(port)]), matches(fields[2], [database]),
               matches(fields[3], [user]) {
                return fields[4]
            }
        }
        return nil
    }

    /// Splits a line at unescaped colons, undoing the escapes; the fifth field takes the rest.
    private static func split(_ line: Substring) -> [String] {
        var fields: [String] = [], current = "", escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" && fields.count < 4 {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }
}
