import Foundation
import RemixCLITestSupport
import RemixTestSupport
import Testing

/// `remix validate` warns of an attribute name no session of the experiment's app has — neither the
/// app declares it nor a population file draws it — where a condition, a hash attribute or a rules
/// file names it, with the nearest name: a typo such as `platfrom` silently includes nobody.
@Suite struct AttributeNameCheckTests {
    /// The shipped population with one more attribute, `tier`.
    static func population() throws -> String {
        let shipped = try String(contentsOfFile: Fixture.repoRoot.path + "/experiments/population.yaml", encoding: .utf8)
        return shipped.replacingOccurrences(of: "attributes:                     # drawn per user; 'id' is the simulated user's id\n",
                                            with: "attributes:\n  tier: {gold: 0.1, plain: 0.9}\n")
    }

    @Test func aMisspeltConditionAttributeIsAWarningWithTheNearestName() async throws {
        let folder = try ExperimentFolder()
        try folder.write("k.yaml", Fixture.experiment("k", "condition: {platfrom: tablet, $or: [{contry: GB}, {tier: gold}]}"))
        try folder.write("tiers.population.yaml", try Self.population())
        let result = await RemixInProcess.run(["validate", folder.path])
        #expect(result.status == 0, "warnings only: \(result.stderr)")
        let known = "(known attributes: appVersion, country, id, platform, tier)"
        #expect(result.stderr == """
            \(folder.path)/k.yaml:8:13: warning: no marketplace session has the attribute 'platfrom' (the app does not declare \
            it and no population file draws it), so the condition sees it missing; did you mean 'platform'? \(known)
            \(folder.path)/k.yaml:8:38: warning: no marketplace session has the attribute 'contry' (the app does not declare \
            it and no population file draws it), so the condition sees it missing; did you mean 'country'? \(known)

            """, "\(result.stderr)")
        #expect(result.stdout == "1 experiment, 0 errors, 2 warnings\n")
    }

    @Test func hashAttributesAndRulesFilesAreCheckedToo() async throws {
        let folder = try ExperimentFolder()
        try folder.write("k.yaml", Fixture.experiment("k", "hashAttribute: userid"))
        try folder.write("insertion.rules.yaml", """
            app: marketplace
            slot: insertion
            rules:
              - {force: {feature: ManualGroupInsertion}, condition: {countyr: GB}, fallbackAttribute: platfom}
            """)
        let result = await RemixInProcess.run(["validate", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(result.stderr)")
        #expect(lines.contains { $0.hasPrefix("\(folder.path)/insertion.rules.yaml:4:58: warning: no marketplace session has the "
                                              + "attribute 'countyr'") && $0.contains("did you mean 'country'?") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(folder.path)/insertion.rules.yaml:4:91: warning: no marketplace session has the "
                                              + "attribute 'platfom'") && $0.contains("did you mean 'platform'?") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("\(folder.path)/k.yaml:8:16: warning: no marketplace session has the attribute "
                                              + "'userid'") && $0.contains("no session can be hashed: nobody is assigned") }, "\(lines)")
    }

    @Test func theShippedExperimentsNameOnlyAttributesTheirSessionsHave() async throws {
        let result = await RemixInProcess.run(["validate"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.hasSuffix(", 0 errors, 0 warnings\n"), "\(result.stdout)")
    }
}
