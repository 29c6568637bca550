import RemixFormats
import Testing

/// SmallASCII reads the standard library's small-string layout: every string it reads must give
/// exactly its UTF-8 bytes, and the strings it cannot read must be the ones it is not for.
@Suite struct SmallASCIITests {
    /// The bytes the two words hold, in order.
    private func bytes(_ words: (low: UInt64, high: UInt64, count: Int)) -> [UInt8] {
        (0..<words.count).map { index in
            let word = index < 8 ? words.low : words.high
            return UInt8(truncatingIfNeeded: word >> (8 * UInt64(index % 8)))
        }
    }

    @Test func readsEverySmallASCIILength() throws {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789\"\\\n\t ".utf8)
        for count in 0...15 {
            for shift in 0..<alphabet.count {
                let utf8 = (0..<count).map { alphabet[($0 + shift) % alphabet.count] }
                // Built at run time (not a literal), as the simulation's strings are.
                let string = String(decoding: utf8, as: UTF8.self)
                let words = try #require(SmallASCII.words(string), "a \(count)-byte ASCII string is small")
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
            let words = try #require(SmallASCII.words(literal))
            #expect(bytes(words) == Array(literal.utf8))
            var copy = literal
            copy.append("")
            #expect(SmallASCII.words(copy).map(bytes) == Array(literal.utf8))
        }
    }

    @Test func refusesWhatIsNotSmallASCII() {
        // Sixteen bytes and more are never small; non-ASCII small strings have another nibble.
        #expect(SmallASCII.words("AutoGroupInsertion") == nil)
        #expect(SmallASCII.words(String(repeating: "x", count: 16)) == nil)
        #expect(SmallASCII.words(String(decoding: Array(repeating: UInt8(ascii: "y"), count: 40), as: UTF8.self)) == nil)
        #expect(SmallASCII.words("café") == nil)
        #expect(SmallASCII.words("Zürich") == nil)
        // A large native string holding few bytes (its storage was reserved) is not small either.
        var reserved = String()
        reserved.reserveCapacity(64)
        reserved.append("abc")
        if let words = SmallASCII.words(reserved) { #expect(bytes(words) == Array("abc".utf8)) }
    }
}
