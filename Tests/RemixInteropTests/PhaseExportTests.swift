import Foundation
import RemixExperiments
import RemixInterop
import RemixKit
import RemixTestSupport
import Testing

/// `remix export growthbook --at` for experiments with phases: the phase in force, its coverage and
/// weights and `phase` as GrowthBook writes it; and GrowthBook's Python SDK agreeing with Remix on
/// every session in each phase's payload.
@Suite(.serialized) struct PhaseExportTests {
    static let experiment = """
        key: phased
        app: marketplace
        slot: insertion
        hashVersion: 2
        variations:
          - {key: manual, feature: ManualGroupInsertion}
          - {key: auto, feature: AutoGroupInsertion}
          - {key: alternating, feature: AlternatingInsertion}
        phases:
          - {start: 2026-12-01, coverage: 0.3, reason: ramp-up}
          - {start: 2026-12-05, weights: [0.5, 0.3, 0.2]}
          - {start: 2026-12-10, variations: [auto, manual], weights: [0.7, 0.3], coverage: 0.8, reason: drop alternating}
        """

    static func load() throws -> (ExperimentSet, FeatureRegistry, TemporaryFolder) {
        let folder = try TemporaryFolder()
        try folder.write("phased.yaml", experiment)
        let registry = try Fixtures.registry()
        return (Fixtures.load([folder.location], registry: registry), registry, folder)
    }

    static func rule(_ export: GrowthBookExport) -> AttributeValue? {
        export.payload["features"]?["marketplace.insertion"]?["rules"]?.arrayValue?.first
    }

    @Test func thePhaseInForceAtTheDateIsExported() throws {
        let (set, registry, _) = try Self.load()
        let first = try GrowthBookExport.make(set, registry: registry, at: Fixtures.date("2026-12-02"),
                                              phaseAt: Fixtures.date("2026-12-02"))
        #expect(Self.rule(first)?["phase"] == "0" && Self.rule(first)?["coverage"] == 0.3)
        #expect(Self.rule(first)?["weights"] == .array(GrowthBookHash.equalWeights(3).map { .number($0) }))
        let second = try GrowthBookExport.make(set, registry: registry, at: Fixtures.date("2026-12-06"),
                                               phaseAt: Fixtures.date("2026-12-06"))
        #expect(Self.rule(second)?["phase"] == "1" && Self.rule(second)?["coverage"] == 1)
        #expect(Self.rule(second)?["weights"] == [0.5, 0.3, 0.2])
        // A dropped variation stays in the rule (ids and meta line up) with weight 0.
        let third = try GrowthBookExport.make(set, registry: registry, at: Fixtures.december, phaseAt: Fixtures.december)
        #expect(Self.rule(third)?["phase"] == "2" && Self.rule(third)?["coverage"] == 0.8 && Self.rule(third)?["weights"] == [0.3, 0.7, 0])
        #expect(Self.rule(third)?["variations"]?.arrayValue?.count == 3)
        #expect(third.notes.map(\.message) == ["is exported in phase 2 (from 2026-12-10T00:00:00Z)"])
        // Before the first phase: left out.
        let before = try GrowthBookExport.make(set, registry: registry, at: Fixtures.november, phaseAt: Fixtures.november)
        #expect(Self.rule(before) == nil)
        #expect(before.notes.first?.message.contains("is left out: its first phase starts at 2026-12-01T00:00:00Z") == true)
        // Without --at: the latest phase, saying so.
        let latest = try GrowthBookExport.make(set, registry: registry, at: Fixtures.november)
        #expect(Self.rule(latest)?["phase"] == "2")
        #expect(latest.notes.first?.message.contains("its latest, which has not started at 2026-11-23T09:00:00Z") == true)
    }

    @Test(.enabled(if: GrowthBookPython.shouldRun, GrowthBookPython.skipReason))
    func theSDKAssignsEachPhaseAsRemixDoes() throws {
        let (set, registry, _) = try Self.load()
        let dates = ["2026-12-02", "2026-12-06", "2026-12-11"].map(Fixtures.date)
        let cases = AttributeSets.make(count: 1500)
        var payloads: [String: AttributeValue] = [:]
        for (index, date) in dates.enumerated() {
            payloads["phase\(index)"] = try GrowthBookExport.make(set, registry: registry, at: date, phaseAt: date).payload
        }
        let (_, results) = try GrowthBookPython.evaluate(.object(["payloads": .object(payloads), "cases": .array(cases.map(\.json))]))
        let definition = try #require(set.definition(key: "phased"))
        var mismatches: [String] = []
        var assigned = Array(repeating: [0, 0, 0], count: dates.count)
        for (phase, date) in dates.enumerated() {
            let evaluated = try #require(results["phase\(phase)"]?["marketplace.insertion"]?.arrayValue)
            for (index, item) in cases.enumerated() {
                let decision = ExperimentEvaluator(savedGroups: set.savedGroups).decide(definition, attributes: item.attributes, now: date)
                #expect(decision.phase == phase)
                let sdkVariation = evaluated[index]["inExperiment"]?.boolValue == true
                    ? evaluated[index]["variationId"]?.numberValue.map { Int($0) } : nil
                if let id = decision.variationId { assigned[phase][id] += 1 }
                if sdkVariation != decision.variationId {
                    mismatches.append("phase \(phase) case \(index): Remix \(decision.variationId.map(String.init) ?? "none"), "
                                      + "SDK \(sdkVariation.map(String.init) ?? "none")")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) disagreements: \(mismatches.prefix(5))")
        // Each phase exercised: the dropped variation gets nobody in phase 2.
        #expect(assigned[0].allSatisfy { $0 > 50 } && assigned[1].allSatisfy { $0 > 100 })
        #expect(assigned[2][2] == 0 && assigned[2][0] > 100 && assigned[2][1] > 300)
    }
}
