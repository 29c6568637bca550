import Foundation
import RemixBuiltIns
import RemixHost
import RemixKit
@testable import RemixSimulation
import RemixTestSupport
import Testing

/// `effects:` in a population file: how a feature changes what users do, read with positioned
/// problems, checked against the registered features, and applied only to exposed sessions.
@Suite struct PopulationEffectsTests {
    static func shipped(plus effects: String) throws -> String {
        try String(contentsOfFile: Fixture.populationPath, encoding: .utf8) + "\neffects:\n" + effects
    }

    @Test func effectsAreReadWithTheirProblemsPositioned() throws {
        let (population, problems) = PopulationFile.parse(try Self.shipped(plus: """
              - feature: ManualGroupInsertion
                personas: [decisive seller]
                abandon: {title: 0.5, default: 0.9}
                typos: 2
            """), file: "p.yaml")
        #expect(problems.isEmpty, "\(problems)")
        let effect = try #require(population?.effects.first)
        #expect(effect.feature.value == "ManualGroupInsertion" && effect.personas == ["decisive seller"])
        #expect(effect.abandon == ["title": 0.5] && effect.abandonElsewhere == 0.9 && effect.typos == 2 && effect.retryAfterError == 1)
        let bad = PopulationFile.parse(try Self.shipped(plus: """
              - {feature: ManualGroupInsertion, personas: [decisive seler]}
              - {feature: ManualGroupInsertion, abandon: {title: -1}}
              - {feature: ManualGroupInsertion, tyops: 2}
            """), file: "p.yaml").1.map(\.description)
        #expect(bad.contains { $0.contains("no persona is called 'decisive seler'; did you mean 'decisive seller'?") }, "\(bad)")
        #expect(bad.contains { $0.contains("abandon.title is a factor on a chance, 0 or more") })
        #expect(bad.contains { $0.contains("unknown key 'tyops' in an effect; did you mean 'typos'?") })
    }

    @Test func anUnregisteredFeatureIsAPositionedError() throws {
        let population = try Fixture.population(yaml: try Self.shipped(plus: "  - {feature: AutoGroupInsertoin, typos: 2}\n"))
        let registry = try BuiltInModules.registry()
        let problems = PopulationCheck.problems(population, app: try registry.app(named: "marketplace"),
                                                events: registry.declaredEvents.map(\.name), features: registry.features.map(\.name))
        #expect(problems.map(\.description).contains { $0.contains("no registered feature is called 'AutoGroupInsertoin'; did you mean 'AutoGroupInsertion'?") },
                "\(problems)")
    }

    /// Factors of 1 change nothing, to the byte; halving the manual flow's abandonment makes its
    /// users publish more, and only theirs.
    @Test func effectsChangeOnlyTheExposedArm() throws {
        let folder = try TemporaryFolder()
        let none = folder.path("none.jsonl"), neutral = folder.path("neutral.jsonl"), halved = folder.path("halved.jsonl")
        try Fixture.run(sessions: 600, to: none)
        try Fixture.run(sessions: 600, population: try Fixture.population(yaml: try Self.shipped(plus:
            "  - {feature: ManualGroupInsertion, abandon: {default: 1}, typos: 1, retryAfterError: 1}\n")), to: neutral)
        #expect(FileManager.default.contentsEqual(atPath: none, andPath: neutral))
        try Fixture.run(sessions: 600, population: try Fixture.population(yaml: try Self.shipped(plus:
            "  - {feature: ManualGroupInsertion, abandon: {default: 0}}\n")), to: halved)
        func cancelled(_ path: String, feature: String) throws -> Int {
            let lines = try readLog(path)
            let sessions = Set(lines.filter { $0.type == "exposure" && ($0["feature"] as? String) == feature
                && ($0["inExperiment"] as? Bool) == true }.map(\.session))
            return lines.filter { $0.type == "session_ended" && sessions.contains($0.session) && ($0["outcome"] as? String) == "abandoned" }.count
        }
        #expect(try cancelled(none, feature: "ManualGroupInsertion") > 0)
        #expect(try cancelled(halved, feature: "ManualGroupInsertion") == 0)
        #expect(try cancelled(halved, feature: "AutoGroupInsertion") == (try cancelled(none, feature: "AutoGroupInsertion")))
    }
}
