import RemixFormats
import Testing

/// `Array(filledWith:count:)` makes what `Array(repeating:count:)` makes.
@Suite struct FilledArrayTests {
    @Test(arguments: [0, 1, 7, 24, 1000])
    func filledArraysEqualRepeatedOnes(count: Int) {
        #expect([UInt64](filledWith: 42, count: count) == [UInt64](repeating: 42, count: count))
        let pairs = [(name: String, value: Int)](filledWith: ("a name longer than fifteen bytes", 3), count: count)
        #expect(pairs.count == count)
        #expect(pairs.allSatisfy { $0.name == "a name longer than fifteen bytes" && $0.value == 3 })
    }
}
