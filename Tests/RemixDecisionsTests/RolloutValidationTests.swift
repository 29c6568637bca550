import Foundation
import RemixApp
import RemixTestSupport
import Testing

/// `remix validate` on rollout files: every problem at its file:line:column.
@Suite struct RolloutValidationTests {
    /// The diagnostics of one experiment file with `body` under the usual header.
    static func problems(_ body: String) async throws -> [String] {
        try await ValidationFixture.problems(file: "auto-rollout.yaml", "key: auto-rollout\napp: marketplace\nslot: insertion\nhashVersion: 2\n" + body)
    }

    @Test func aGoodRolloutHasNoProblem() async throws {
        #expect(try await Self.problems("rollout:\n  feature: AutoGroupInsertion\n  steps: [0.1, 1.0]\n  stepHours: 2\n  guardrails: [cancelled]\n") == [])
    }

    @Test func stepsThatDoNotAscendAreAnErrorAtTheStep() async throws {
        let problems = try await Self.problems("rollout:\n  feature: AutoGroupInsertion\n  steps: [0.5, 0.25]\n  stepHours: 2\n  guardrails: [cancelled]\n")
        #expect(problems == ["auto-rollout.yaml:7:16: error: steps must ascend: 0.25 follows 0.5; give each step a larger share than the one before"])
    }

    @Test func aShareOutsideZeroToOneIsAnError() async throws {
        let problems = try await Self.problems("rollout:\n  feature: AutoGroupInsertion\n  steps: [0, 0.5]\n  stepHours: 2\n  guardrails: [cancelled]\n")
        #expect(problems == ["auto-rollout.yaml:7:11: error: a step's share must be in (0, 1], not 0.0"])
    }

    @Test func noGuardrailIsAnError() async throws {
        let problems = try await Self.problems("rollout:\n  feature: AutoGroupInsertion\n  steps: [0.5, 1]\n  stepHours: 2\n  guardrails: []\n")
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("auto-rollout.yaml:9:15: error: a rollout needs at least one guardrail") == true, "\(problems)")
    }

    @Test func stepHoursMustBePositive() async throws {
        let problems = try await Self.problems("rollout:\n  feature: AutoGroupInsertion\n  steps: [0.5, 1]\n  stepHours: 0\n  guardrails: [cancelled]\n")
        #expect(problems.first?.hasPrefix("auto-rollout.yaml:8:14: error: stepHours must be at least one minute") == true, "\(problems)")
    }

    @Test func anUnknownFeatureIsAnErrorAtTheFeature() async throws {
        let problems = try await Self.problems("rollout:\n  feature: AutoGroupInsertio\n  steps: [0.5, 1]\n  stepHours: 2\n  guardrails: [cancelled]\n")
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("auto-rollout.yaml:6:12: error:") == true, "\(problems)")
        #expect(problems.first?.contains("AutoGroupInsertion") == true, "the nearest name is suggested: \(problems)")
    }

    @Test func anUnknownGuardrailIsAnErrorAtTheGuardrail() async throws {
        let problems = try await Self.problems("rollout:\n  feature: AutoGroupInsertion\n  steps: [0.5, 1]\n  stepHours: 2\n  guardrails: [canceled]\n")
        #expect(problems.contains { $0.hasPrefix("auto-rollout.yaml:9:16: error:") }, "\(problems)")
    }

    @Test func aGuardrailNamedByItsEventIsAWarningThatItHasNoDirection() async throws {
        let problems = try await Self.problems(
            "rollout:\n  feature: AutoGroupInsertion\n  steps: [0.5, 1]\n  stepHours: 2\n  guardrails: [insertion_cancelled]\n")
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("auto-rollout.yaml:9:16: warning: guardrail 'insertion_cancelled' is an event with no "
                                          + "declared direction") == true, "\(problems)")
    }

    @Test func anEmptyRolloutIsAnError() async throws {
        #expect(try await Self.problems("rollout:\n") == ["auto-rollout.yaml:5:9: error: 'rollout' is empty; an experiment needs it"])
    }

    @Test func variationsOrWeightsBesideARolloutAreErrors() async throws {
        let rollout = "rollout:\n  feature: AutoGroupInsertion\n  steps: [0.5, 1]\n  stepHours: 2\n  guardrails: [cancelled]\n"
        let withVariations = try await Self.problems(rollout + "variations:\n  - {key: a, feature: ManualGroupInsertion}\n")
        #expect(withVariations.contains { $0.hasPrefix("auto-rollout.yaml:11:3: error: a rollout experiment has no variations") }, "\(withVariations)")
        let withWeights = try await Self.problems(rollout + "weights: [0.5, 0.5]\n")
        #expect(withWeights.contains { $0.hasPrefix("auto-rollout.yaml:10:10: error: a rollout sets its own weights") }, "\(withWeights)")
    }

    @Test func phasesBesideARolloutAreAnError() async throws {
        let rollout = "rollout:\n  feature: AutoGroupInsertion\n  steps: [0.5, 1]\n  stepHours: 2\n  guardrails: [cancelled]\n"
        let withPhases = try await Self.problems(rollout + "phases:\n  - {start: 2026-12-01, coverage: 0.5}\n")
        #expect(withPhases.contains { $0.hasPrefix("auto-rollout.yaml:11:3: error: a rollout changes by its steps") }, "\(withPhases)")
    }
}
