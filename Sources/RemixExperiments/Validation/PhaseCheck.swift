import Foundation
import RemixKit
import RemixYAML

/// Checks an experiment's phases: starts strictly ascending and inside the schedule, weights one
/// per running variation adding up to 1, coverage between 0 and 1.
struct PhaseCheck {
    /// Every problem of `definition`'s phases.
    func problems(in definition: ExperimentDefinition) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        for (index, phase) in definition.phases.enumerated() {
            let name = "phase \(phase.number)"
            if index > 0, case let previous = definition.phases[index - 1], phase.start <= previous.start {
                problems.append(Diagnostic(phase.location(of: "start"), .error,
                                           "\(name) starts at \(Self.text(phase.start)), not after phase \(previous.number) "
                                           + "(\(Self.text(previous.start))); phases are listed in start order"))
            }
            if let schedule = definition.schedule {
                if let start = schedule.start, phase.start < start {
                    problems.append(Diagnostic(phase.location(of: "start"), .error,
                                               "\(name) starts at \(Self.text(phase.start)), before the schedule starts "
                                               + "(\(Self.text(start))); start it at the schedule's start or later"))
                }
                if let end = schedule.end, phase.start >= end {
                    problems.append(Diagnostic(phase.location(of: "start"), .error,
                                               "\(name) starts at \(Self.text(phase.start)), when the schedule has ended "
                                               + "(\(Self.text(end))); it would never assign anyone"))
                }
            }
            problems += weightProblems(phase, name: name)
            if let coverage = phase.coverage, !(0...1).contains(coverage) {
                problems.append(Diagnostic(phase.location(of: "coverage"), .error,
                                           "coverage must be between 0 and 1, not \(coverage)"))
            }
            if phase.running.isEmpty {
                problems.append(Diagnostic(phase.location(of: "variations"), .error,
                                           "\(name) runs no variation; list the keys of those it keeps running, "
                                           + "or leave 'variations' out to run them all"))
            } else if phase.running.count < 2, definition.variations.count >= 2 {
                problems.append(Diagnostic(phase.location(of: "variations"), .warning,
                                           "\(name) runs \(phase.running.count) variation\(phase.running.count == 1 ? "" : "s"); "
                                           + "everyone it includes gets the same one, so it compares nothing"))
            }
        }
        return problems
    }

    private func weightProblems(_ phase: ExperimentDefinition.Phase, name: String) -> [Diagnostic] {
        guard let weights = phase.writtenWeights else { return [] }
        let at = phase.location(of: "weights")
        guard weights.count == phase.running.count else {
            return [Diagnostic(at, .error, "\(weights.count) weights for the \(phase.running.count) variations \(name) runs; "
                               + "give one weight per running variation, in the order its 'variations' lists them")]
        }
        if weights.contains(where: { !$0.isFinite || $0 < 0 || $0 > 1 }) {
            return [Diagnostic(at, .error, "each weight must be between 0 and 1")]
        }
        let sum = weights.reduce(0, +)
        if sum < 0.99 || sum > 1.01 {
            return [Diagnostic(at, .error, "the weights of \(name) add up to \(NumberText.short(sum)), not 1; GrowthBook would "
                               + "ignore them and split equally among all variations, dropped ones too")]
        }
        return []
    }

    private static func text(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
