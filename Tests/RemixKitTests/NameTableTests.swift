@testable import RemixKit
import Testing

/// The registry's table of values by name.
@Suite struct NameTableTests {
    @Test func holdsManyNamesThroughItsGrowthAndReplacesAValueSetAgain() {
        var table = NameTable<Int>()
        let names = (0..<300).map { "Feature\($0)" } + ["", "é", "a long name that is not a small string", "🙂"]
        for (index, name) in names.enumerated() { table.set(index, for: name) }
        #expect(table.count == names.count)
        for (index, name) in names.enumerated() { #expect(table[name] == index) }
        table.set(-1, for: "Feature7")
        #expect(table["Feature7"] == -1 && table.count == names.count)
        #expect(table["Feature300"] == nil && table["feature7"] == nil && table["Feature"] == nil)
    }

    @Test func namesEqualAsStringsFindEachOther() {
        var table = NameTable<String>()
        table.set("composed", for: "caf\u{E9}")
        table.set("kelvin", for: "\u{212A}")
        table.set("root", for: "Discovery")
        // Canonically equivalent text is the same name, as in a dictionary of strings: a decomposed
        // é, and the Kelvin sign and the letter K.
        #expect(table["cafe\u{301}"] == "composed")
        #expect(table["K"] == "kelvin")
        table.set("letter", for: "K")
        #expect(table["\u{212A}"] == "letter" && table.count == 3)
        table.set("ascii first", for: "O")
        table.set("ohm", for: "\u{2126}")
        #expect(table["O"] == "ascii first" && table["\u{3A9}"] == "ohm" && table.count == 5)
        #expect(table[String(decoding: Array("Discovery".utf8), as: UTF8.self)] == "root")
    }
}
