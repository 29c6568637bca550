import Foundation
import RemixKit
import RemixYAML

/// A multi-armed bandit (`type: bandit`, docs/bandits.md): its variations' weights move, at
/// updates in virtual time, to each arm's probability of being best on `metric`, floored at
/// `minWeight`; equal weights until `exploreHours`, then an update every `updateHours`.
package struct Bandit: Sendable, Equatable {
    /// The metric (a key of metrics.yaml or an event name) the arms compete on.
    package var metric: String
    /// Hours of equal weights from time zero before the first update.
    package var exploreHours: Double
    /// Hours between updates after the first.
    package var updateHours: Double
    /// No arm's weight goes below this.
    package var minWeight: Double
    /// Where `metric` is written.
    package var metricLocation: SourceLocation
    /// Contextual leaves, tried in order (first match wins), each learning its own weights; none
    /// for a plain bandit. A session matching no leaf gets the experiment's weights.
    package var leaves: [Leaf] = []

    /// One leaf: its id, the attributes it covers (nil: everyone) and its weights in force (nil:
    /// the experiment's).
    package struct Leaf: Sendable, Equatable {
        package var leafId: Int
        package var condition: Condition?
        package var weights: [Double]?

        package static func == (a: Leaf, b: Leaf) -> Bool {
            a.leafId == b.leafId && a.condition?.source == b.condition?.source && a.weights == b.weights
        }
    }

    /// The leaf `context` falls in (index), if any.
    package func leaf(for context: AssignmentContext) -> Int? {
        leaves.firstIndex { $0.condition?.evaluate(in: context) ?? true }
    }

    /// The update times after `zero` (ms): exploreHours, then every updateHours.
    package func boundary(_ index: Int, from zero: Int64) -> Int64 {
        zero + Int64(((exploreHours + Double(index) * updateHours) * 3_600_000).rounded())
    }
}

extension ExperimentFileParser {
    /// Reads `bandit:`; every problem is at its position.
    static func parseBandit(_ value: YAMLValue, arms: Int?) throws(Diagnostic) -> Bandit {
        let fields = try value.mapping("bandit")
        if let problem = fields.unknownKeys(allowed: ["metric", "exploreHours", "updateHours", "minWeight", "leaves"], in: "bandit",
                                            nearest: NameSuggestion.nearest).first {
            throw problem
        }
        let metric = try fields.required("metric", in: "a bandit")
        let explore = try hours("exploreHours", of: fields, in: "a bandit")
        let update = try hours("updateHours", of: fields, in: "a bandit")
        var minWeight = 0.01
        if let written = fields["minWeight"] {
            minWeight = try written.double("minWeight")
            let most = 1 / Double(max(arms ?? 1, 1))
            guard minWeight.isFinite, minWeight >= 0, minWeight <= most else {
                throw Diagnostic(written.location, .error, "minWeight must be in [0, \(most)] (1 ÷ the number of arms), not \(minWeight)")
            }
        }
        var bandit = Bandit(metric: try metric.string("metric"), exploreHours: explore, updateHours: update, minWeight: minWeight,
                            metricLocation: metric.location)
        for item in try fields["leaves"]?.sequence("leaves") ?? [] {
            let leaf = try item.mapping("a leaf")
            if let problem = leaf.unknownKeys(allowed: ["leafId", "condition"], in: "a leaf", nearest: NameSuggestion.nearest).first {
                throw problem
            }
            let id = try leaf.required("leafId", in: "a leaf")
            let leafId = try id.int("leafId")
            guard !bandit.leaves.contains(where: { $0.leafId == leafId }) else {
                throw Diagnostic(id.location, .error, "leafId \(leafId) is used twice; give each leaf its own id")
            }
            var condition: Condition?
            if let written = leaf["condition"], !written.isNull {
                _ = try written.mapping("condition")
                condition = Condition(parsing: try written.attributeValue())
            }
            bandit.leaves.append(Bandit.Leaf(leafId: leafId, condition: condition, weights: nil))
        }
        return bandit
    }

    /// Reads `type:` and `bandit:` together: a bandit needs both.
    static func readBandit(_ root: YAMLMapping, arms: Int?, into reader: inout FieldReader) -> Bandit? {
        let type = reader.optional("type") { value throws(Diagnostic) in
            let text = try value.string("type")
            guard text == "bandit" || text == "experiment" else {
                throw Diagnostic(value.location, .error, "type must be experiment or bandit, not '\(text)'")
            }
            return text
        }
        if type == "bandit", root["bandit"] == nil {
            reader.report(Diagnostic(root["type"]?.location ?? root.location, .error,
                                     "a bandit needs bandit: {metric, exploreHours, updateHours, minWeight}"))
            return nil
        }
        guard let written = root["bandit"] else { return nil }
        if type != "bandit" {
            reader.report(Diagnostic(written.location, .error, "'bandit' belongs to a bandit: add type: bandit, or remove 'bandit'"))
            return nil
        }
        return reader.required("bandit") { value throws(Diagnostic) in try parseBandit(value, arms: arms) }
    }
}
