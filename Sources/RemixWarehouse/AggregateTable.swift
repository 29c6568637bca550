import Foundation
import RemixAnalysis

/// The result of a warehouse's aggregate query (``WarehouseQuery``) as rows of one long table:
/// `section, experiment, variation, question, part, rank, n, value`. `section` says what a row
/// is; `question` names the metric part or event it answers (``UnitValueQuery/key``, an event
/// type, a screen name); `n` holds counts and integers, `value` exact sums and order statistics
/// as decimal text (read as the nearest double, so a sum is rounded once).
package struct AggregateTable: Sendable {
    /// One row of the result.
    package struct Row: Sendable, Equatable {
        package var section: String
        package var experiment: String
        package var variation: String
        package var question: String
        package var part: String
        package var rank: Int?
        package var n: Int?
        package var value: String?
        /// Where the row is (its file and line) for error messages.
        package var line: Int

        package init(section: String, experiment: String = "", variation: String = "", question: String = "",
                     part: String = "", rank: Int? = nil, n: Int? = nil, value: String? = nil, line: Int = 0) {
            (self.section, self.experiment, self.variation, self.question) = (section, experiment, variation, question)
            (self.part, self.rank, self.n, self.value, self.line) = (part, rank, n, value, line)
        }
    }

    /// The result's columns, in order (the CSV's header).
    package static let columns = ["section", "experiment", "variation", "question", "part", "rank", "n", "value"]

    /// How the report names the source.
    package var name: String
    package var rows: [Row]

    package init(name: String, rows: [Row]) {
        self.name = name
        self.rows = rows
    }

    /// The rows of a CSV file with a header row naming ``columns`` (in any order; quoted fields
    /// with `""` for a quote, as DuckDB, PostgreSQL and Spark write them).
    package init(csv text: String, name: String) throws(AnalysisError) {
        self.name = name
        let records = CSVRecords.parse(text)
        guard let header = records.first?.fields else {
            throw .cannotRead(path: name, reason: "it is empty; it should be the CSV of the query 'remix analyze --sql' prints")
        }
        var index: [String: Int] = [:]
        for (position, column) in header.enumerated() { index[column.lowercased()] = position }
        let missing = Self.columns.filter { index[$0] == nil }
        guard missing.isEmpty else {
            throw .cannotRead(path: "\(name):1", reason: "the header has no column \(missing.joined(separator: ", ")); "
                              + "it should be the CSV (with a header row) of the query 'remix analyze --sql' prints")
        }
        rows = []
        for record in records.dropFirst() where record.fields != [""] {
            func field(_ column: String) -> String {
                let position = index[column] ?? 0
                return position < record.fields.count ? record.fields[position] : ""
            }
            func integer(_ column: String) throws(AnalysisError) -> Int? {
                let text = field(column)
                if text.isEmpty { return nil }
                guard let value = Int(text) ?? Double(text).flatMap({ $0 == $0.rounded() && abs($0) < 9e18 ? Int($0) : nil }) else {
                    throw .cannotRead(path: "\(name):\(record.line)", reason: "\(column) is '\(text)', not a whole number")
                }
                return value
            }
            let value = field("value")
            rows.append(Row(section: field("section"), experiment: field("experiment"), variation: field("variation"),
                            question: field("question"), part: field("part"), rank: try integer("rank"), n: try integer("n"),
                            value: value.isEmpty ? nil : value, line: record.line))
        }
    }
}

/// Records of CSV text: fields split at commas, quoted fields with `""` for a quote and line
/// breaks kept; each with the line it starts on.
enum CSVRecords {
    struct Record {
        var fields: [String]
        var line: Int
    }

    static func parse(_ text: String) -> [Record] {
        var records: [Record] = []
        var fields: [String] = [], field: [UInt8] = [], quoted = false, wasQuoted = false
        var line = 1, start = 1
        var bytes = Array(text.utf8)
        if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
        var index = 0
        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            wasQuoted = false
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\"") where field.isEmpty && !wasQuoted:
                quoted = true
                wasQuoted = true
            case UInt8(ascii: ","):
                endField()
            case UInt8(ascii: "\r"):
                break
            case UInt8(ascii: "\n"):
                endField()
                records.append(Record(fields: fields, line: start))
                fields.removeAll()
                line += 1
                start = line
            default:
                field.append(byte)
            }
        }
        return records
    }
}
