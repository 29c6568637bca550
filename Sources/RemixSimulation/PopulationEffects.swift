import RemixKit
import RemixYAML

extension Population {
    /// How a feature changes what users do when it fills a slot of their session (an experiment
    /// exposed them to it): factors on the personas' chances. Effects make a simulated experiment's
    /// true difference data, for measured power (`remix plan --simulate`, docs/planning.md).
    package struct Effect: Sendable {
        /// The feature whose exposure turns the effect on.
        package var feature: Located<String>
        /// The personas affected (nil: every persona).
        package var personas: Set<String>?
        /// Factors on the chance to abandon, by screen name, and on the other screens.
        package var abandon: [String: Double]
        package var abandonElsewhere: Double
        /// Factors on the chance of a slip when typing and of trying again after an error.
        package var typos: Double
        package var retryAfterError: Double
    }
}

extension PopulationFile {
    static let effectKeys = ["feature", "personas", "abandon", "typos", "retryAfterError"]

    /// `effects:` — a list of `{feature, personas?, abandon: {SCREEN: FACTOR, default: FACTOR}, typos:
    /// FACTOR, retryAfterError: FACTOR}`; factors are 0 or more (1 changes nothing).
    static func parseEffects(_ value: YAMLValue, personas: [String], _ problems: inout [Diagnostic]) throws(Diagnostic)
        -> [Population.Effect] {
        var effects: [Population.Effect] = []
        for item in try value.sequence("effects") {
            do throws(Diagnostic) {
                let fields = try item.mapping("an effect")
                problems += unknownKeys(fields, allowed: effectKeys, in: "an effect")
                let featureValue = try fields.required("feature", in: "an effect")
                let feature = Located(value: try featureValue.string("a feature name"), location: featureValue.location)
                var chosen: Set<String>?
                if let list = fields["personas"] {
                    var names = Set<String>()
                    for entry in try list.sequence("personas") {
                        let name = try entry.string("a persona's name")
                        guard personas.contains(name) else {
                            throw Diagnostic(entry.location, .error, "no persona is called '\(name)'"
                                + NameSuggestion.hint(for: name, among: personas, noun: "persona"))
                        }
                        names.insert(name)
                    }
                    chosen = names
                }
                var abandon: [String: Double] = [:]
                for entry in try fields["abandon"]?.mapping("abandon").entries ?? [] {
                    abandon[entry.key] = try factor(entry.value, "abandon.\(entry.key)")
                }
                effects.append(Population.Effect(
                    feature: feature, personas: chosen, abandon: abandon.filter { $0.key != elsewhere },
                    abandonElsewhere: abandon[elsewhere] ?? 1,
                    typos: try fields["typos"].map { v throws(Diagnostic) in try factor(v, "typos") } ?? 1,
                    retryAfterError: try fields["retryAfterError"].map { v throws(Diagnostic) in try factor(v, "retryAfterError") } ?? 1))
            } catch {
                problems.append(error)
            }
        }
        return effects
    }

    private static func factor(_ value: YAMLValue, _ what: String) throws(Diagnostic) -> Double {
        let number = try value.double("\(what) (a factor on a chance)")
        guard number >= 0, number.isFinite, number <= 1000 else {
            throw Diagnostic(value.location, .error, "\(what) is a factor on a chance, 0 or more (1 changes nothing), not \(number)")
        }
        return number
    }
}

/// The effects on one persona, by feature, applied to chances once a session is exposed.
struct ActiveEffects {
    private let byFeature: [String: [Population.Effect]]

    init(_ effects: [Population.Effect], persona: String) {
        byFeature = Dictionary(grouping: effects.filter { $0.personas?.contains(persona) ?? true }, by: \.feature.value)
    }

    var isEmpty: Bool { byFeature.isEmpty }

    /// The factors of the effects of `features` (the session's exposed features).
    func factors(_ features: [String], screen: String) -> (abandon: Double, typos: Double, retry: Double) {
        var result = (abandon: 1.0, typos: 1.0, retry: 1.0)
        for feature in features {
            for effect in byFeature[feature] ?? [] {
                result.abandon *= effect.abandon[screen] ?? effect.abandonElsewhere
                result.typos *= effect.typos
                result.retry *= effect.retryAfterError
            }
        }
        return result
    }
}
