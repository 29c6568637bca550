import Foundation
import Testing

/// An event line as canonical text: keys sorted, every number written as the double it denotes.
/// What a line means, not how it was written — the store keeps events' fields as `jsonb`, which
/// writes a number back in its own form (7.439498404840482e-05 comes back 0.00007439498404840482).
enum CanonicalEvent {
    /// The canonical text of the JSON value `line`.
    static func text(_ line: some Collection<UInt8>) throws -> String {
        try value(line).text
    }

    /// The JSON value `line`.
    static func value(_ line: some Collection<UInt8>) throws -> Value {
        try JSONDecoder().decode(Value.self, from: Data(line))
    }

    /// A line that is JSON but not an object, where an event was expected.
    struct NotAnObject: Error {}

    /// A JSON value; a number is the double its digits denote (correctly rounded, whatever form
    /// they take).
    indirect enum Value: Decodable, Equatable {
        case null, bool(Bool), number(Double), string(String), array([Value]), object([String: Value])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode([Value].self) {
                self = .array(value)
            } else {
                self = .object(try container.decode([String: Value].self))
            }
        }

        var text: String {
            switch self {
            case .null: "null"
            case .bool(let value): String(value)
            case .number(let value): String(value)
            case .string(let value): Self.quoted(value)
            case .array(let values): "[" + values.map(\.text).joined(separator: ",") + "]"
            case .object(let members):
                "{" + members.sorted { $0.key < $1.key }.map { Self.quoted($0.key) + ":" + $0.value.text }.joined(separator: ",") + "}"
            }
        }

        private static func quoted(_ string: String) -> String {
            String(decoding: (try? JSONEncoder().encode(string)) ?? Data(), as: UTF8.self)
        }
    }
}

@Suite struct CanonicalEventTests {
    @Test func aNumberIsTheSameWhateverItsForm() throws {
        #expect(try CanonicalEvent.text(Array(#"{"p":7.439498404840482e-05,"n":21}"#.utf8))
                    == CanonicalEvent.text(Array(#"{"n":21.0,"p":0.00007439498404840482}"#.utf8)))
        #expect(try CanonicalEvent.text(Array(#"{"p":1e-05}"#.utf8)) != CanonicalEvent.text(Array(#"{"p":2e-05}"#.utf8)))
        #expect(try CanonicalEvent.text(Array(#"{"s":"1e-05"}"#.utf8)) != CanonicalEvent.text(Array(#"{"s":"0.00001"}"#.utf8)))
    }
}
