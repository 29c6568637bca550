import RemixAnalysis
import RemixFormats

/// What a warehouse result (``AggregateTable``) must hold to be the result of the query
/// `remix analyze --sql` prints, checked before a report is built from it: each aggregate once
/// (a row's section, experiment, variation, question, part and rank name it), counts that are
/// not negative, and no count of units above the units of its variation — a result edited or
/// put together by hand would otherwise give a report of impossible figures.
enum AggregateTableCheck {
    /// Rows counting units of one variation: the section and the part (nil: any part).
    private static let countsOfUnits: [(section: String, part: String?)] = [
        ("conversions", nil), ("screen", nil), ("sums", "conversions"), ("sums", "kx"), ("sums", "ky"), ("sums", "kxy"),
        ("durations", "count"), ("unit_values", "count"), ("clusters", "units"),
    ]

    /// Throws the error naming the first row (by line) that breaks a rule.
    static func check(_ table: AggregateTable) throws(AnalysisError) {
        var seen: [RowKey: Int] = [:]
        var units: [String: [String: Int]] = [:]
        for row in table.rows {
            let key = RowKey(row)
            if let first = seen[key] {
                throw problem(table, row, "a second row for \(describe(row)) (the first is line \(first)); the query gives "
                              + "each aggregate once — write the result again with the query 'remix analyze --sql' prints")
            }
            seen[key] = row.line
            if let rank = row.rank, rank < 0 { throw problem(table, row, "rank is \(rank) in \(describe(row)); a rank is 0 or more") }
            if let n = row.n, n < 0, isCount(row) {
                throw problem(table, row, "n is \(n) in \(describe(row)); a count is 0 or more")
            }
            if row.section == "units", row.part.isEmpty, !row.variation.isEmpty {
                units[row.experiment, default: [:]][row.variation] = row.n ?? 0
            }
        }
        for row in table.rows where !row.variation.isEmpty && countsUnits(row) {
            let limit = units[row.experiment]?[row.variation] ?? 0
            if let n = row.n, n > limit {
                throw problem(table, row, "\(describe(row)) counts \(n) units, but the variation has \(limit) (section units); "
                              + "no count of units exceeds its variation's units — the file is not the query's result as written")
            }
        }
    }

    /// Whether `row`'s `n` is a count (not a variation id, nor a time in milliseconds).
    private static func isCount(_ row: AggregateTable.Row) -> Bool {
        switch row.section {
        case "variation": false
        case "units": row.part != "first" && row.part != "last"
        case "cut": row.part == "count"
        default: true
        }
    }

    /// Whether `row`'s `n` counts units of its variation.
    private static func countsUnits(_ row: AggregateTable.Row) -> Bool {
        countsOfUnits.contains { $0.section == row.section && ($0.part == nil || $0.part == row.part) }
    }

    /// The row's section and names, for a message (scopes' separators and other controls escaped).
    private static func describe(_ row: AggregateTable.Row) -> String {
        var parts = ["section \(row.section)"]
        for (name, value) in [("experiment", row.experiment), ("variation", row.variation), ("question", row.question), ("part", row.part)]
        where !value.isEmpty {
            parts.append("\(name) \(JSONText.printableQuoted(value))")
        }
        if let rank = row.rank { parts.append("rank \(rank)") }
        return parts.joined(separator: ", ")
    }

    private static func problem(_ table: AggregateTable, _ row: AggregateTable.Row, _ reason: String) -> AnalysisError {
        .cannotRead(path: "\(table.name):\(row.line)", reason: reason)
    }

    /// What names an aggregate: every column but `n` and `value` — and `n` of a cut's time, the
    /// one row kind of which there are several (one per cut).
    private struct RowKey: Hashable {
        let section, experiment, variation, question, part: String
        let rank, cut: Int?

        init(_ row: AggregateTable.Row) {
            (section, experiment, variation, question, part, rank) = (row.section, row.experiment, row.variation, row.question,
                                                                     row.part, row.rank)
            cut = row.section == "cut" && row.part == "at" ? row.n : nil
        }
    }
}
