import Foundation
@testable import RemixAnalysis
import RemixKit
@testable import RemixLogReader
import Testing

/// The reader takes only JSON objects (RFC 8259, UTF-8) that are events: anything else is a bad
/// line with a reason, never a silently different count.
@Suite struct StrictInputTests {
    static let event = #"{"ts":"2026-11-23T09:00:01.000Z","type":"m","session":"s","user":"u""#

    /// Runs `bytes` through the line splitter and scanner as the reader does.
    static func tally(_ bytes: [UInt8], maxLineLength: Int = 1 << 20) -> LogTally {
        var tally = LogTally(tracked: ["m"], timed: ["m"])
        var splitter = LineSplitter(maxLineLength: maxLineLength)
        _ = splitter.split(bytes.span, atEnd: true, into: &tally)
        return tally
    }

    /// Why one line is bad, nil when it is counted.
    static func reason(_ line: [UInt8]) -> BadLineReason? {
        tally(line + [0x0A]).badLines.first?.reason
    }

    static func reason(_ line: String) -> BadLineReason? { reason(Array(line.utf8)) }

    /// `event` with `member` added before its closing brace.
    static func with(_ member: String) -> String { event + "," + member + "}" }

    @Test(arguments: [
        (#"[1 2 3}"#, BadLineReason.syntax(byte: 4)),
        (#"{"a" "b"}"#, .syntax(byte: 6)),
        (with(#""x":-"#), .syntax(byte: 75)),
        (with(#""x":01"#), .syntax(byte: 75)),
        (with(#""x":1."#), .syntax(byte: 76)),
        (with(#""x":.5"#), .syntax(byte: 74)),
        (with(#""x":1e"#), .syntax(byte: 76)),
        (with(#""x":+1"#), .syntax(byte: 74)),
        (with(#""x":tru"#), .syntax(byte: 74)),
        (with(#""x":[1,]"#), .syntax(byte: 77)),
        (with(#""x":{"a":1,}"#), .syntax(byte: 81)),
        (with(#""x":[1}"#), .syntax(byte: 76)),
        (event + "}}", .syntax(byte: 70)),
        (event + "} x", .syntax(byte: 71)),
        (#"{,}"#, .syntax(byte: 2)),
        (with(#""x":"\q""#), .badEscape(byte: 75)),
        (with(#""x":"\u12G4""#), .badEscape(byte: 75)),
        (with(#""x":"open"#), .syntax(byte: 80)),
        (with(#""x""#), .syntax(byte: 73)),
        (#""just a string""#, .notAnObject),
        ("42", .notAnObject),
        ("", nil),
        ("   ", nil),
    ])
    func notJSONIsABadLineWithItsPlace(line: String, expected: BadLineReason?) {
        #expect(Self.reason(line) == expected)
    }

    @Test func rawControlCharactersAndInvalidUTF8InsideSkippedStringsAreBad() {
        let prefix = Array(Self.event.utf8) + Array(#","title":"a"#.utf8)
        let suffix = Array(#"b"}"#.utf8)
        #expect(Self.reason(prefix + [0x00] + suffix) == .controlCharacter(byte: 80))
        #expect(Self.reason(prefix + [0x09] + suffix) == .controlCharacter(byte: 80))
        for invalid: [UInt8] in [[0xFF], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC3]] {
            #expect(Self.reason(prefix + invalid + suffix) == .invalidUTF8(byte: 80), "\(invalid)")
        }
        // Long strings take the eight-bytes-at-a-time path: the place is still exact.
        let long = prefix + Array(repeating: UInt8(ascii: "z"), count: 21)
        #expect(Self.reason(long + [0xFE] + suffix) == .invalidUTF8(byte: 101))
        #expect(Self.reason(long + [0x7F, 0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80] + suffix) == nil, "DEL and UTF-8 are fine")
    }

    @Test func validJSONOfEveryKindIsAccepted() {
        let members = [
            #""n":[-0,1.5e+10,0.0E-3,12,-7e2,{"k":[[],{}]},"}]\"{",true,false,null]"#,
            #""s":"\" \\ \/ \b \f \n \r \t \u00e9 \ud83d\ude00 \udc00 é 😀 ☃""#,
            #"  "spaced"  :  { "a" : [ 1 , 2 ] }  "#,
            #""deep":"# + String(repeating: "[", count: 20) + "1" + String(repeating: "]", count: 20),
        ]
        for member in members {
            #expect(Self.reason(Self.with(member)) == nil, "\(member)")
            #expect(Self.reason(Self.with(member) + "\r") == nil, "CRLF line ends")
        }
        #expect(Self.reason("  " + Self.event + "}  ") == nil)
    }

    @Test func nestingIsBoundedSoNoLineCanExhaustTheStack() {
        let depth = LineScanner.depthLimit
        let fine = String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1)
        #expect(Self.reason(Self.with(#""x":"# + fine)) == nil)
        let deep = String(repeating: "[", count: 100_000)
        #expect(Self.reason(Self.with(#""x":"# + deep)) == .tooDeep(limit: depth))
    }

    @Test func eventsNeedATimestampTypeAndUserString() {
        #expect(Self.reason(#"{"a":1}"#) == .missing(field: "ts"))
        #expect(Self.reason(#"{"ts":1700000000,"type":"m","user":"u"}"#) == .missing(field: "ts"))
        #expect(Self.reason(#"{"ts":"2026-11-23T09:00:01.000Z","user":"u"}"#) == .missing(field: "type"))
        #expect(Self.reason(#"{"ts":"2026-11-23T09:00:01.000Z","type":"m","user":null}"#) == .missing(field: "user"))
        #expect(Self.reason(#"{"ts":"2026-11-23T09:00:01.000Z","type":"run","user":""}"#) == nil, "run records")
    }

    @Test(arguments: ["garbage", "", "1700000000", "2026-13-01T00:00:00.000Z", "2026-11-00T00:00:00.000Z",
                      "2026-02-31T09:00:00.000Z", "2026-11-23T24:00:00.000Z", "2026-11-23T09:00:60.000Z"])
    func aBadTimestampIsABadLine(ts: String) {
        let line = #"{"ts":"\#(ts)","type":"session_started","user":"u"}"#
        #expect(Self.reason(line) == .badTimestamp(ts))
    }

    /// Distinct ids stay distinct: raw invalid UTF-8 is a bad line (never decoded to U+FFFD), an
    /// escaped lone surrogate in a read field too, and escapes decode to their exact bytes.
    @Test func userIdsAreKeptByteExact() throws {
        func exposure(_ user: String) -> [UInt8] {
            Array(#"{"ts":"2026-11-23T09:00:01.000Z","type":"exposure","user":"\#(user)","experiment":"e","variation":"a","variationId":0,"inExperiment":true,"hashUsed":true}"#.utf8)
        }
        func raw(_ bytes: [UInt8]) -> [UInt8] {
            Array(#"{"ts":"2026-11-23T09:00:01.000Z","type":"exposure","user":"bad"#.utf8) + bytes
                + Array(#"","experiment":"e","variation":"a","variationId":0,"inExperiment":true,"hashUsed":true}"#.utf8)
        }
        var log: [UInt8] = []
        for line in [raw([0xFF]), raw([0xFE]), exposure(#"bad\uFFFD"#), exposure("bad\u{FFFD}"), exposure(#"bad\u00ff"#),
                     exposure(#"bad\u00fe"#), exposure(#"bad\udcff"#), exposure(#"bad\udcfe"#)] {
            log += line + [0x0A]
        }
        let tally = Self.tally(log)
        #expect(tally.badLines.map(\.reason) == [.invalidUTF8(byte: 63), .invalidUTF8(byte: 63), .loneSurrogate, .loneSurrogate])
        #expect(tally.users.count == 3, "bad\u{FFFD} (escaped and raw are the same text), badÿ, badþ")
        let users = Set((0..<tally.users.count).map { tally.users.string($0) })
        #expect(users == ["bad\u{FFFD}", "bad\u{FF}", "bad\u{FE}"])
    }
}
