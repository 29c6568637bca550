import Foundation
@testable import RemixAnalysis
import RemixKit
@testable import RemixLogReader
import Testing

/// The reader's shortcuts give what the general paths give: the writer's leading members read a
/// word at a time, a table of strings absorbed whole, a column of latest times appended in one copy.
@Suite struct ReaderShortcutTests {
    /// What a scan of `bytes` gives: accepted, the failure, and the fields read as text.
    static func scan(_ bytes: [UInt8], numericNames: [[UInt8]] = []) -> (Bool, BadLineReason?, [String?], [Bool], Int) {
        bytes.withUnsafeBufferPointer { line in
            var fields = LineFields()
            var scanner = LineScanner(line.span, numericNames: numericNames.span,
                                      sessionIsNumeric: LineScanner.sessionIsNumeric(numericNames))
            let accepted = scanner.scan(into: &fields)
            let slices = [fields.timestamp, fields.type, fields.user, fields.experiment, fields.variation, fields.screen,
                          fields.feature]
            let texts = slices.map { slice in
                slice.isPresent ? String(decoding: line[slice.range], as: UTF8.self) : nil
            }
            let flags = [fields.inExperiment, fields.hashUsed, fields.hasEscapes, fields.numberMask & 1 != 0,
                         fields.notNumberMask & 1 != 0]
            return (accepted, scanner.failure, texts, flags, fields.variationID)
        }
    }

    /// The same reason with its byte place moved by `shift`.
    static func shifted(_ reason: BadLineReason?, _ shift: Int) -> BadLineReason? {
        switch reason {
        case .syntax(let byte)?: .syntax(byte: byte + shift)
        case .invalidUTF8(let byte)?: .invalidUTF8(byte: byte + shift)
        case .controlCharacter(let byte)?: .controlCharacter(byte: byte + shift)
        case .badEscape(let byte)?: .badEscape(byte: byte + shift)
        default: reason
        }
    }

    static let writerLines = [
        #"{"ts":"2026-11-23T09:00:00.973Z","type":"exposure","session":"s1-0","user":"u1-0","experiment":"insertion-flow","variation":"auto","variationId":1,"feature":"AlternatingInsertion","app":"marketplace","slot":"insertion","bucket":0.25,"hashUsed":true,"inExperiment":true}"#,
        #"{"ts":"2026-11-23T09:00:00.000Z","type":"screen","session":"s1-0","user":"u1-0","transition":"show","screen":"adverts","stack":"adverts | "}"#,
        #"{"ts":"2026-11-23T09:00:00.000Z","type":"session_started","session":"s1-0","user":"u1-0","app":"marketplace","visit":1,"attributes":{"id":"u1-0","platform":"tablet"}}"#,
        #"{"ts":"2026-11-23T09:00:00.000Z","type":"run","session":"","user":"","users":3,"userIndices":[0,3]}"#,
        #"{"ts":"2026-11-23T09:00:09.034Z","type":"session_ended","session":"s1-0","user":"u1-0","session":7,"durationMs":8061}"#,
    ]

