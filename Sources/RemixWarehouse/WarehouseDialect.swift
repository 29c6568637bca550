import RemixAnalysis

/// The SQL dialects `remix analyze --sql` writes its aggregate query in, and how each reads the
/// flat events table (docs/scale.md "Analysis in the warehouse"): one row per log line, the log's
/// fields as columns — as DuckDB's `read_json` and Spark's `read.json` make them; for PostgreSQL a
/// table or view with one `jsonb` column `line` holding each line.
package enum WarehouseDialect: String, CaseIterable, Sendable {
    case postgresql, duckdb, spark

    /// A quoted identifier (a name is always data, never SQL).
    func identifier(_ name: String) -> String {
        switch self {
        case .spark: "`" + name.replacingOccurrences(of: "`", with: "``") + "`"
        case .duckdb, .postgresql: "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
    }

    /// The events table `name` — a table or view, optionally after its schema (and catalog):
    /// `events`, `analytics.events` — quoted part by part for the query; nil unless each part is a
    /// plain identifier (a letter or `_`, then letters, digits and `_`), so that the name is only
    /// ever a name. PostgreSQL reads an unquoted name in lower case, so its parts are lowered
    /// first (the quoted name is the table the plain name meant there); DuckDB and Spark match
    /// names regardless of case.
    package func table(_ name: String) -> String? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.allSatisfy(Self.isPlainIdentifier) else { return nil }
        return parts.map { identifier(self == .postgresql ? $0.lowercased() : String($0)) }.joined(separator: ".")
    }

    /// Whether `part` is a letter or `_`, then letters, digits and `_` (ASCII), at most 63 bytes
    /// (PostgreSQL's longest name).
    private static func isPlainIdentifier(_ part: Substring) -> Bool {
        guard let first = part.utf8.first, part.utf8.count <= 63 else { return false }
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F }
        return isLetter(first) && part.utf8.allSatisfy { isLetter($0) || (0x30...0x39).contains($0) }
    }

    /// A string literal holding `text` exactly.
    func literal(_ text: String) -> String {
        switch self {
        case .spark:
            // Spark's SQL parser reads backslash escapes in string literals.
            "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        case .duckdb, .postgresql: "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        }
    }

    /// A log field as text (NULL when the line has none).
    func text(_ field: String) -> String {
        switch self {
        case .postgresql: "(line ->> \(literal(field)))"
        case .duckdb: "CAST(\(identifier(field)) AS VARCHAR)"
        case .spark: "CAST(\(identifier(field)) AS STRING)"
        }
    }

    /// A boolean log field.
    func boolean(_ field: String) -> String {
        switch self {
        case .postgresql: "coalesce(line -> \(literal(field)) = 'true'::jsonb, false)"
        case .duckdb, .spark: "coalesce(CAST(\(identifier(field)) AS BOOLEAN), false)"
        }
    }

    /// The text of a `session_started` event's value `name` (``DimensionTally/path(of:)``: a
    /// top-level field such as `persona`, else one of its `attributes`); NULL without one.
    func attribute(_ name: String) -> String {
        let topLevel = DimensionFields.topLevel.contains(name)
        switch self {
        case .postgresql: return topLevel ? text(name) : "(line -> 'attributes' ->> \(literal(name)))"
        case .duckdb, .spark:
            let column = topLevel ? identifier(name) : identifier("attributes") + "." + identifier(name)
            return "CAST(\(column) AS \(textType))"
        }
    }

    /// `text` ordered by its bytes (PostgreSQL's collation may order otherwise), as Swift compares.
    func binary(_ text: String) -> String { self == .postgresql ? "(\(text) COLLATE \"C\")" : text }

    /// A SELECT of the integers `from`, `from` + `step`, … up to `to` (SQL over the columns of
    /// the rows `source` gives, where `to` ≥ `from`) as the column `name`.
    func series(_ from: String, _ to: String, step: Int64, as name: String, from source: String) -> String {
        switch self {
        case .postgresql: "SELECT generate_series(\(from), \(to), \(step)) AS \(name) FROM \(source)"
        case .duckdb: "SELECT unnest(generate_series(\(from), \(to), \(step))) AS \(name) FROM \(source)"
        case .spark: "SELECT explode(sequence(\(from), \(to), CAST(\(step) AS BIGINT))) AS \(name) FROM \(source)"
        }
    }

    /// An integer log field.
    func integer(_ field: String) -> String {
        switch self {
        case .postgresql: "CAST(CASE WHEN jsonb_typeof(line -> \(literal(field))) = 'number' THEN line ->> \(literal(field)) END AS numeric)"
        case .duckdb, .spark: "TRY_CAST(\(identifier(field)) AS BIGINT)"
        }
    }

    /// Whether a line's field is a number.
    func isNumber(_ field: String) -> String {
        switch self {
        case .postgresql: "jsonb_typeof(line -> \(literal(field))) = 'number'"
        case .duckdb, .spark: "TRY_CAST(\(identifier(field)) AS DOUBLE) IS NOT NULL"
        }
    }

    /// Whether a line has the field (NULL counts as absent but in PostgreSQL's `jsonb`).
    func has(_ field: String) -> String {
        switch self {
        case .postgresql: "line ? \(literal(field))"
        case .duckdb, .spark: "\(identifier(field)) IS NOT NULL"
        }
    }

    /// A numeric field as an exact decimal (NULL unless a number).
    func exact(_ field: String) -> String {
        switch self {
        case .postgresql: "CAST(CASE WHEN \(isNumber(field)) THEN line ->> \(literal(field)) END AS numeric)"
        case .duckdb, .spark: "TRY_CAST(\(identifier(field)) AS \(decimal))"
        }
    }

    /// The exact decimal type sums are taken in: PostgreSQL's `numeric` is exact; DuckDB's and
    /// Spark's decimals hold 38 digits, 6 after the point (values with more are rounded to 6).
    var decimal: String { self == .postgresql ? "numeric" : "DECIMAL(38,6)" }

    /// `expression` as an exact decimal.
    func toDecimal(_ expression: String) -> String { "CAST(\(expression) AS \(decimal))" }

    var doubleType: String { self == .postgresql ? "double precision" : "DOUBLE" }
    var textType: String { self == .spark ? "STRING" : self == .duckdb ? "VARCHAR" : "text" }

    /// The double `value` exactly (its shortest decimal text, parsed as a double).
    func double(_ value: Double) -> String { "CAST(\(literal("\(value)")) AS \(doubleType))" }

    /// A line's time `ts` (ISO 8601 text or a timestamp) in milliseconds since 1970 (UTC).
    var millis: String {
        switch self {
        case .postgresql: "CAST(floor(extract(epoch FROM CAST(line ->> 'ts' AS timestamptz)) * 1000) AS bigint)"
        case .duckdb: "epoch_ms(CAST(ts AS TIMESTAMPTZ))"
        case .spark: "unix_millis(CAST(ts AS TIMESTAMP))"
        }
    }

    /// An exact decimal as the nearest double (DuckDB's cast of a decimal may round twice; its text does not).
    func toDouble(_ expression: String) -> String {
        self == .duckdb ? "CAST(CAST(\(expression) AS VARCHAR) AS DOUBLE)" : "CAST(\(expression) AS \(doubleType))"
    }

    /// A numeric log field as the double the log's JSON number is.
    func eventDouble(_ field: String) -> String {
        switch self {
        case .postgresql: "CAST(line ->> \(literal(field)) AS double precision)"
        case .duckdb, .spark: "TRY_CAST(\(identifier(field)) AS DOUBLE)"
        }
    }

    /// A number (integer, decimal or double) as text that reads back as the same number.
    func asText(_ expression: String) -> String { "CAST(\(expression) AS \(textType))" }
}
