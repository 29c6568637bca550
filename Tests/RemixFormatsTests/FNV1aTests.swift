import RemixFormats
import Testing

/// The one FNV-1a: its 32- and 64-bit forms give the published test vectors (Fowler, Noll and Vo's
/// reference values), whether fed at once, unit by unit or in pieces.
@Suite struct FNV1aTests {
    @Test(arguments: [("", UInt32(0x811C_9DC5), UInt64(0xCBF2_9CE4_8422_2325)),
                      ("a", 0xE40C_292C, 0xAF63_DC4C_8601_EC8C),
                      ("foobar", 0xBF9C_F968, 0x8594_4171_F739_67E8)])
    func publishedVectors(text: String, hash32: UInt32, hash64: UInt64) {
        #expect(FNV1a<UInt32>.hash(text.utf8) == hash32)
        #expect(FNV1a<UInt64>.hash(text.utf8) == hash64)
        var pieces = FNV1a<UInt64>()
        for character in text.utf8 { pieces.add(character) }
        #expect(pieces.value == hash64)
        let half = text.utf8.count / 2
        #expect(FNV1a<UInt64>.hash(text.utf8.dropFirst(half), continuing: FNV1a<UInt64>.hash(text.utf8.prefix(half))) == hash64)
    }

    @Test func hexHasSixteenDigits() {
        #expect(FNV1a<UInt64>.hex(Array("a".utf8)) == "af63dc4c8601ec8c")
        #expect(FNV1a<UInt64>.hex([UInt8]()) == "cbf29ce484222325")
    }
}
