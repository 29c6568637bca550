import Foundation
import RemixExperiments
import RemixKit
import Testing

/// How a rollout assigns sessions as its share grows, and after a rollback.
@Suite struct RolloutAssignmentTests {
    static func definition(step: Int, rolledBack: Bool = false) throws -> ExperimentDefinition {
        let (parsed, problems) = ExperimentFileParser.parse(RolloutFixture.rollout, file: "auto-rollout.yaml")
        #expect(problems.isEmpty)
        var definition = try #require(parsed)
        definition.rollout?.step = step
        definition.rollout?.rolledBack = rolledBack
        definition.experiment.coverage = definition.rollout?.share
        return definition
    }

    @Test func aUserKeepsTheirArmAsTheShareGrowsAndNobodyIsInAfterARollback() throws {
        let evaluator = ExperimentEvaluator()
        let steps = try (0..<3).map { try Self.definition(step: $0) }
        let rolledBack = try Self.definition(step: 1, rolledBack: true)
        let now = Date(timeIntervalSince1970: 1_795_424_400)
        var inAtStep = [0, 0, 0]
        for index in 0..<4_000 {
            let attributes: [String: AttributeValue] = ["id": .string("user-\(index)")]
            let decisions = steps.map { evaluator.decide($0, attributes: attributes, now: now) }
            for (step, decision) in decisions.enumerated() where decision.inExperiment {
                inAtStep[step] += 1
                // In at this step: in, in the same arm, at every larger share.
                for later in decisions[step...] {
                    #expect(later.inExperiment && later.variation == decision.variation)
                }
                #expect(decision.rolloutStep == step + 1 && decision.rolloutShare == steps[step].rollout?.share)
            }
            let back = evaluator.decide(rolledBack, attributes: attributes, now: now)
            #expect(!back.inExperiment && back.feature == nil && back.rule == "rolledBack")
        }
        // Coverage 0.25, 0.5, 1 of 4 000 users, within a few standard deviations.
        #expect(abs(inAtStep[0] - 1_000) < 120 && abs(inAtStep[1] - 2_000) < 150 && inAtStep[2] == 4_000, "\(inAtStep)")
    }
}
