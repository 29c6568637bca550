import Foundation
import RemixKit
@testable import RemixLogReader
import Testing

/// The scanner against Foundation's JSON parser (the fuzz target FuzzLogLine searches further).
@Suite struct ScannerAgreementTests {
    /// Random edits of valid lines: the scanner accepts exactly what Foundation's JSON parser
    /// takes as an object.
    @Test func theScannerAgreesWithFoundationOnMangledLines() throws {
        let seeds = [
            #"{"ts":"2026-11-23T09:00:01.000Z","type":"screen","user":"u1","screen":"groups(Bicycles)","n":[1,-2.5e3,{"a":null}],"ok":true}"#,
            #"{"a":{"b":[[],{},"x y"]},"c":0.25,"d":false,"e":"é"}"#,
        ]
        let alphabet = Array(#"{}[]:,"0123456789.-+eE tfnrulasx"#.utf8)
        var generator = SeededGenerator(seed: 21)
        var checked = 0
        for _ in 0..<4000 {
            var bytes = Array(seeds[Int.random(in: 0..<seeds.count, using: &generator)].utf8)
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                let byte = alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes.remove(at: index)
                case 1: bytes.insert(byte, at: index)
                default: bytes[index] = byte
                }
                if bytes.isEmpty { bytes = [UInt8(ascii: "x")] }
            }
            var foundation = (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) is [String: Any]
            // Foundation takes a trailing comma, which RFC 8259 does not.
            let text = String(decoding: bytes.filter { $0 != 0x20 }, as: UTF8.self)
            if text.contains(",]") || text.contains(",}") { foundation = false }
            var fields = LineFields()
            var scanner = LineScanner(bytes.span)
            let scanned = scanner.scan(into: &fields)
            #expect(scanned == foundation, "\(String(decoding: bytes, as: UTF8.self))")
            checked += 1
        }
        #expect(checked == 4000)
    }
}
