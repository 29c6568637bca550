import Foundation
import RemixExperiments
import RemixKit
import Testing

/// Experiments with phases: reading `phases:`, `remix validate`'s checks with positions, and the
/// phase in force deciding sessions (and exposures saying which).
@Suite struct PhaseTests {
    static let three = ["{key: manual, feature: ManualGroupInsertion}", "{key: auto, feature: AutoGroupInsertion}",
                        "{key: alternating, feature: AlternatingInsertion}"]

    /// An experiment of three variations with `phases` (its lines start at line 9).
    static func experiment(_ phases: String, key: String = "k") -> String {
        Fixture.experiment(key, variations: three, phases)
    }

    static let twoPhases = """
        schedule: {start: 2026-12-01}
        phases:
          - {start: 2026-12-01, reason: launch}
          - {start: 2026-12-08, variations: [auto, manual], weights: [0.8, 0.2], coverage: 0.5, reason: drop alternating}
        """

    @Test func phasesAreReadWithTheirWeightsForEveryVariation() throws {
        let d = try Fixture.definition(Self.experiment(Self.twoPhases), file: "k.yaml")
        #expect(d.phases.count == 2)
        #expect(d.phases[0].running == [0, 1, 2] && d.phases[0].experiment.weights == nil && d.phases[0].reason == "launch")
        #expect(d.phases[0].weights == GrowthBookHash.equalWeights(3))
        // Weights pair with the keys in the order written; the dropped variation keeps its id with weight 0.
        #expect(d.phases[1].running == [1, 0] && d.phases[1].weights == [0.2, 0.8, 0])
        #expect(d.phases[1].experiment.coverage == 0.5 && d.phases[1].reason == "drop alternating")
        #expect(d.phaseIndex(at: DateParsing.parse("2026-11-30")!) == nil)
        #expect(d.phaseIndex(at: DateParsing.parse("2026-12-07T23:59:59Z")!) == 0)
        #expect(d.phaseIndex(at: DateParsing.parse("2026-12-08")!) == 1)
        // Without weights, a phase that drops variations splits equally among those it runs.
        let equal = try Fixture.definition(Self.experiment("phases:\n  - {start: 2026-12-01, variations: [manual, alternating]}"),
                                           file: "k.yaml")
        #expect(equal.phases[0].weights == [0.5, 0, 0.5])
        // A file without phases has none.
        #expect(try Fixture.definition(Fixture.experiment("k"), file: "k.yaml").phases.isEmpty)
    }

    @Test func validateReportsEachPhaseProblemAtItsPosition() throws {
        let folder = try ExperimentFolder()
        try folder.write("k.yaml", Self.experiment("""
            schedule: {start: 2026-12-01}
            phases:
              - {start: 2026-11-20}
              - {start: 2026-12-08, weights: [0.5, 0.25, 0.125]}
              - {start: 2026-12-05, variations: [auto, manul]}
              - {start: 2026-12-09, variations: [auto, manual], weights: [0.5, 0.4, 0.1]}
              - {start: 2026-12-10, variations: [auto], coverage: 2, reson: typo}
              - {start: 2026-12-11, variations: [auto, manual], weights: [0.7, 0.7]}
            """))
        let diagnostics = try folder.validate().diagnostics
        expectDiagnostic(diagnostics, at: "k.yaml:11:13", "phase 0 starts at 2026-11-20T00:00:00Z, before the schedule starts",
                         in: folder)
        expectDiagnostic(diagnostics, at: "k.yaml:12:34", "the weights of phase 1 add up to 0.875", in: folder)
        expectDiagnostic(diagnostics, at: "k.yaml:13:44", "unknown variation 'manul' (did you mean 'manual'?)", in: folder)
        expectDiagnostic(diagnostics, at: "k.yaml:14:62", "3 weights for the 2 variations phase 3 runs", in: folder)
        expectDiagnostic(diagnostics, at: "k.yaml:15:58", "unknown key 'reson' in a phase; did you mean 'reason'?", in: folder)
        expectDiagnostic(diagnostics, at: "k.yaml:16:62", "the weights of phase 5 add up to 1.4", in: folder)
        // A phase with a problem that stops it being read is left out; the others keep their numbers.
        #expect(!diagnostics.contains { $0.message.contains("not after") })
        try folder.write("k.yaml", Self.experiment("""
            phases:
              - {start: 2026-12-08}
              - {start: 2026-12-08, variations: [auto], coverage: 1.5}
            """))
        let second = try folder.validate().diagnostics
        expectDiagnostic(second, at: "k.yaml:11:13", "phase 1 starts at 2026-12-08T00:00:00Z, not after phase 0", in: folder)
        expectDiagnostic(second, at: "k.yaml:11:55", "coverage must be between 0 and 1, not 1.5", in: folder)
        expectDiagnostic(second, at: "k.yaml:11:37", .warning, "phase 1 runs 1 variation", in: folder)
        try folder.write("k.yaml", Self.experiment("schedule: {end: 2026-12-01}\nphases:\n  - {start: 2026-12-01}"))
        let third = try folder.validate().diagnostics
        expectDiagnostic(third, at: "k.yaml:11:13", "when the schedule has ended", in: folder)
        try folder.write("k.yaml", Self.experiment("phases:\n  - {start: 2026-12-01, variations: []}"))
        expectDiagnostic(try folder.validate().diagnostics, at: "k.yaml:10:37", "phase 0 runs no variation", in: folder)
        try folder.write("k.yaml", Self.experiment("phases: []"))
        expectDiagnostic(try folder.validate().diagnostics, at: "k.yaml:9:9", "phases is empty", in: folder)
    }

