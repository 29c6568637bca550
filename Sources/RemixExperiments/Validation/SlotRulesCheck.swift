import RemixKit
import RemixYAML

/// Checks slot rules files against the registry and the experiments: the app and slot exist, a
/// force rule's feature fills that slot with parameters it declares, an experiment rule names an
/// experiment on the same slot (once), and one file per slot.
struct SlotRulesCheck {
    let registry: FeatureRegistry

    func problems(in set: ExperimentSet) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        var fileBySlot: [String: String] = [:]
        for rules in set.slotRules {
            let start = SourceLocation(file: rules.file, line: 1, column: 1)
            if let other = fileBySlot.updateValue(rules.file, forKey: "\(rules.app)/\(rules.slot)") {
                problems.append(Diagnostic(start, .error, "\(other) already holds the rules of \(rules.app)/\(rules.slot); "
                                           + "keep one rules file per slot"))
            }
            var slot: SlotDefinition?
            do {
                let app = try registry.app(named: rules.app)
                slot = app.slot(named: rules.slot)
                if slot == nil {
                    problems.append(Diagnostic(start, .error, RegistryError.unknownSlot(app: app.name, slot: rules.slot,
                                                                                         known: app.slots.map(\.name)).description))
                }
            } catch {
                problems.append(Diagnostic(start, .error, error.description))
            }
            var named = Set<String>()
            for rule in rules.rules {
                switch rule {
                case .experiment(let key, let location):
                    if !named.insert(key).inserted {
                        problems.append(Diagnostic(location, .error, "experiment '\(key)' is listed twice; list it once"))
                    }
                    guard let definition = set.definition(key: key) else {
                        problems.append(Diagnostic(location, .error, "no experiment '\(key)' in the experiments folder"
                            + NameSuggestion.hint(for: key, among: set.definitions(app: rules.app, slot: rules.slot).map(\.key),
                                                  noun: "experiment")))
                        continue
                    }
                    if definition.app != rules.app || definition.slot != rules.slot {
                        problems.append(Diagnostic(location, .error, "experiment '\(key)' fills \(definition.app)/\(definition.slot), "
                                                   + "not \(rules.app)/\(rules.slot)"))
                    }
                case .force(let feature, let parameters, _, let location):
                    guard let slot else { continue }
                    do {
                        let descriptor = try registry.filler(named: feature, for: slot, of: rules.app)
                        _ = try FeatureParameters(feature: descriptor.name, specs: descriptor.parameters, given: parameters)
                    } catch {
                        problems.append(Diagnostic(location, .error, String(describing: error)))
                    }
                }
            }
        }
        return problems
    }
}
