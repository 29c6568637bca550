import Foundation
import RemixExperiments
import RemixKit
import RemixYAML

/// Reads a population file (YAML), collecting every problem with its file:line:column.
public enum PopulationFile {
    static let topKeys = ["app", "start", "sessionGapSeconds", "attributes", "services", "personas", "adverts"]
    static let personaKeys = [
        "name", "weight", "startInsertion", "browseFirst", "filterFirst", "abandon", "thinkSeconds",
        "typingSecondsPerCharacter", "retryAfterFailure",
    ]

    /// Reads and parses the file at `path`.
    public static func load(path: String) -> (Population?, [Diagnostic]) {
        let text: String
        do {
            text = try YAMLFile.read(path)
        } catch {
            let hint = YAMLFile.kind(of: path) == .missing
                ? "; pass one with --population (the default is experiments/population.yaml)" : ""
            return (nil, [Diagnostic(error.location, .error, "cannot read the population file: "
                                          + error.message.replacingOccurrences(of: "cannot read this file: ", with: "") + hint)])
        }
        return parse(text, file: path)
    }

    /// Parses population YAML text.
    public static func parse(_ text: String, file: String) -> (Population?, [Diagnostic]) {
        var problems: [Diagnostic] = []
        let root: YAMLMapping
        do {
            root = try YAMLValue.parse(text, file: file).mapping("a population file")
        } catch {
            return (nil, [error])
        }
        problems += root.unknownKeys(allowed: topKeys, in: "a population file", nearest: NameSuggestion.nearest)
        func read<T>(_ key: String, required: Bool = true, _ body: (YAMLValue) throws(Diagnostic) -> T) -> T? {
            guard let value = root[key] else {
                if required { problems.append(Diagnostic(root.location, .error, "a population file needs '\(key)'")) }
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
        let services = read("services") { v throws(Diagnostic) in try parseServices(v) }
        let personas = read("personas") { v throws(Diagnostic) in
            try v.sequence("personas").compactMap { item -> Population.Persona? in
                do throws(Diagnostic) { return try parsePersona(item, &problems) } catch { problems.append(error); return nil }
            }
        }
        let adverts = read("adverts") { v throws(Diagnostic) in
            try v.sequence("adverts").compactMap { item -> Population.IntendedAdvert? in
                do throws(Diagnostic) { return try parseAdvert(item, &problems) } catch { problems.append(error); return nil }
            }
        }
        // Items with problems are left out, so only a list that is wholly fine is judged as a whole.
        let itemCount = { (key: String) in (try? root[key]?.sequence())?.count ?? 0 }
        if let personas, personas.count == itemCount("personas"), personas.allSatisfy({ $0.weight == 0 }),
           let value = root["personas"] {
            problems.append(Diagnostic(value.location, .error, "give at least one persona a weight above 0"))
        }
        if let adverts, itemCount("adverts") == 0, adverts.isEmpty, let value = root["adverts"] {
            problems.append(Diagnostic(value.location, .error, "list at least one advert users mean to publish"))
        }
        problems.sort { $0.location < $1.location }
        guard !problems.contains(where: { $0.severity == .error }), let app, let services, let personas, let adverts else {
            return (nil, problems)
        }
        let population = Population(
            app: app, startMilliseconds: start ?? 1_795_424_400_000,
            sessionGapMilliseconds: Int64(((gap ?? 2) * 1000).rounded()), attributes: attributes ?? [],
            personas: personas, adverts: adverts, services: services)
        return (population, problems)
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

    private static func nonNegative(_ value: YAMLValue, _ what: String, atMost limit: Double = .infinity) throws(Diagnostic) -> Double {
        let number = try value.double(what)
        guard number >= 0, number.isFinite else { throw Diagnostic(value.location, .error, "\(what) must be 0 or more") }
        guard number <= limit else {
            throw Diagnostic(value.location, .error, "\(what) must be at most \(Int(limit)) (\(describe(seconds: limit))), not \(number)")
        }
        return number
    }

    private static func describe(seconds: Double) -> String {
        seconds == Population.maximumActionSeconds ? "one day" : "\(Int(seconds / 86_400)) days"
    }

    private static func probability(_ value: YAMLValue, _ what: String) throws(Diagnostic) -> Double {
        let number = try value.double(what)
        guard (0...1).contains(number) else {
            throw Diagnostic(value.location, .error, "\(what) is a chance and must be between 0 and 1, not \(number)")
        }
        return number
    }

    /// A number of seconds or `[min, max]`.
    private static func seconds(_ value: YAMLValue, _ what: String) throws(Diagnostic) -> Population.Seconds {
        if let items = try? value.sequence() {
            guard items.count == 2 else { throw Diagnostic(value.location, .error, "\(what) must be a number or [min, max]") }
            let range = Population.Seconds(min: try nonNegative(items[0], what, atMost: Population.maximumActionSeconds),
                                           max: try nonNegative(items[1], what, atMost: Population.maximumActionSeconds))
            guard range.min <= range.max else { throw Diagnostic(value.location, .error, "\(what): min is above max") }
            return range
        }
        let single = try nonNegative(value, what, atMost: Population.maximumActionSeconds)
        return Population.Seconds(min: single, max: single)
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

    private static func parseServices(_ value: YAMLValue) throws(Diagnostic) -> Population.Services {
        let fields = try value.mapping("services")
        if let problem = fields.unknownKeys(allowed: ["publishFailureRate", "recommendationLatencySeconds"],
                                            in: "services", nearest: NameSuggestion.nearest).first {
            throw problem
        }
        return Population.Services(
            publishFailureRate: try fields["publishFailureRate"].map { v throws(Diagnostic) in
                try probability(v, "publishFailureRate")
            } ?? 0,
            recommendationLatency: try fields["recommendationLatencySeconds"].map { v throws(Diagnostic) in
                try seconds(v, "recommendationLatencySeconds")
            } ?? .init(min: 2, max: 2))
    }

    /// Runs `body`, recording its problem instead of stopping at it.
    private static func collect<T>(_ problems: inout [Diagnostic], _ body: () throws(Diagnostic) -> T) -> T? {
        do { return try body() } catch { problems.append(error); return nil }
    }

    /// The kinds of screen a simulated user can abandon on (ScreenContent.name of the built-in apps).
    static let abandonableScreens = ["groups", "title", "item", "toast", "adverts", "sum", "prime", "description"]

    /// A persona, or nil when its problems are already in `problems`.
    private static func parsePersona(_ value: YAMLValue, _ problems: inout [Diagnostic]) throws(Diagnostic) -> Population.Persona? {
        let fields = try value.mapping("a persona")
        let unknown = fields.unknownKeys(allowed: personaKeys, in: "a persona", nearest: NameSuggestion.nearest)
        var abandon: [String: Double] = [:]
        var failed = !unknown.isEmpty
        problems += unknown
        for entry in try fields["abandon"]?.mapping("abandon").entries ?? [] {
            if !abandonableScreens.contains(entry.key) {
                let hint = NameSuggestion.nearest(to: entry.key, among: abandonableScreens).map { " (did you mean '\($0)'?)" } ?? ""
                problems.append(Diagnostic(entry.keyLocation, .warning,
                    "no built-in screen is called '\(entry.key)'\(hint); abandon uses screen names: \(abandonableScreens.joined(separator: ", "))"))
            }
            if let chance = collect(&problems, { () throws(Diagnostic) in try probability(entry.value, "abandon.\(entry.key)") }) {
                abandon[entry.key] = chance
            } else {
                failed = true
            }
        }
        let persona = parsePersonaFields(fields, abandon: abandon, &problems)
        return failed ? nil : persona
    }

    private static func parsePersonaFields(_ fields: YAMLMapping, abandon: [String: Double],
                                           _ problems: inout [Diagnostic]) -> Population.Persona? {
        var failed = false
        func field<T>(_ key: String, _ fallback: T, _ body: (YAMLValue) throws(Diagnostic) -> T) -> T {
            guard let value = fields[key] else { return fallback }
            do { return try body(value) } catch { problems.append(error); failed = true; return fallback }
        }
        func chance(_ key: String, _ fallback: Double) -> Double {
            field(key, fallback) { v throws(Diagnostic) in try probability(v, key) }
        }
        let name = collect(&problems) { () throws(Diagnostic) in try fields.required("name", in: "a persona").string("name") }
        let persona = Population.Persona(
            name: name ?? "",
            weight: field("weight", 1) { v throws(Diagnostic) in try nonNegative(v, "weight") },
            startInsertion: chance("startInsertion", 1), browseFirst: chance("browseFirst", 0),
            filterFirst: chance("filterFirst", 0), abandon: abandon,
            think: field("thinkSeconds", .init(min: 1, max: 1)) { v throws(Diagnostic) in try seconds(v, "thinkSeconds") },
            typingPerCharacter: field("typingSecondsPerCharacter", .init(min: 0.2, max: 0.2)) { v throws(Diagnostic) in
                try seconds(v, "typingSecondsPerCharacter")
            },
            retryAfterFailure: chance("retryAfterFailure", 0.5))
        return failed || name == nil ? nil : persona
    }

    /// An advert, or nil when its problems are already in `problems`.
    private static func parseAdvert(_ value: YAMLValue, _ problems: inout [Diagnostic]) throws(Diagnostic) -> Population.IntendedAdvert? {
        let fields = try value.mapping("an advert")
        let unknown = fields.unknownKeys(allowed: ["title", "group"], in: "an advert", nearest: NameSuggestion.nearest)
        problems += unknown
        // An unknown key is usually a misspelt known one: report it alone, not the key as missing too.
        guard unknown.isEmpty else { return nil }
        let path = try fields.required("group", in: "an advert").sequence("group").map { item throws(Diagnostic) in
            try item.string("a group title")
        }
        guard !path.isEmpty else { throw Diagnostic(value.location, .error, "an advert's group path needs at least one title") }
        return Population.IntendedAdvert(title: try fields.required("title", in: "an advert").string("title"), groupPath: path)
    }
}
