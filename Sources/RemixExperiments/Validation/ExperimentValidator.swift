import Foundation
import RemixKit
import RemixYAML

/// Checks experiments against each other and against the registered apps, slots, features and
/// parameters. Every problem is a diagnostic at its file, line and column.
package struct ExperimentValidator {
    private let registry: FeatureRegistry

    /// Makes a validator for the features in `registry`.
    package init(registry: FeatureRegistry) {
        self.registry = registry
    }

    /// Every problem of `set`, sorted by position.
    package func validate(_ set: ExperimentSet) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        var firstByKey: [String: ExperimentDefinition] = [:]
        for definition in set.definitions {
            if let first = firstByKey[definition.key] {
                problems.append(Diagnostic(definition.location(of: "key"), .error,
                                           "experiment key '\(definition.key)' is also used by \(first.file)"))
            } else {
                firstByKey[definition.key] = definition
            }
            problems += checkTarget(definition)
            problems += checkBucketing(definition)
            problems += PhaseCheck().problems(in: definition)
            problems += ConditionCheck(savedGroups: set.savedGroups).problems(in: definition)
        }
        problems += SlotOverlapCheck().problems(in: set)
        problems += SlotRulesCheck(registry: registry).problems(in: set)
        return problems.sorted { $0.location < $1.location }
    }

    private func checkTarget(_ definition: ExperimentDefinition) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        var slot: SlotDefinition?
        do {
            let app = try registry.app(named: definition.app)
            slot = app.slot(named: definition.slot)
            if slot == nil {
                let error = RegistryError.unknownSlot(app: app.name, slot: definition.slot, known: app.slots.map(\.name))
                problems.append(Diagnostic(definition.location(of: "slot"), .error, error.description))
            }
        } catch {
            problems.append(Diagnostic(definition.location(of: "app"), .error, error.description))
        }
        // A rollout's control arm is the slot's default, whatever it is.
        for variation in definition.variations where variation.feature != Rollout.slotDefaultFeature {
            problems += check(variation, slot: slot, app: definition.app)
        }
        if let rollout = definition.rollout, let slot, rollout.feature == slot.defaultFeature {
            problems.append(Diagnostic(rollout.featureLocation, .warning, "\(rollout.feature) is already the default of "
                                       + "\(definition.app)/\(definition.slot): the rollout compares it with itself"))
        }
        let url = URL(fileURLWithPath: definition.file)
        if ["yaml", "yml"].contains(url.pathExtension) {
            if url.deletingPathExtension().lastPathComponent != definition.key {
                problems.append(Diagnostic(definition.location(of: "key"), .warning,
                                           "the file name should be the key: rename the file to \(definition.key).yaml"))
            }
        }
        return problems
    }

    private func check(_ variation: ExperimentDefinition.Variation, slot: SlotDefinition?, app: String) -> [Diagnostic] {
        let feature: FeatureDescriptor
        do {
            feature = try slot.map { try registry.filler(named: variation.feature, for: $0, of: app) }
                ?? registry.feature(named: variation.feature)
        } catch {
            return [Diagnostic(variation.featureLocation, .error, String(describing: error))]
        }
        var problems: [Diagnostic] = []
        for (name, value) in variation.parameters.sorted(by: { $0.key < $1.key }) {
            do {
                _ = try FeatureParameters(feature: feature.name, specs: feature.parameters, given: [name: value])
            } catch {
                problems.append(Diagnostic(variation.parameterLocations[name] ?? variation.location, .error,
                                           error.description))
            }
        }
        return problems
    }

    private func checkBucketing(_ definition: ExperimentDefinition) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        let experiment = definition.experiment
        let count = definition.variations.count
        if definition.rollout != nil {
            for key in ["weights", "coverage", "force"] where definition.locations[key] != nil {
                problems.append(Diagnostic(definition.location(of: key), .error, "a rollout sets its own \(key) (the step's share, "
                                           + "split 50/50 as GrowthBook's safe rollouts); remove '\(key)'"))
            }
            if definition.locations["phases"] != nil {
                problems.append(Diagnostic(definition.location(of: "phases"), .error, "a rollout changes by its steps, decided "
                                           + "by its controller, not by phases; remove 'phases' (or make it an experiment with variations)"))
            }
        }
        if definition.bandit != nil {
            for key in ["weights", "force", "phases"] where definition.locations[key] != nil {
                problems.append(Diagnostic(definition.location(of: key), .error, "a bandit sets its own weights at each update "
                                           + "(equal until exploreHours); remove '\(key)'"))
            }
        }
        let armlessBandit = count < 2 && definition.bandit != nil
        if armlessBandit {
            problems.append(Diagnostic(definition.location(of: "variations"), .error,
                                       "a bandit needs at least two variations to choose between; it has \(count)"))
        } else if count < 2 {
            problems.append(Diagnostic(definition.location(of: "variations"), .warning,
                                       "an experiment with fewer than two variations never assigns anyone"))
        }
        // An armless bandit's weights are the parser's equal ones: their sum would only puzzle.
        if let weights = experiment.weights, !armlessBandit {
            if weights.count != count {
                problems.append(Diagnostic(definition.location(of: "weights"), .error,
                                           "\(weights.count) weights for \(count) variations; give one weight per variation"))
            } else if weights.contains(where: { !$0.isFinite || $0 < 0 || $0 > 1 }) {
                problems.append(Diagnostic(definition.location(of: "weights"), .error, "each weight must be between 0 and 1"))
            } else {
                let sum = weights.reduce(0, +)
                if sum < 0.99 || sum > 1.01 {
                    problems.append(Diagnostic(definition.location(of: "weights"), .error,
                                               "the weights add up to \(NumberText.short(sum)), not 1; GrowthBook would ignore "
                                                   + "them and split equally"))
                }
            }
        }
        if let coverage = experiment.coverage, !(0...1).contains(coverage) {
            problems.append(Diagnostic(definition.location(of: "coverage"), .error,
                                       "coverage must be between 0 and 1, not \(coverage)"))
        }
        switch experiment.hashVersion {
        case nil, 2: break
        case 1:
            problems.append(Diagnostic(definition.location(of: "hashVersion"), .warning,
                                       "hashVersion 1 is kept for old experiments; write 2 in new files"))
        case let version?:
            problems.append(Diagnostic(definition.location(of: "hashVersion"), .error,
                                       "hashVersion must be 1 or 2, not \(version)"))
        }
        if experiment.hashVersion == nil {
            problems.append(Diagnostic(definition.location(of: "key"), .warning,
                                       "no hashVersion: GrowthBook's default is 1; write 'hashVersion: 2' in new files"))
        }
        if let namespace = experiment.namespace,
           !(0 <= namespace.start && namespace.start < namespace.end && namespace.end <= 1) {
            problems.append(Diagnostic(definition.location(of: "namespace"), .error,
                                       "a namespace range needs 0 ≤ start < end ≤ 1"))
        }
        if let force = experiment.force, !(0..<count).contains(force) {
            problems.append(Diagnostic(definition.location(of: "force"), .error,
                                       "force must be a variation index from 0 to \(count - 1)"))
        }
        return problems
    }
}