    @Test func theShippedKindOfFileWithPhasesValidatesCleanly() throws {
        let folder = try ExperimentFolder()
        try folder.write("k.yaml", Self.experiment(Self.twoPhases))
        #expect(try folder.validate().diagnostics.filter { $0.severity == .error }.isEmpty)
    }

    @Test func theSessionMeetsThePhaseInForceAtItsTime() throws {
        let d = try Fixture.definition(Self.experiment(Self.twoPhases), file: "k.yaml")
        let evaluator = ExperimentEvaluator()
        let before = evaluator.decide(d, attributes: ["id": "u1"], now: DateParsing.parse("2026-11-30")!)
        #expect(!before.inExperiment && before.phase == nil && before.hasPhases && before.rule == "schedule")
        var counts: [String: Int] = [:]
        var first: [String: Int] = [:]
        for index in 0..<600 {
            let id = AttributeValue.string("user-\(index)")
            let early = evaluator.decide(d, attributes: ["id": id], now: DateParsing.parse("2026-12-02")!)
            #expect(early.inExperiment && early.phase == 0)
            first[early.variation ?? "-", default: 0] += 1
            let late = evaluator.decide(d, attributes: ["id": id], now: DateParsing.parse("2026-12-09")!)
            #expect(late.phase == 1)
            if late.inExperiment {
                // Phase 1's ranges: manual [0, 0.1), auto [0.1, 0.5) at coverage 0.5.
                let bucket = try #require(late.bucket)
                #expect(late.variation == (bucket < 0.1 ? "manual" : "auto"))
            } else {
                #expect(late.rule == "coverage")
            }
            counts[late.variation ?? "not in", default: 0] += 1
        }
        #expect(first.keys.sorted() == ["alternating", "auto", "manual"])
        #expect(counts["alternating"] == nil && (counts["manual"] ?? 0) > 30 && (counts["auto"] ?? 0) > 170)
        #expect((counts["not in"] ?? 0) > 250)
    }

    @Test func beforeTheFirstPhaseNobodyIsIn() throws {
        let d = try Fixture.definition(Self.experiment("phases:\n  - {start: 2026-12-08}"), file: "k.yaml")
        let decision = ExperimentEvaluator().decide(d, attributes: ["id": "u1"], now: DateParsing.parse("2026-12-07")!)
        #expect(!decision.inExperiment && decision.rule == "phase" && decision.phase == nil && decision.variation == nil)
        #expect(decision.reason == "not in experiment: the session's time is before its first phase starts")
        let forced = ExperimentEvaluator().decide(d, attributes: ["id": "u1"], now: DateParsing.parse("2026-12-07")!,
                                                  forcedVariation: 2)
        #expect(forced.inExperiment && forced.variation == "alternating")
    }

    @Test func exposuresCarryThePhaseOnlyWhenTheExperimentHasPhases() throws {
        let phased = try Fixture.definition(Self.experiment(Self.twoPhases), file: "k.yaml")
        let plain = try Fixture.definition(Fixture.experiment("p"), file: "p.yaml")
        let evaluator = ExperimentEvaluator()
        let at = DateParsing.parse("2026-12-09")!
        let event = ExposureEvent.make(evaluator.decide(phased, attributes: ["id": "u1"], now: at), filledBy: "X")
        #expect(event.fields.last?.name == "phase" && event["phase"] == .int(1))
        let early = ExposureEvent.make(evaluator.decide(phased, attributes: ["id": "u1"], now: DateParsing.parse("2026-11-01")!),
                                       filledBy: "X")
        #expect(early["phase"] == .null && early["inExperiment"] == .bool(false))
        let none = ExposureEvent.make(evaluator.decide(plain, attributes: ["id": "u1"], now: at), filledBy: "X")
        #expect(!none.fields.contains { $0.name == "phase" })
        let json = DecisionReport.json(evaluator.decide(phased, attributes: ["id": "u1"], now: at))
        #expect(json.contains("\"phase\":1"))
        #expect(!DecisionReport.json(evaluator.decide(plain, attributes: ["id": "u1"], now: at)).contains("phase"))
    }

    @Test func anExposureThatEnteredItsExperimentIsReadWhereverItsFieldsAre() throws {
        let phased = try Fixture.definition(Self.experiment(Self.twoPhases), file: "k.yaml")
        let evaluator = ExperimentEvaluator()
        let inside = evaluator.decide(phased, attributes: ["id": "u1"], now: DateParsing.parse("2026-12-09")!)
        let event = ExposureEvent.make(inside, filledBy: "X")
        let entered = try #require(ExposureEvent.entered(event))
        #expect(entered.experiment == "k" && entered.variation == inside.variation && entered.feature == inside.feature ?? "X")
        // The same fields in another order, as a sink may be handed them, are read by name.
        let reordered = DomainEvent(ExposureEvent.name, event.fields.reversed())
        #expect(ExposureEvent.entered(reordered).map { [$0.experiment, $0.variation, $0.feature ?? ""] }
            == [entered.experiment, entered.variation, entered.feature ?? ""])
        let early = ExposureEvent.make(evaluator.decide(phased, attributes: ["id": "u1"], now: DateParsing.parse("2026-11-01")!),
                                       filledBy: "X")
        #expect(ExposureEvent.entered(early) == nil)
        #expect(ExposureEvent.entered(DomainEvent("insertion_started", event.fields)) == nil)
    }
}
