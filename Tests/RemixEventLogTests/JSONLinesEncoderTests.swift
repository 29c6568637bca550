import Foundation
import RemixEventLog
import RemixKit
import Testing

/// JSONLinesEncoder: every line parses with JSONSerialization and gives back what was encoded.
@Suite struct JSONLinesEncoderTests {
    /// Encodes `events` and parses each line.
    static func encodeAndParse(_ events: [LoggedEvent]) throws -> (text: String, objects: [[String: Any]]) {
        var encoder = JSONLinesEncoder()
        for event in events { encoder.encode(event) }
        #expect(encoder.lineCount == events.count)
        let text = String(decoding: encoder.bytes, as: UTF8.self)
        #expect(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == events.count, "one line per event")
        let objects = try lines.map { line in
            try #require(jsonObject(String(line)), "line does not parse: \(line)")
        }
        return (text, objects)
    }

    /// Checks a parsed JSON value against the EventValue it was encoded from.
    static func matches(_ parsed: Any, _ value: EventValue) -> Bool {
        switch value {
        case .string(let string): return (parsed as? String) == string
        case .int(let int): return (parsed as? NSNumber)?.int64Value == Int64(int)
        case .double(let double):
            guard double.isFinite else { return parsed is NSNull }
            guard let number = parsed as? NSNumber else { return false }
            // JSONSerialization on Linux may be off by an ulp on long decimals (a Foundation parser
            // limit); exactness is checked on the text with Double(String) in rawNumber tests.
            return number.doubleValue == double || number.doubleValue.nextUp == double
                || number.doubleValue.nextDown == double
        case .bool(let bool):
            guard let number = parsed as? NSNumber else { return false }
            return number.boolValue == bool
        case .null: return parsed is NSNull
        case .object(let fields):
            guard let object = parsed as? [String: Any], object.count == fields.count else { return false }
            return fields.allSatisfy { field in object[field.name].map { matches($0, field.value) } ?? false }
        case .array(let values):
            guard let array = parsed as? [Any], array.count == values.count else { return false }
            return zip(array, values).allSatisfy { matches($0, $1) }
        }
    }

    static let everyType: [EventField] = [
        EventField("string", .string("hello")),
        EventField("emptyString", .string("")),
        EventField("zero", .int(0)),
        EventField("int", .int(42)),
        EventField("negative", .int(-1234567)),
        EventField("intMax", .int(Int.max)),
        EventField("intMin", .int(Int.min)),
        EventField("half", .double(0.5)),
        EventField("tenth", .double(0.1)),
        EventField("negativeDouble", .double(-3.25)),
        EventField("integralDouble", .double(1234.0)),
        EventField("largeDouble", .double(1.5e300)),
        EventField("hugeIntegral", .double(1e20)),
        EventField("belowHugeIntegral", .double(999_999_999_999_999)),
        EventField("tiny", .double(.leastNonzeroMagnitude)),
        EventField("pi", .double(Double.pi)),
        EventField("yes", .bool(true)),
        EventField("no", .bool(false)),
        EventField("nothing", .null),
        EventField("object", .object([
            EventField("inner", .string("x")), EventField("count", .int(3)),
            EventField("deeper", .object([EventField("list", .array([.int(1), .null]))])),
        ])),
        EventField("emptyObject", .object([])),
        EventField("array", .array([.string("a"), .int(1), .double(2.5), .bool(true), .null,
                                    .object([EventField("k", .string("v"))]), .array([])])),
        EventField("emptyArray", .array([])),
    ]

    @Test func everyFieldTypeRoundTrips() throws {
        let event = LoggedEvent(timestamp: 1_795_424_401_553, type: "kitchen_sink", session: "s1-0", user: "u1-0",
                                fields: Self.everyType)
        let (_, objects) = try Self.encodeAndParse([event])
        let object = objects[0]
        #expect(object["ts"] as? String == "2026-11-23T09:00:01.553Z")
        #expect(object["type"] as? String == "kitchen_sink")
        #expect(object["session"] as? String == "s1-0")
        #expect(object["user"] as? String == "u1-0")
        #expect(object.count == Self.everyType.count + 4)
        for field in Self.everyType {
            let parsed = try #require(object[field.name], "missing \(field.name)")
            #expect(Self.matches(parsed, field.value), "\(field.name): \(parsed) is not \(field.value)")
        }
    }

