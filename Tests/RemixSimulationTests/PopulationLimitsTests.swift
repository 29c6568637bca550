import RemixSimulation
import RemixTestSupport
import RemixYAML
import Testing

/// A hostile population file meets RemixYAML's limits (issues 16 and 21): an alias bomb, runaway
/// nesting and a huge file are one clear error at their position, never a hang or a crash.
@Suite struct PopulationLimitsTests {
    static func problems(_ text: String) -> [String] {
        let (population, problems) = PopulationFile.parse(text, file: "pop.yaml")
        #expect(population == nil)
        return problems.map(\.description)
    }

    @Test func anAliasBombIsAnErrorNotAnExpansion() {
        var lines = ["app: marketplace", "adverts:", "  a0: &a0 [x,x,x,x,x,x,x,x,x,x]"]
        for level in 1...8 {
            lines.append("  a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ",") + "]")
        }
        let problems = Self.problems((lines + ["personas: *a8"]).joined(separator: "\n"))
        #expect(problems.count == 1)
        #expect(problems.first?.contains("makes the document too large") == true, "\(problems)")
    }

    @Test func deepNestingIsAnError() {
        let problems = Self.problems("app: marketplace\npersonas: " + String(repeating: "[", count: 5000))
        #expect(problems.count == 1)
        #expect(problems.first?.contains("nest more than \(YAMLLimits.maxDepth) levels deep") == true, "\(problems)")
    }

    @Test func aFileOverTheSizeLimitIsRefusedAtItsStart() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("huge-population.yaml",
                                    "app: marketplace\n# " + String(repeating: "x", count: YAMLLimits.maxBytes))
        let (population, problems) = PopulationFile.load(path: path)
        #expect(population == nil)
        #expect(problems.map(\.description).first?.hasPrefix("\(path):1:1: error: cannot read the population file: "
                                                                + "the file has") == true, "\(problems.map(\.description))")
    }
}