    /// Edits that each touch the leading members: escapes, bad bytes, other spellings, cut lines.
    static let edits: [(String, String)] = [
        (#""type":"exposure""#, #""type":"exp\u006fsure""#), (#""user":"u1-0""#, #""user":"u1\"-0""#),
        (#""session":"s1-0""#, #""session":"s1\u0000""#), (#""session":"s1-0""#, #""session":1"#),
        (#""user":"u1-0""#, #""user":null"#), (#""type":"#, #""typ":"#), (#""session":"#, #""sessions":"#),
        ("09:00:0", "09:00\t0"), ("2026-11", "2026\u{E9}11"), ("2026-11", #"2026\"11"#), (#"{"ts""#, #"{"ts" "#),
        (#""user":"u1-0""#, #""user":"u1-0"#), (".973Z", ".97Z"), (#""s1-0","#, #""s1-0" ,"#),
    ]

    @Test func theWritersLeadingMembersReadAsTheGeneralLoopReadsThem() {
        var lines = Self.writerLines
        for line in Self.writerLines {
            for (from, to) in Self.edits where line.contains(from) {
                lines.append(line.replacingFirst(from, with: to))
            }
            for cut in [20, 31, 32, 40, 41, 47, 48, 52, 60, 70] where cut < line.utf8.count {
                lines.append(String(decoding: Array(line.utf8)[..<cut], as: UTF8.self))
            }
        }
        for line in lines {
            let bytes = Array(line.utf8)
            // A space after the brace takes the general loop all the way.
            let general = [bytes[0], 0x20] + bytes.dropFirst()
            for names: [[UInt8]] in [[], [Array("session".utf8)]] {
                let fast = Self.scan(bytes, numericNames: names), slow = Self.scan(general, numericNames: names)
                #expect(fast.0 == slow.0, "\(line)")
                #expect(Self.shifted(fast.1, 1) == slow.1, "\(line)")
                if fast.0 {
                    #expect(fast.2 == slow.2 && fast.3 == slow.3 && fast.4 == slow.4, "\(line)")
                }
            }
        }
    }

    @Test func aTableAbsorbedWholeNumbersAsInterningOneByOne() {
        var generator = SeededGenerator(seed: 33)
        let alphabet = Array("ab-0123456789".utf8)
        func word() -> [UInt8] {
            (0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        }
        for round in 0..<40 {
            let mine = (0..<Int.random(in: 0...300, using: &generator)).map { _ in word() }
            var theirs = (0..<Int.random(in: 0...300, using: &generator)).map { _ in word() }
            // Some of theirs are mine, the shared ones first in most rounds (a log split mid-session).
            if round % 2 == 0, let shared = mine.first { theirs.insert(shared, at: 0) }
            var whole = ByteStringTable(capacity: 4), part = ByteStringTable(capacity: 4), oneByOne = ByteStringTable(capacity: 4)
            for bytes in mine {
                _ = whole.intern(bytes.span)
                _ = oneByOne.intern(bytes.span)
            }
            for bytes in theirs { _ = part.intern(bytes.span) }
            let before = whole.count
            let (ids, fresh) = whole.absorb(part)
            let expected = (0..<part.count).map { id in part.withBytes(id) { oneByOne.intern($0) } }
            #expect(ids == expected)
            #expect(whole.count == oneByOne.count)
            for id in 0..<whole.count { #expect(whole.string(id) == oneByOne.string(id)) }
            for id in 0..<part.count {
                #expect(part.withBytes(id) { whole.find($0) } == ids[id])
            }
            #expect(fresh == 0 || ids[fresh - 1] < before)
            for id in fresh..<part.count { #expect(ids[id] >= before && (id == fresh || ids[id] == ids[id - 1] + 1)) }
        }
    }

    @Test func latestTimesMergedInBulkEqualTheUnitByUnitMerge() {
        var generator = SeededGenerator(seed: 34)
        for _ in 0..<200 {
            let units = Int.random(in: 0...50, using: &generator)
            func column(_ count: Int) -> [Int64] {
                var values = (0..<count).map { _ in Bool.random(using: &generator) ? Int64.random(in: 0...100, using: &generator) : .min }
                while values.last == .min { values.removeLast() }
                return values
            }
            let mine = column(Int.random(in: 0...units, using: &generator))
            let theirCount = Int.random(in: 0...40, using: &generator)
            let theirs = column(Int.random(in: 0...theirCount, using: &generator))
            // The first `fresh` of theirs map anywhere (known units or new ones), the rest run on.
            let fresh = Int.random(in: 0...theirCount, using: &generator)
            var next = units
            var unitMap: [Int] = []
            for unit in 0..<theirCount {
                if unit < fresh, Bool.random(using: &generator), units > 0 {
                    unitMap.append(Int.random(in: 0..<units, using: &generator))
                } else {
                    unitMap.append(next)
                    next += 1
                }
            }
            var expected = mine
            for (unit, time) in theirs.enumerated() where time != .min {
                LogTally.ensure(&expected, unitMap[unit], .min)
                expected[unitMap[unit]] = max(expected[unitMap[unit]], time)
            }
            var merged = mine
            LogTally.mergeLatest(&merged, theirs, unitMap: unitMap, fresh: fresh)
            #expect(merged == expected)
        }
    }
}

private extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
