import Foundation
import RemixYAML
import Testing

/// The bounds of the shared YAML reader (issue 21): alias expansion, nesting depth, node count
/// and size are errors at their position, measured without building the document.
@Suite struct YAMLLimitsTests {
    /// `a0` holds ten scalars and each `aN` ten aliases of `aN-1`: `aN` expands to 10^(N+1) leaves.
    static func laughs(_ levels: Int, use: String) -> String {
        var lines = ["anchors:", "  a0: &a0 [x,x,x,x,x,x,x,x,x,x]"]
        for level in 1...levels {
            lines.append("  a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ",") + "]")
        }
        return (lines + [use]).joined(separator: "\n")
    }

    private func parseError(_ text: String) -> String? {
        do {
            _ = try YAMLValue.parse(text, file: "f.yaml")
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aBillionLaughsIsAnErrorAtTheAliasThatCrossesTheBudget() throws {
        // 10^9 leaves behind one alias in 1 kB: measured, never expanded.
        let error = try #require(parseError(Self.laughs(8, use: "condition: {platform: {$in: *a8}}")))
        #expect(error.hasPrefix("f.yaml:5:48: error: alias '*a2' makes the document too large: with aliases "
                                + "expanded it has more than 11700 nodes (the limit is 100 times the 117 nodes written, "
                                + "at least 10000 and at most 1000000); write the values out or nest fewer aliases"),
                "\(error)")
    }

    @Test func aliasesAsMappingKeysAreMeasuredBeforeYamsHashesThem() throws {
        let error = try #require(parseError(Self.laughs(8, use: "? *a8\n: 1")))
        #expect(error.contains("makes the document too large"), "\(error)")
    }

    @Test func ordinaryAliasesStayWithinTheBudget() throws {
        let text = """
            defaults: &defaults {weight: 1, thinkSeconds: [1, 3], abandon: {groups: 0.1}}
            personas:
            \((0..<50).map { "  - {name: p\($0), settings: *defaults}" }.joined(separator: "\n"))
            """
        let personas = try YAMLValue.parse(text, file: "f.yaml").mapping()["personas"]?.sequence()
        #expect(personas?.count == 50)
        // Far more than 100 times the nodes written, but under the floor of 10 000.
        #expect(parseError(Self.laughs(2, use: "all: [*a2, *a2, *a2, *a2, *a2]")) == nil)
    }

    @Test func nestingDeeperThanTheLimitIsAnError() throws {
        let deep = { (levels: Int) in "v: " + String(repeating: "[", count: levels) + String(repeating: "]", count: levels) }
        #expect(parseError(deep(YAMLLimits.maxDepth - 1)) == nil)  // the root mapping is a level too
        #expect(parseError(deep(YAMLLimits.maxDepth)) == "f.yaml:1:103: error: mappings and lists nest more than 100 "
                + "levels deep, the most a YAML file may have; flatten the structure")
        // Past libyaml's own bound (1 000) the message is the same.
        #expect(parseError(deep(5000))?.contains("nest more than 100 levels deep") == true)
    }

    @Test func aliasesCountWithTheDepthOfWhatTheyRepeat() throws {
        let chain = ["x0: &x0 [a]"] + (1..<120).map { "x\($0): &x\($0) [*x\($0 - 1)]" }
        let error = try #require(parseError(chain.joined(separator: "\n")))
        #expect(error.hasPrefix("f.yaml:100:12: error: alias '*x98' repeats nodes that nest more than 100 levels deep"),
                "\(error)")
    }

    @Test func aDocumentOfMoreThanAMillionNodesIsAnError() throws {
        let text = "v: [" + String(repeating: "x,", count: YAMLLimits.maxNodes) + "x]"
        let error = try #require(parseError(text))
        #expect(error.hasPrefix("f.yaml:1:1999999: error: the document has more than 1000000 nodes"), "\(error)")
    }

    @Test func textLargerThanTheLimitIsAnErrorAtTheStart() throws {
        let text = "v: " + String(repeating: "x", count: YAMLLimits.maxBytes)
        #expect(parseError(text) == "f.yaml:1:1: error: the file has 16777219 bytes; a YAML file may have at most "
                + "16777216 (16 MiB): split it into smaller files")
    }
}
