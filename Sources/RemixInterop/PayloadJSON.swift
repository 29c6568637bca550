import RemixFormats
import RemixKit
import Foundation
import RemixExperiments

/// Reads and writes the JSON of GrowthBook SDK payloads.
///
/// Writing is deterministic: object keys are sorted, numbers use the shortest text that reads back
/// as the same double (integers without a fraction), and arrays that hold no object stay on one
/// line, so the same experiments always give the same bytes.
package enum PayloadJSON {
    /// Why a payload could not be read.
    package struct ReadError: Error, Sendable, CustomStringConvertible {
        /// The file (or `-` for standard input).
        package let file: String
        /// What is wrong, and what to do.
        package let message: String

        package var description: String { "\(file): \(message)" }
    }

    /// Parses JSON `data` read from `file`.
    package static func parse(_ data: Data, file: String) throws(ReadError) -> AttributeValue {
        guard !data.isEmpty else {
            throw ReadError(file: file, message: "the file is empty; expected a GrowthBook SDK payload (a JSON object)")
        }
        do {
            return try JSONReader<AttributeValue>.parse(Array(data))
        } catch where !error.isSyntax {
            throw ReadError(file: file, message: error.description)
        } catch {
            throw ReadError(file: file, message: "not valid JSON (\(error.description)); expected a GrowthBook SDK "
                            + "payload such as GrowthBook's /api/features/<client key> returns")
        }
    }

    /// Reads and parses the JSON file at `path`.
    package static func read(path: String) throws(ReadError) -> AttributeValue {
        guard let data = FileManager.default.contents(atPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw ReadError(file: path, message: exists ? "cannot read the file" : "no such file")
        }
        return try parse(data, file: path)
    }

    /// The value as indented JSON, without a final newline.
    package static func render(_ value: AttributeValue) -> String {
        var out = ""
        write(value, indent: "", into: &out)
        return out
    }

    /// The value as JSON on one line.
    package static func compact(_ value: AttributeValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return self.number(number)
        case .string(let text): return string(text)
        case .array(let items): return "[" + items.map(compact).joined(separator: ", ") + "]"
        case .object(let members):
            let entries = members.keys.sorted().map { "\(string($0)): \(compact(members[$0] ?? .null))" }
            return "{" + entries.joined(separator: ", ") + "}"
        }
    }

    private static func write(_ value: AttributeValue, indent: String, into out: inout String) {
        if isSmall(value) {
            out += compact(value)
            return
        }
        switch value {
        case .array(let items) where !items.isEmpty:
            let inner = indent + "  "
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += inner
                write(item, indent: inner, into: &out)
                out += index == items.count - 1 ? "\n" : ",\n"
            }
            out += indent + "]"
        case .object(let members) where !members.isEmpty:
            let inner = indent + "  "
            out += "{\n"
            let keys = members.keys.sorted()
            for (index, key) in keys.enumerated() {
                out += inner + string(key) + ": "
                write(members[key] ?? .null, indent: inner, into: &out)
                out += index == keys.count - 1 ? "\n" : ",\n"
            }
            out += indent + "}"
        default:
            out += compact(value)
        }
    }

    /// Whether `value` goes on one line: short, and no non-empty object inside an array or object.
    private static func isSmall(_ value: AttributeValue) -> Bool {
        func nestsObject(_ value: AttributeValue) -> Bool {
            switch value {
            case .object(let members): return !members.isEmpty
            case .array(let items): return items.contains(where: nestsObject)
            default: return false
            }
        }
        switch value {
        case .array(let items): return !items.contains(where: nestsObject) && compact(value).count <= 72
        case .object(let members): return !members.values.contains(where: nestsObject) && compact(value).count <= 72
        default: return true
        }
    }

    /// A JSON number: integers without a fraction, others as the shortest round-tripping text.
    static func number(_ value: Double) -> String { JSONText.number(value) }

    /// A JSON string literal that prints as it reads (DEL and C1 controls escaped too: a payload
    /// goes to a terminal as often as to a file).
    static func string(_ text: String) -> String { JSONText.printableQuoted(text) }
}
