import RemixKit

/// The order in which a slot's rules are tried for a session, as a GrowthBook feature's: the rules
/// file's rules (force rules and the experiments it lists), then the slot's experiments it does not
/// list, in key order; without a rules file, the experiments in key order. The slot's default
/// feature comes after them all. Every command follows this one order: the slot chooser (`remix
/// run`, `simulate`, `assign`) and `remix export growthbook`.
package enum SlotRuleOrder {
    /// One rule as it is tried.
    package enum Step: Sendable {
        /// A force rule: `feature` with `parameters` fills the slot when `rule` applies.
        case force(feature: String, parameters: [String: ParameterValue], rule: FeatureRule)
        /// The experiment at this index among the slot's experiments (in key order).
        case experiment(Int)
    }

    /// The steps of a slot whose rules file is `rules` (nil: none) and whose experiments, in key
    /// order, are `experiments`.
    package static func steps(_ rules: SlotRules?, experiments: [ExperimentDefinition]) -> [Step] {
        guard let rules else { return experiments.indices.map(Step.experiment) }
        var listed = Set<Int>()
        var steps: [Step] = []
        for rule in rules.rules {
            switch rule {
            case .experiment(let key, _):
                if let index = experiments.firstIndex(where: { $0.key == key }), listed.insert(index).inserted {
                    steps.append(.experiment(index))
                }
            case .force(let feature, let parameters, let rule, _):
                steps.append(.force(feature: feature, parameters: parameters, rule: rule))
            }
        }
        return steps + experiments.indices.filter { !listed.contains($0) }.map(Step.experiment)
    }
}
