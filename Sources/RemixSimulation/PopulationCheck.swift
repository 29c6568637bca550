import RemixKit
import RemixYAML

/// Checks a population against the app it runs and the registered features: what the file
/// alone cannot know.
package enum PopulationCheck {
    /// Service parameters the app does not declare or whose values do not fit their kind, success
    /// events no feature declares, and effects of features that are not registered (`features`,
    /// when given) — each at its file:line:column.
    package static func problems(_ population: Population, app: AppDefinition, events: [String],
                                features: [String]? = nil) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        let declared = app.serviceParameters
        for service in population.services {
            guard let spec = declared.first(where: { $0.name == service.name }) else {
                let names = declared.map(\.name)
                let hint = names.isEmpty ? "; \(app.name) declares no service parameters"
                    : NameSuggestion.hint(for: service.name, among: names, noun: "parameter")
                problems.append(Diagnostic(service.location, .error, "app '\(app.name)' has no service parameter '\(service.name)'\(hint)"))
                continue
            }
            if let problem = fit(service.value, spec) {
                problems.append(Diagnostic(service.location, .error, "\(service.name) \(problem)"))
            }
        }
        for intent in population.intents {
            guard let success = intent.success, !events.contains(success.value) else { continue }
            let hint = NameSuggestion.hint(for: success.value, among: events, noun: "event")
            problems.append(Diagnostic(success.location, .error, "no feature of this host emits '\(success.value)', so intent "
                                       + "'\(intent.name)' could never succeed\(hint) (`remix features` lists what each emits)"))
        }
        for effect in population.effects {
            guard let features, !features.contains(effect.feature.value) else { continue }
            problems.append(Diagnostic(effect.feature.location, .error, "no registered feature is called '\(effect.feature.value)'"
                + NameSuggestion.hint(for: effect.feature.value, among: features, noun: "feature")
                + " (`remix features` lists them; load a plugin's with --plugins)"))
        }
        return problems.sorted { $0.location < $1.location }
    }

    /// Warnings for `abandon` keys that name a screen the app has since split in two
    /// (``AppDefinition/renamedScreens``): a persona that gives `groups` a chance but not the
    /// screen that was also called `groups` now gives that screen the default.
    package static func renamedScreenWarnings(_ population: Population, app: AppDefinition) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        for persona in population.personas {
            for rename in app.renamedScreens {
                guard let chance = persona.abandon[rename.formerName], persona.abandon[rename.screen] == nil,
                      let location = persona.abandonLocations[rename.formerName] else { continue }
                warnings.append(Diagnostic(location, .warning, "persona '\(persona.name)': '\(rename.formerName)' also named "
                    + "\(rename.summary) before, which is '\(rename.screen)' now; '\(rename.formerName)' now names only the other screen, "
                    + "so '\(rename.screen)' gets the default chance (\(String(format: "%g", persona.abandonElsewhere))) — add "
                    + "'\(rename.screen): \(chance)' to keep what the file meant"))
            }
        }
        return warnings.sorted { $0.location < $1.location }
    }

    private static func fit(_ value: ClosedRange<Double>, _ spec: ServiceParameterSpec) -> String? {
        switch spec.kind {
        case .chance:
            guard value.lowerBound == value.upperBound else { return "is a chance: one number between 0 and 1, not a range" }
            return value.lowerBound <= 1 ? nil : "is a chance and must be between 0 and 1, not \(value.lowerBound)"
        case .seconds:
            return value.upperBound <= Population.maximumActionSeconds
                ? nil : "must be at most \(Int(Population.maximumActionSeconds)) (one day), not \(value.upperBound)"
        case .number:
            return nil
        }
    }
}
