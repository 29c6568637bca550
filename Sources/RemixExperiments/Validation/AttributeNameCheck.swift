import RemixKit
import RemixYAML

/// Warns of an attribute that no session of the app has — the app does not declare it and no
/// population file draws it — where an experiment or a slot rules file names it. GrowthBook sees
/// such an attribute missing, so a typo (`platfrom: tablet`) silently includes nobody. A warning,
/// not an error: `remix run --attributes` and other SDKs may give sessions any attribute.
package struct AttributeNameCheck {
    /// The attributes sessions of each app have, by app.
    package let known: [String: [String]]

    /// Checks against `known`; an app it does not list is not checked (its name is an error already).
    package init(known: [String: [String]]) {
        self.known = known
    }

    /// A warning for each attribute of `set`'s experiments and rules files that their app's sessions do not have.
    package func problems(in set: ExperimentSet) -> [Diagnostic] {
        set.definitions.flatMap { problems($0.attributeNames, app: $0.app) }
            + set.slotRules.flatMap { problems($0.attributeNames, app: $0.app) }
    }

    private func problems(_ names: [AttributeName], app: String) -> [Diagnostic] {
        guard let attributes = known[app] else { return [] }
        return names.filter { !attributes.contains($0.name) }.map { name in
            let consequence = switch name.use {
            case .condition: "the condition sees it missing"
            case .hash: "no session can be hashed: nobody is assigned"
            case .fallback: "it is never used"
            case .filter: "the filter lets nobody in"
            }
            return Diagnostic(name.location, .warning, "no \(app) session has the attribute '\(name.name)' (the app does not declare "
                              + "it and no population file draws it), so \(consequence)"
                              + NameSuggestion.hint(for: name.name, among: attributes, noun: "attribute"))
        }
    }
}
