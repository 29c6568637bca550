import Foundation
import RemixExperiments
import RemixFormats
import RemixKit
import RemixYAML

/// Reads a population file (YAML), collecting every problem with its file:line:column.
package enum PopulationFile {
    static let topKeys = ["app", "start", "sessionGapSeconds", "attributes", "services", "intents", "personas", "effects"]
    static let personaKeys = [
        "name", "weight", "intents", "abandon", "thinkSeconds", "typingSecondsPerCharacter", "typos",
        "retryAfterError", "prefer", "visits", "daysBetweenVisits", "arrivals",
    ]
    /// The `abandon` key for screens it does not name.
    static let elsewhere = "default"

    /// What to do when a population file is missing, for `remix simulate`.
    package static let missingForSimulate = "pass one with --population (the default is experiments/population.yaml)"

    /// Reads and parses the file at `path`; `missing` says what to do when there is no such file.
    package static func load(path: String, missing: String = missingForSimulate) -> (Population?, [Diagnostic]) {
        let text: String
        do {
            text = try YAMLFile.read(path)
        } catch {
            let hint = YAMLFile.kind(of: path) == .missing ? "; " + missing : ""
            return (nil, [Diagnostic(error.location, .error, "cannot read the population file: "
                                          + error.message.replacingOccurrences(of: "cannot read this file: ", with: "") + hint)])
        }
        return parse(text, file: path)
    }

    /// Parses population YAML text.
    package static func parse(_ text: String, file: String) -> (Population?, [Diagnostic]) {
        var problems: [Diagnostic] = []
        let root: YAMLMapping
        do {
            root = try YAMLValue.parse(text, file: file).mapping("a population file")
        } catch {
            return (nil, [error])
        }
        problems += unknownKeys(root, allowed: topKeys, in: "a population file")
        func read<T>(_ key: String, required: Bool = true, _ body: (YAMLValue) throws(Diagnostic) -> T) -> T? {
            guard let value = root[key] else {
                if required {
                    let hint = key == "intents" ? " (what users come to do; files of the first format need rewriting, see docs/simulation.md)" : ""
                    problems.append(Diagnostic(root.location, .error, "a population file needs '\(key)'\(hint)"))
                }
                return nil
            }
            do { return try body(value) } catch { problems.append(error); return nil }
        }
        let app = read("app") { v throws(Diagnostic) in try v.string("app") }
        let start = read("start", required: false) { v throws(Diagnostic) in try date(v) }
        let gap = read("sessionGapSeconds", required: false) { v throws(Diagnostic) in
            try nonNegative(v, "sessionGapSeconds", atMost: Population.maximumSessionGapSeconds)
        }
        let attributes = read("attributes", required: false) { v throws(Diagnostic) in try parseAttributes(v) }
        let services = read("services", required: false) { v throws(Diagnostic) in try parseServices(v, &problems) }
        let intents = read("intents") { v throws(Diagnostic) in try parseIntents(v, &problems) }
        let declared = (try? root["intents"]?.mapping().entries.map(\.key)) ?? []
        let personas = read("personas") { v throws(Diagnostic) in
            try v.sequence("personas").compactMap { item -> Population.Persona? in
                do throws(Diagnostic) { return try parsePersona(item, intents: intents ?? [], declared: declared, &problems) } catch {
                    problems.append(error)
                    return nil
                }
            }
        }
        let effects = read("effects", required: false) { v throws(Diagnostic) in
            try parseEffects(v, personas: (personas ?? []).map(\.name), &problems)
        }
        // Items with problems are left out, so only a list that is wholly fine is judged as a whole.
        let itemCount = { (key: String) in (try? root[key]?.sequence())?.count ?? 0 }
        if let personas, personas.count == itemCount("personas"), personas.allSatisfy({ $0.weight == 0 }),
           let value = root["personas"] {
            problems.append(Diagnostic(value.location, .error, "give at least one persona a weight above 0"))
        }
        problems.sort { $0.location < $1.location }
        guard !problems.contains(where: { $0.severity == .error }), let app, let intents, let personas else {
            return (nil, problems)
        }
        var population = Population(
            app: app, startMilliseconds: start ?? 1_795_424_400_000,
            sessionGapMilliseconds: Int64(((gap ?? 2) * 1000).rounded()), attributes: attributes ?? [],
            intents: intents, personas: personas, services: services ?? [],
            appLocation: root["app"]?.location ?? root.location)
        population.effects = effects ?? []
        return (population, problems)
    }

    /// Unknown keys, each with the nearest known key.
    static func unknownKeys(_ mapping: YAMLMapping, allowed: [String], in what: String) -> [Diagnostic] {
        mapping.unknownKeys(allowed: allowed, in: what, nearest: NameSuggestion.nearest)
    }

    /// Milliseconds since the epoch of a date that exists, in years 0001–9999.
    private static func date(_ value: YAMLValue) throws(Diagnostic) -> Int64 {
        let text = try value.string("start")
        guard let milliseconds = CivilTime.parseMilliseconds(text) else {
            throw Diagnostic(value.location, .error, "'\(text)' is not a date (years 0001–9999, a day the month has); "
                             + "write e.g. 2026-11-23T09:00:00Z or 2026-11-23")
        }
        return milliseconds
    }

    static func nonNegative(_ value: YAMLValue, _ what: String, atMost limit: Double = .infinity) throws(Diagnostic) -> Double {
        let number = try value.double(what)
        guard number >= 0, number.isFinite else { throw Diagnostic(value.location, .error, "\(what) must be 0 or more") }
        guard number <= limit else {
            throw Diagnostic(value.location, .error, "\(what) must be at most \(Int(limit))\(describe(seconds: limit)), not \(number)")
        }
        return number
    }

    /// What a limit in seconds means, for the two time limits.
    private static func describe(seconds: Double) -> String {
        switch seconds {
        case Population.maximumActionSeconds: " (one day)"
        case Population.maximumSessionGapSeconds: " (366 days)"
        default: ""
        }
    }

    static func probability(_ value: YAMLValue, _ what: String) throws(Diagnostic) -> Double {
        let number = try value.double(what)
        guard (0...1).contains(number) else {
            throw Diagnostic(value.location, .error, "\(what) is a chance and must be between 0 and 1, not \(number)")
        }
        return number
    }

    /// A number or `[min, max]`, each 0 or more and at most `limit`.
    static func range(_ value: YAMLValue, _ what: String, atMost limit: Double) throws(Diagnostic) -> ClosedRange<Double> {
        if let items = try? value.sequence() {
            guard items.count == 2 else { throw Diagnostic(value.location, .error, "\(what) must be a number or [min, max]") }
            let low = try nonNegative(items[0], what, atMost: limit)
            let high = try nonNegative(items[1], what, atMost: limit)
            guard low <= high else { throw Diagnostic(value.location, .error, "\(what): min is above max") }
            return low...high
        }
        let single = try nonNegative(value, what, atMost: limit)
        return single...single
    }

    /// A number of seconds, `[min, max]` (uniform), or `{median: M, p90: P}` (log-normal).
    static func seconds(_ value: YAMLValue, _ what: String, atMost limit: Double = Population.maximumActionSeconds)
        throws(Diagnostic) -> Population.Seconds {
        if let fields = try? value.mapping(what) {
            if let problem = unknownKeys(fields, allowed: ["median", "p90"], in: what).first { throw problem }
            let median = try nonNegative(try fields.required("median", in: what), "\(what).median", atMost: limit)
            let p90 = try nonNegative(try fields.required("p90", in: what), "\(what).p90", atMost: limit)
            guard median > 0, p90 > median else {
                throw Diagnostic(value.location, .error, "\(what): a log-normal time needs 0 < median < p90 (got median \(median), p90 \(p90))")
            }
            return Population.Seconds(median: median, p90: p90, limit: limit)
        }
        let range = try range(value, what, atMost: limit)
        return Population.Seconds(min: range.lowerBound, max: range.upperBound)
    }

    private static func parseAttributes(_ value: YAMLValue) throws(Diagnostic) -> [(name: String, distribution: Population.Distribution)] {
        var attributes: [(name: String, distribution: Population.Distribution)] = []
        for entry in try value.mapping("attributes").entries {
            guard entry.key != "id" else {
                throw Diagnostic(entry.keyLocation, .error, "'id' is the simulated user's id and is set by the simulation")
            }
            var values: [String] = []
            var weights: [Double] = []
            for option in try entry.value.mapping("attribute '\(entry.key)'").entries {
                values.append(option.key)
                weights.append(try nonNegative(option.value, "the weight of \(entry.key) '\(option.key)'"))
            }
            guard weights.reduce(0, +) > 0 else {
                throw Diagnostic(entry.value.location, .error, "attribute '\(entry.key)' needs a value with a weight above 0")
            }
            attributes.append((entry.key, Population.Distribution(values: values, weights: weights)))
        }
        return attributes
    }

    /// Service parameters by name; their names and kinds are checked against the app's
    /// declarations later (``PopulationCheck``), as the file alone does not know the app's services.
    private static func parseServices(_ value: YAMLValue, _ problems: inout [Diagnostic])
        throws(Diagnostic) -> [(name: String, value: ClosedRange<Double>, location: SourceLocation)] {
        var services: [(name: String, value: ClosedRange<Double>, location: SourceLocation)] = []
        for entry in try value.mapping("services").entries {
            do {
                services.append((entry.key, try range(entry.value, entry.key, atMost: .greatestFiniteMagnitude), entry.keyLocation))
            } catch {
                problems.append(error)
            }
        }
        return services
    }

    /// Runs `body`, recording its problem instead of stopping at it.
    static func collect<T>(_ problems: inout [Diagnostic], _ body: () throws(Diagnostic) -> T) -> T? {
        do { return try body() } catch { problems.append(error); return nil }
    }
}