    /// String values are read in place from the fields (a small ASCII one from the enum's own
    /// words): every length around the small-string limit, plain or needing escapes, at the top
    /// level and nested, comes back as it went in.
    @Test func stringValuesOfEveryShortLengthRoundTrip() throws {
        // The in-place path relies on a `.string` payload leading the value (an extra tag byte
        // after it); on a layout that differs the writer copies instead, and this says so.
        #expect(MemoryLayout<EventValue>.size == MemoryLayout<String>.size + 1, "string values are copied, not read in place")
        let alphabet = Array("abcXYZ019-_ \"\\\n/".utf8)
        var fields: [EventField] = []
        for count in 0...17 {
            for shift in [0, 11] {
                let text = String(decoding: (0..<count).map { alphabet[($0 * 3 + shift) % alphabet.count] }, as: UTF8.self)
                fields.append(EventField("s\(count)-\(shift)", .string(text)))
            }
        }
        fields.append(EventField("nested", .object(fields)))
        fields.append(EventField("café", .string("Zürich")))
        let event = LoggedEvent(timestamp: 0, type: "strings", session: "s", user: "u", fields: fields)
        let (_, objects) = try Self.encodeAndParse([event])
        for field in fields {
            let parsed = try #require(objects[0][field.name], "missing \(field.name)")
            #expect(Self.matches(parsed, field.value), "\(field.name): \(parsed) is not \(field.value)")
        }
    }

    @Test func integersAndIntegralDoublesAreWrittenWithoutAFraction() throws {
        var encoder = JSONLinesEncoder()
        encoder.encode(LoggedEvent(timestamp: 0, type: "n", session: "", user: "", fields: [
            EventField("a", .int(Int.max)), EventField("b", .int(Int.min)), EventField("c", .double(1234.0)),
            EventField("d", .double(-0.0)), EventField("e", .double(.nan)), EventField("f", .double(-.infinity)),
            EventField("g", .double(0.1)),
        ]))
        let text = String(decoding: encoder.bytes, as: UTF8.self)
        #expect(text.hasSuffix(#""a":9223372036854775807,"b":-9223372036854775808,"c":1234,"d":0,"e":null,"f":null,"g":0.1}"# + "\n"))
    }

    @Test(arguments: [
        "plain", "say \"hi\"", #"back\slash \\ twice"#, "new\nline", "carriage\rreturn", "tab\there",
        "control \u{01} one", "unit separator \u{1F}", "nul \u{00} byte", "bell \u{07} backspace \u{08} formfeed \u{0C}",
        "delete \u{7F}", "café Zürich naïve", "日本語のタイトル", "emoji 🚲🚗 and 👩‍👩‍👧 family", "mixed \"\\\n\u{1F}🚀\"",
        "\"", "\\", "", "line separator \u{2028} paragraph \u{2029}",
    ])
    func stringsAreEscapedAndRoundTrip(_ text: String) throws {
        let event = LoggedEvent(timestamp: 0, type: text, session: text, user: text, fields: [
            EventField(text.isEmpty ? "empty" : text, .string(text)),
            EventField("nested", .object([EventField("inner", .array([.string(text)]))])),
        ])
        let (encoded, objects) = try Self.encodeAndParse([event])
        // No raw control character may appear inside the line.
        let body = encoded.dropLast()
        #expect(!body.unicodeScalars.contains { $0.value < 0x20 }, "raw control character in \(encoded.debugDescription)")
        let object = objects[0]
        #expect(object["type"] as? String == text)
        #expect(object["session"] as? String == text)
        #expect(object["user"] as? String == text)
        #expect(object[text.isEmpty ? "empty" : text] as? String == text)
        let nested = try #require(object["nested"] as? [String: Any])
        #expect((nested["inner"] as? [Any])?.first as? String == text)
    }

    @Test func controlCharactersUseTheShortOrUnicodeEscapes() {
        var encoder = JSONLinesEncoder()
        encoder.appendString("\"\\\n\r\t\u{01}\u{1F}\u{08}\u{0C}é")
        #expect(String(decoding: encoder.bytes, as: UTF8.self) == #""\"\\\n\r\t\u0001\u001f\b\fé""#)
    }

