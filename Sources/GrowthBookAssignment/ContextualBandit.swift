/// A contextual bandit as GrowthBook's SDK payload carries it (`contextualBandits`, keyed by the
/// rules' `contextualBanditRef`): leaves tried in order, each with a condition over attributes
/// and its own weights; the first matching leaf gives the rule's weights (docs/bandits.md).
package struct ContextualBandit: Sendable {
    /// One leaf: its id, the attributes it covers (none: everyone) and the weights it learned.
    package struct Leaf: Sendable {
        package var leafId: Int
        package var condition: Condition?
        package var weights: [Double]

        package init(leafId: Int, condition: Condition?, weights: [Double]) {
            self.leafId = leafId
            self.condition = condition
            self.weights = weights
        }
    }

    package var banditVersion: Int?
    package var contexts: [Leaf]

    package init(banditVersion: Int?, contexts: [Leaf]) {
        self.banditVersion = banditVersion
        self.contexts = contexts
    }

    /// A bandit from its JSON object, as leniently as the SDKs read it.
    package init(json: AttributeValue) {
        banditVersion = json["banditVersion"]?.numberValue.map { $0.isFinite && abs($0) < 1e15 ? Int($0) : -1 }
        contexts = (json["contexts"]?.arrayValue ?? []).compactMap { leaf in
            guard let id = leaf["leafId"]?.numberValue, id.isFinite, abs(id) < 1e15 else { return nil }
            return Leaf(leafId: Int(id), condition: leaf["condition"].flatMap { $0.isTruthy ? Condition(parsing: $0) : nil },
                        weights: (leaf["weights"]?.arrayValue ?? []).compactMap(\.numberValue))
        }
    }

    /// Every bandit of a payload's `contextualBandits` object, by key.
    package static func bandits(json: AttributeValue) -> [String: ContextualBandit] {
        (json.objectValue ?? [:]).mapValues(ContextualBandit.init(json:))
    }
}

/// The leaf that decided a contextual bandit rule's weights (GrowthBook's result fields):
/// `leafId` −1 when no leaf matched (the rule's marginal weights).
package struct ContextualBanditChoice: Sendable, Equatable {
    package var leafId: Int
    package var variationWeights: [Double]
    package var banditVersion: Int?
}

extension ContextualBandit {
    /// The first leaf whose condition `context` satisfies, else leaf −1 with `marginal` weights.
    func choice(for context: AssignmentContext, marginal: [Double]) -> ContextualBanditChoice {
        for leaf in contexts where context.satisfies(leaf.condition) {
            return ContextualBanditChoice(leafId: leaf.leafId, variationWeights: leaf.weights, banditVersion: banditVersion)
        }
        return ContextualBanditChoice(leafId: -1, variationWeights: marginal, banditVersion: banditVersion)
    }
}
