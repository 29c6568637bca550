import RemixExperiments
import Testing

/// Inputs the fuzz targets found (Tests/Fuzz/README.md), kept as regression tests.
@Suite struct FuzzFindingTests {
    /// FuzzExperimentFile: a required key with nothing after it (`variations:`) was dropped with no
    /// diagnostic, so `remix validate` said "0 experiments, 0 errors" for a broken file.
    @Test(arguments: ["key", "app", "slot", "variations"])
    func anEmptyRequiredKeyIsAnError(key: String) {
        var fields = ["key": "k", "app": "marketplace", "slot": "insertion",
                      "variations": "[{key: a, feature: ManualGroupInsertion}, {key: b, feature: AutoGroupInsertion}]"]
        fields[key] = ""
        let text = ["key", "app", "slot", "variations"].map { "\($0): \(fields[$0] ?? "")" }.joined(separator: "\n") + "\n"
        let (definition, problems) = ExperimentFileParser.parse(text, file: "f.yaml")
        #expect(definition == nil)
        #expect(problems.map(\.description).contains { $0.contains("error: '\(key)' is empty; an experiment needs it") },
                "\(problems)")
    }
}
