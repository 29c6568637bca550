/// A registry lookup or registration that cannot be done.
public enum RegistryError: Error, Equatable, CustomStringConvertible {
    case unknownFeature(name: String, known: [String])
    case duplicateFeature(name: String, existingModule: String, newModule: String)
    case unknownApp(name: String, known: [String])
    case duplicateApp(name: String, existingModule: String, newModule: String)
    case duplicateModule(name: String)
    case unknownSlot(app: String, slot: String, known: [String])
    case wrongRole(feature: String, role: String?, slot: String, expected: String)
    case unsupportedPlatform(app: String, platform: String, known: [String])
    case featureKind(feature: String, expected: String)

    public var description: String {
        switch self {
        case .unknownFeature(let name, let known):
            "unknown feature '\(name)'" + NameSuggestion.hint(for: name, among: known, noun: "feature")
        case .duplicateFeature(let name, let existing, let new):
            "feature '\(name)' from module '\(new)' is already registered by module '\(existing)'; rename one of them"
        case .unknownApp(let name, let known):
            "unknown app '\(name)'" + NameSuggestion.hint(for: name, among: known, noun: "app")
        case .duplicateApp(let name, let existing, let new):
            "app '\(name)' from module '\(new)' is already registered by module '\(existing)'; rename one of them"
        case .duplicateModule(let name):
            "module '\(name)' is already loaded"
        case .unknownSlot(let app, let slot, let known):
            "app '\(app)' has no slot '\(slot)'" + NameSuggestion.hint(for: slot, among: known, noun: "slot")
        case .wrongRole(let feature, let role, let slot, let expected):
            "feature '\(feature)' (role \(role.map { "'\($0)'" } ?? "none")) cannot fill slot '\(slot)', which takes '\(expected)' features"
        case .unsupportedPlatform(let app, let platform, let known):
            "app '\(app)' does not run on '\(platform)'" + NameSuggestion.hint(for: platform, among: known, noun: "platform")
        case .featureKind(let feature, let expected):
            "feature '\(feature)' is not a \(expected)"
        }
    }
}
