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
            "unknown feature '\(name)'" + Self.pluginHint + NameSuggestion.hint(for: name, among: known, noun: "feature")
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

    /// What an unknown feature name may mean: a feature of a plugin that is not loaded.
    static let pluginHint = "; a plugin may provide it: load one with --plugins PATH or REMIX_PLUGIN_PATH=PATH "
        + "(`remix features` lists what is loaded)"
}

/// A slot asked to be filled by a feature that no loaded module registers. It may be a plugin's,
/// so the message says how to load one, and it suggests and lists only the features that can fill
/// the slot (those of its role).
public struct UnknownFillerError: Error, Equatable, CustomStringConvertible {
    /// The name asked for.
    public let feature: String
    /// The app and the slot it was asked to fill.
    public let app: String
    public let slot: String
    /// The registered features that can fill the slot.
    public let fillers: [String]

    /// Makes the error for `feature` asked to fill `slot` of `app`, which `fillers` can fill.
    public init(feature: String, app: String, slot: String, fillers: [String]) {
        self.feature = feature
        self.app = app
        self.slot = slot
        self.fillers = fillers
    }

    public var description: String {
        "unknown feature '\(feature)'" + RegistryError.pluginHint
            + NameSuggestion.hint(for: feature, among: fillers, noun: "\(app)/\(slot) feature")
    }
}
