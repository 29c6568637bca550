import RemixFormats
import Testing

/// ShortBytes, the one type for "up to 16 bytes in two words": read from a small string's own
/// words (the standard library's small-string layout: every string it reads must give exactly its
/// UTF-8 bytes, and the strings it cannot read must be the ones it is not for), from memory, or
/// from any sequence of bytes, it holds the same words.
@Suite struct ShortBytesTests {
    /// The bytes the two words hold, in order.
    private func bytes(_ words: ShortBytes) -> [UInt8] {
        (0..<words.count).map { index in
            let word = index < 8 ? words.low : words.high
            return UInt8(truncatingIfNeeded: word >> (8 * UInt64(index % 8)))
        }
    }

    @Test func everyWayOfReadingGivesTheSameWords() {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        for count in 0...16 {
            let utf8 = Array(alphabet.prefix(count))
            let shifted = ShortBytes(utf8)
            let string = String(decoding: utf8, as: UTF8.self)
            let fromUTF8 = ShortBytes(string.utf8)
            let loaded = utf8.withUnsafeBufferPointer { ShortBytes(prefixOf: $0) }
            #expect(shifted == fromUTF8 && shifted == loaded, "\(count) bytes")
            #expect(bytes(shifted) == utf8)
            #expect((0..<count).map { shifted[$0] } == utf8)
            shifted.withBytes { #expect(Array($0) == utf8) }
            if count < 16 { #expect(ShortBytes(smallASCII: string) == shifted) }
        }
        // Longer strings keep their length and first 16 bytes.
        let long = ShortBytes(Array(alphabet.prefix(20)))
        #expect(long.count == 20 && long.prefixMatches(ShortBytes(String(decoding: alphabet.prefix(20), as: UTF8.self).utf8)))
        #expect(bytes(ShortBytes(low: long.low, high: long.high, count: 16)) == Array(alphabet.prefix(16)))
    }

    @Test func readsEverySmallASCIILength() throws {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789\"\\\n\t ".utf8)
        for count in 0...15 {
            for shift in 0..<alphabet.count {
                let utf8 = (0..<count).map { alphabet[($0 + shift) % alphabet.count] }
                // Built at run time (not a literal), as the simulation's strings are.
                let string = String(decoding: utf8, as: UTF8.self)
                let words = try #require(ShortBytes(smallASCII: string), "a \(count)-byte ASCII string is small")
                #expect(words.count == count)
                #expect(bytes(words) == utf8)
                // Past the count the words are zero, which the writer's escape check relies on.
                if count < 8 { #expect(words.low >> (8 * UInt64(count)) == 0) }
                #expect(words.high >> (8 * UInt64(max(count - 8, 0))) == 0)
            }
        }
    }

    @Test func readsLiteralsAndCopiesAlike() throws {
        for literal in ["", "u", "screen", "insertion-flow", "AutoGroupInsert"] {
            let words = try #require(ShortBytes(smallASCII: literal))
            #expect(bytes(words) == Array(literal.utf8))
            var copy = literal
            copy.append("")
            #expect(ShortBytes(smallASCII: copy).map(bytes) == Array(literal.utf8))
        }
    }

    @Test func refusesWhatIsNotSmallASCII() {
        // Sixteen bytes and more are never small; non-ASCII small strings have another nibble.
        #expect(ShortBytes(smallASCII: "AutoGroupInsertion") == nil)
        #expect(ShortBytes(smallASCII: String(repeating: "x", count: 16)) == nil)
        #expect(ShortBytes(smallASCII: String(decoding: Array(repeating: UInt8(ascii: "y"), count: 40), as: UTF8.self)) == nil)
        #expect(ShortBytes(smallASCII: "café") == nil)
        #expect(ShortBytes(smallASCII: "Zürich") == nil)
        // A large native string holding few bytes (its storage was reserved) is not small either.
        var reserved = String()
        reserved.reserveCapacity(64)
        reserved.append("abc")
        if let words = ShortBytes(smallASCII: reserved) { #expect(bytes(words) == Array("abc".utf8)) }
    }
}