    /// Escaping byte by byte, the obvious way, to check the eight-bytes-at-a-time scan against.
    static func referenceEscaped(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20: out += "\\u00" + String(format: "%02x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    @Test func escapesAnywhereInLongStringsMatchTheByteByByteReference() {
        let alphabet: [Character] = ["a", "Z", "0", " ", "\"", "\\", "\n", "\u{01}", "\u{1F}", "é", "€", "🚲", "~", "\u{7F}"]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for length in 0..<48 {
            for _ in 0..<20 {
                let text = String((0..<length).map { _ -> Character in
                    seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    return alphabet[Int(seed >> 33) % alphabet.count]
                })
                var encoder = JSONLinesEncoder()
                encoder.appendString(text)
                #expect(String(decoding: encoder.bytes, as: UTF8.self) == Self.referenceEscaped(text), "\(text.debugDescription)")
            }
        }
    }

    /// Plain strings are copied and then checked in place a word at a time, reading past their
    /// end into the reused line buffer, where an earlier, escaped line left quotes and backslashes.
    @Test func plainStringsAfterAnEscapedLineInTheSameBufferAreNotEscaped() {
        let noisy = String(repeating: "\"\\\n", count: 40)
        let plain = ["", "a", "ab", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghijklmno", "abcdefghijklmnop"]
        var encoder = JSONLinesEncoder()
        var expected = ""
        for text in plain {
            for written in [noisy, text] {
                encoder.encode(LoggedEvent(timestamp: 0, type: written, session: written, user: written,
                                           fields: [EventField(written, .string(written))]))
            }
            let escaped = Self.referenceEscaped(noisy), quoted = "\"\(text)\""
            expected += #"{"ts":"1970-01-01T00:00:00.000Z","type":"# + escaped + #","session":"# + escaped + #","user":"#
                + escaped + "," + escaped + ":" + escaped + "}\n"
            expected += #"{"ts":"1970-01-01T00:00:00.000Z","type":"# + quoted + #","session":"# + quoted + #","user":"#
                + quoted + "," + quoted + ":" + quoted + "}\n"
        }
        #expect(String(decoding: encoder.bytes, as: UTF8.self) == expected)
    }

    /// A line longer than any before it overflows the reused line buffer: it is written again
    /// into a larger one, whole, and the lines after it are unaffected.
    @Test func linesLongerThanTheLineBufferAreWrittenWhole() {
        let long = String(repeating: "\"\\\u{01}x", count: 1500)
        var encoder = JSONLinesEncoder()
        var expected = ""
        for text in ["short", long, "short again", long + long, "", String(repeating: "é", count: 3000)] {
            encoder.encode(LoggedEvent(timestamp: 0, type: "t", session: "s", user: "u", fields: [EventField("v", .string(text))]))
            expected += #"{"ts":"1970-01-01T00:00:00.000Z","type":"t","session":"s","user":"u","v":"# + Self.referenceEscaped(text) + "}\n"
        }
        #expect(encoder.lineCount == 6)
        #expect(String(decoding: encoder.bytes, as: UTF8.self) == expected)
    }

    /// Members handed over in parts (a screen event's screen and stack) are escaped part by part
    /// straight into the line: the same bytes as the whole string written as a field, for parts
    /// small and large, plain and needing escapes, and for a line past the line buffer.
    @Test func membersInPartsAreWrittenAsTheirWholeStrings() {
        let long = String(repeating: "\"\\\u{01}x", count: 700)
        let cases: [[String]] = [
            [], [""], ["adverts"], ["adverts", " > ", "groups", "(", "Bicycles", ")"], ["a\"b", "\\", "\n", "é", "🚲"],
            ["exactly16bytes!!", "fifteen bytes..", String(repeating: "z", count: 40)], [long, "tail", long],
        ]
        let header = JSONLinesEncoder.SessionHeader(session: "s", user: "u")
        var inParts = JSONLinesEncoder()
        var whole = JSONLinesEncoder()
        for (first, second) in zip(cases, cases.reversed()) {
            inParts.encodeScreen(timestamp: 0, header: header, transition: "push", screenIsNull: false) { index, piece in
                (index == 0 ? first : second).forEach(piece)
            }
            whole.encode(timestamp: 0, type: "screen", header: header, fields: [
                EventField("transition", .string("push")), EventField("screen", .string(first.joined())),
                EventField("stack", .string(second.joined())),
            ])
            // A transition without a screen: `"screen":null` among the fields, the stack in parts.
            inParts.encodeScreen(timestamp: 0, header: header, transition: "dismiss", screenIsNull: true) { index, piece in
                #expect(index == 0)
                second.forEach(piece)
            }
            whole.encode(timestamp: 0, type: "screen", header: header, fields: [
                EventField("transition", .string("dismiss")), EventField("screen", .null),
                EventField("stack", .string(second.joined())),
            ])
        }
        #expect(inParts.lineCount == 2 * cases.count)
        #expect(String(decoding: inParts.bytes, as: UTF8.self) == String(decoding: whole.bytes, as: UTF8.self))
    }

    /// Doubles with a few decimals are written without `description`; the text must be the one
    /// `description` gives, for every number of decimals and on both sides of the shortcut's range.
    @Test func shortDecimalsAreWrittenAsDescriptionWritesThem() throws {
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        var values: [Double] = [0.001, 0.0009, 0.00123, 999_999_999.5, 1e9 + 0.5, 0.5, -0.25, 0.4127, 12.25, 0.1 + 0.2]
        for decimals in 1...8 {
            for _ in 0..<400 {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let units = Double(seed >> 40) * (seed & 1 == 0 ? 1 : -1)
                values.append(units / pow(10, Double(decimals)))
                values.append(Double(bitPattern: 0x3F50_0000_0000_0000 | seed >> 12))
            }
        }
        for value in values {
            var encoder = JSONLinesEncoder()
            encoder.encode(LoggedEvent(timestamp: 0, type: "d", session: "", user: "", fields: [EventField("v", .double(value))]))
            let text = try #require(Self.rawNumber(String(decoding: encoder.bytes, as: UTF8.self), "v"))
            let expected = value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : value.description
            #expect(text == expected, "\(value)")
        }
    }

    /// The text of the number after `"key":` in `line`.
    static func rawNumber(_ line: String, _ key: String) -> String? {
        guard let start = line.range(of: "\"\(key)\":")?.upperBound else { return nil }
        return String(line[start...].prefix { ",}]".contains($0) == false })
    }

    @Test(arguments: [0.1, 0.2 + 0.1, -2.5, Double.pi, 1.0 / 3, 2.0 / 3 * 1e-300, Double.greatestFiniteMagnitude,
                      .leastNonzeroMagnitude, 1e15, 123_456.789, -9.87654321e-7, 4_503_599_627_370_497.0, 0.1 + 1e-17])
    func doublesRoundTripExactlyThroughTheirText(_ value: Double) throws {
        var encoder = JSONLinesEncoder()
        encoder.encode(LoggedEvent(timestamp: 0, type: "d", session: "", user: "", fields: [EventField("v", .double(value))]))
        let line = String(decoding: encoder.bytes, as: UTF8.self)
        #expect(jsonObject(line) != nil, "not JSON: \(line)")
        let text = try #require(Self.rawNumber(line, "v"))
        #expect(Double(text) == value, "\(text) does not read back as \(value)")
        #expect(text.allSatisfy { "0123456789-+.e".contains($0) }, "not a JSON number: \(text)")
    }

    @Test func keyOrderIsFixed() throws {
        let event = LoggedEvent(timestamp: 0, type: "t", session: "s", user: "u", fields: [
            EventField("zeta", .int(1)), EventField("alpha", .int(2)),
            EventField("object", .object([EventField("y", .int(1)), EventField("b", .int(2))])),
        ])
        var encoder = JSONLinesEncoder()
        encoder.encode(event)
        encoder.encode(event)
        let line = #"{"ts":"1970-01-01T00:00:00.000Z","type":"t","session":"s","user":"u","zeta":1,"alpha":2,"object":{"y":1,"b":2}}"#
        #expect(String(decoding: encoder.bytes, as: UTF8.self) == line + "\n" + line + "\n")
    }

    @Test func manyEventsGiveOneParsableLineEach() throws {
        let events = (0..<500).map { index in
            LoggedEvent(timestamp: Int64(index) * 1_337, type: "e\(index % 7)", session: "s-\(index)", user: "u\n\(index)",
                        fields: [EventField("i", .int(index)), EventField("x", .double(Double(index) / 7))])
        }
        let (text, objects) = try Self.encodeAndParse(events)
        let lines = text.split(separator: "\n")
        for (index, object) in objects.enumerated() {
            #expect((object["i"] as? NSNumber)?.intValue == index)
            #expect(object["user"] as? String == "u\n\(index)")
            #expect(Self.rawNumber(String(lines[index]), "x").flatMap(Double.init) == Double(index) / 7)
        }
    }

    @Test func removeAllEmptiesTheBuffer() {
        var encoder = JSONLinesEncoder()
        encoder.encode(LoggedEvent(timestamp: 0, type: "a", session: "", user: ""))
        encoder.removeAll()
        #expect(encoder.bytes.isEmpty)
        #expect(encoder.lineCount == 0)
        encoder.encode(LoggedEvent(timestamp: 0, type: "b", session: "", user: ""))
        #expect(String(decoding: encoder.bytes, as: UTF8.self)
            == #"{"ts":"1970-01-01T00:00:00.000Z","type":"b","session":"","user":""}"# + "\n")
    }
}
