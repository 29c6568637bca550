@testable import RemixAnalysis
import RemixExperiments
import RemixFormats
@testable import RemixStatistics
import Testing

/// The pieces the terminal report is laid out with.
@Suite struct TextLayoutTests {
    @Test func wrapBreaksAtSpacesWithAHangingIndent() {
        #expect(TextLayout.wrap("short", width: 10) == ["short"])
        #expect(TextLayout.wrap("one two three four", width: 9) == ["one two", "  three", "  four"])
        #expect(TextLayout.wrap("  a bb cc dd", width: 8) == ["  a bb", "    cc", "    dd"])
        #expect(TextLayout.wrap("label      text that goes on", width: 24, indent: 11) == ["label      text that", "           goes on"])
        // A word longer than a line is cut where the line ends; no line is ever longer.
        let cut = TextLayout.wrap("x abcdefghijklmnop", width: 6)
        #expect(cut == ["x", "  abcd", "  efgh", "  ijkl", "  mnop"])
        for width in 4...30 {
            let text = "insertion-flow: primary advert_published · SRM p = 0.1963 · multiple-exposure units excluded: 0"
            let lines: [String] = TextLayout.wrap(text, width: width)
            #expect(lines.allSatisfy { (line: String) -> Bool in line.count <= width }, "\(width): \(lines)")
            let wrappedWords: String = lines.joined(separator: " ").split(separator: " ").joined()
            let words: String = text.split(separator: " ").joined()
            #expect(wrappedWords == words)
        }
    }

    @Test func blocksCarryEveryCellWithItsHeading() {
        let rows = [["variation", "metric", "lift", "p", ""], ["auto", "published", "+21.3%", "0.0001", "WINNER"],
                    ["alt", "published", "-1.9%", "0.7399", ""]]
        #expect(TextLayout.columns(rows) == ["variation  metric     lift    p", "auto       published  +21.3%  0.0001  WINNER",
                                            "alt        published  -1.9%   0.7399"])
        #expect(TextLayout.blocks(rows, keys: 2, width: 40) == [["auto · published — WINNER", "  lift: +21.3% · p: 0.0001"],
                                                                ["alt · published", "  lift: -1.9% · p: 0.7399"]])
        #expect(TextLayout.blocks(rows, keys: 2, width: 20) == [["auto · published —", "  WINNER", "  lift: +21.3%", "  p: 0.0001"],
                                                                ["alt · published", "  lift: -1.9%", "  p: 0.7399"]])
    }

    @Test func numbersReadAsWritten() {
        #expect(NumberText.short(0.3 + 0.3 + 0.3) == "0.9" && NumberText.short(1) == "1" && NumberText.short(0.25) == "0.25")
        #expect(LiftText.signedPercent(0.03) == "+3.00 %" && LiftText.signedPercent(-0.05) == "-5.00 %")
        #expect(LiftText.signedPercent(1e308) == "+1e+310 %" && LiftText.signedPercent(-1.5e307) == "-1.5e+309 %")
        #expect(LiftText.signedPercent(1e-9) == "+1e-07 %" && LiftText.signedPercent(2e4) == "+2e+06 %")
    }
}
