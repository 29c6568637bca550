import RemixKit
import RemixYAML

/// The `intents` and `personas` sections of a population file.
extension PopulationFile {
    static let intentKeys = ["start", "success", "choose", "values", "check"]
    static let checkKeys = ["row", "detail", "otherwise"]
    static let itemKinds = ItemKind.allCases.map(\.rawValue) + ["any"]

    /// Intents by name, in file order.
    static func parseIntents(_ value: YAMLValue, _ problems: inout [Diagnostic]) throws(Diagnostic) -> [Population.Intent] {
        let entries = try value.mapping("intents").entries
        guard !entries.isEmpty else {
            throw Diagnostic(value.location, .error, "list at least one intent, e.g. buy: {start: {press: primary}, success: order_placed}")
        }
        var intents: [Population.Intent] = []
        for entry in entries {
            do {
                if let intent = try parseIntent(entry, &problems) { intents.append(intent) }
            } catch {
                problems.append(error)
            }
        }
        return intents
    }

    private static func parseIntent(_ entry: YAMLMapping.Entry, _ problems: inout [Diagnostic]) throws(Diagnostic) -> Population.Intent? {
        let fields = entry.value.isNull ? nil : try entry.value.mapping("intent '\(entry.key)'")
        var failed = false
        if let fields {
            let unknown = unknownKeys(fields, allowed: intentKeys, in: "an intent")
            problems += unknown
            failed = !unknown.isEmpty
        }
        func field<T>(_ key: String, _ body: (YAMLValue) throws(Diagnostic) -> T) -> T? {
            guard let value = fields?[key] else { return nil }
            do { return try body(value) } catch { problems.append(error); failed = true; return nil }
        }
        let start = field("start") { v throws(Diagnostic) in try startAction(v) }
        let success = field("success") { v throws(Diagnostic) in Located(value: try v.string("success"), location: v.location) }
        let choose = field("choose") { v throws(Diagnostic) -> Bool in
            let text = try v.string("choose")
            guard text == "any" || text == "closest" else {
                throw Diagnostic(v.location, .error, "choose is 'any' (rows the path does not name are picked by chance) "
                                 + "or 'closest' (the default), not '\(text)'")
            }
            return text == "any"
        }
        let values = field("values") { v throws(Diagnostic) in
            let items = try v.sequence("values")
            let sets = items.compactMap { item in collect(&problems) { () throws(Diagnostic) in try intentValues(item) } }
            if sets.count < items.count { failed = true }
            if !sets.isEmpty, sets.count == items.count, sets.allSatisfy({ $0.weight == 0 }) {
                throw Diagnostic(v.location, .error, "give at least one value set a weight above 0")
            }
            return sets
        }
        let check = field("check") { v throws(Diagnostic) in try successCheck(v) }
        if check != nil, success == nil, let value = fields?["check"] {
            problems.append(Diagnostic(value.location, .error, "a check runs after success: give the intent a success event too"))
            failed = true
        }
        guard !failed else { return nil }
        return Population.Intent(name: entry.key, start: start, success: success, chooseAny: choose ?? false,
                                 values: values ?? [], check: check, location: entry.keyLocation)
    }

    /// `{press: ROLE-OR-ID}` or `{select: KIND}`.
    private static func startAction(_ value: YAMLValue) throws(Diagnostic) -> Population.StartAction {
        let fields = try value.mapping("start")
        guard fields.entries.count == 1, let entry = fields.entries.first else {
            throw Diagnostic(value.location, .error, "start is one action: {press: ROLE-OR-BUTTON-ID} or {select: ROW-KIND}")
        }
        let text = try entry.value.string(entry.key)
        switch entry.key {
        case "press":
            return .press(Population.ButtonTarget(text))
        case "select":
            guard itemKinds.contains(text) else {
                let hint = NameSuggestion.hint(for: text, among: itemKinds, noun: "row kind")
                throw Diagnostic(entry.value.location, .error, "no row kind '\(text)'\(hint)")
            }
            return .select(ItemKind(rawValue: text))
        default:
            let hint = NameSuggestion.hint(for: entry.key, among: ["press", "select"], noun: "action")
            throw Diagnostic(entry.keyLocation, .error, "start has no action '\(entry.key)'\(hint)")
        }
    }

    /// One value set: `path` (a list of row values), `weight`, and texts by field purpose (a text
    /// or a list of texts for several fields of one purpose).
    private static func intentValues(_ value: YAMLValue) throws(Diagnostic) -> Population.IntentValues {
        var values = Population.IntentValues(texts: [:], path: [], weight: 1)
        for entry in try value.mapping("a value set").entries {
            switch entry.key {
            case "weight":
                values.weight = try nonNegative(entry.value, "weight")
            case "path":
                values.path = try entry.value.sequence("path").map { item throws(Diagnostic) in try item.string("a path step") }
                guard !values.path.isEmpty else { throw Diagnostic(entry.value.location, .error, "a path needs at least one step") }
            default:
                if let items = try? entry.value.sequence() {
                    values.texts[entry.key] = try items.map { item throws(Diagnostic) in try item.string(entry.key) }
                } else {
                    values.texts[entry.key] = [try entry.value.string(entry.key)]
                }
            }
        }
        return values
    }

    private static func successCheck(_ value: YAMLValue) throws(Diagnostic) -> Population.SuccessCheck {
        let fields = try value.mapping("check")
        if let problem = unknownKeys(fields, allowed: checkKeys, in: "a check").first { throw problem }
        let event = try fields.required("otherwise", in: "a check")
        return Population.SuccessCheck(
            row: try fields.required("row", in: "a check").string("row"),
            detail: try fields.required("detail", in: "a check").string("detail"),
            event: Located(value: try event.string("otherwise"), location: event.location))
    }

    /// A persona, or nil when its problems are already in `problems`.
    static func parsePersona(_ value: YAMLValue, intents: [Population.Intent], declared: [String], _ problems: inout [Diagnostic])
        throws(Diagnostic) -> Population.Persona? {
        let fields = try value.mapping("a persona")
        let unknown = unknownKeys(fields, allowed: personaKeys, in: "a persona")
        problems += unknown
        var failed = !unknown.isEmpty
        func field<T>(_ key: String, _ fallback: T, _ body: (YAMLValue) throws(Diagnostic) -> T) -> T {
            guard let value = fields[key] else { return fallback }
            do { return try body(value) } catch { problems.append(error); failed = true; return fallback }
        }
        func chance(_ key: String, _ fallback: Double) -> Double {
            field(key, fallback) { v throws(Diagnostic) in try probability(v, key) }
        }
        var abandon: [String: Double] = [:]
        var abandonLocations: [String: SourceLocation] = [:]
        for entry in field("abandon", [], { v throws(Diagnostic) in try v.mapping("abandon").entries }) {
            abandonLocations[entry.key] = entry.keyLocation
            if let chance = collect(&problems, { () throws(Diagnostic) in try probability(entry.value, "abandon.\(entry.key)") }) {
                abandon[entry.key] = chance
            } else {
                failed = true
            }
        }
        let name = collect(&problems) { () throws(Diagnostic) in try fields.required("name", in: "a persona").string("name") }
        let plan = field("intents", []) { v throws(Diagnostic) in try personaIntents(v, intents: intents, declared: declared) }
        let (visits, visitWeights) = field("visits", (1...1, nil)) { v throws(Diagnostic) in try visitCounts(v) }
        let persona = Population.Persona(
            name: name ?? "",
            weight: field("weight", 1) { v throws(Diagnostic) in try nonNegative(v, "weight") },
            intents: plan, abandon: abandon.filter { $0.key != elsewhere },
            abandonLocations: abandonLocations.filter { $0.key != elsewhere }, abandonElsewhere: abandon[elsewhere] ?? 0,
            think: field("thinkSeconds", .init(min: 1, max: 1)) { v throws(Diagnostic) in try seconds(v, "thinkSeconds") },
            typingPerCharacter: field("typingSecondsPerCharacter", .init(min: 0.2, max: 0.2)) { v throws(Diagnostic) in
                try seconds(v, "typingSecondsPerCharacter")
            },
            typos: chance("typos", 0), retryAfterError: chance("retryAfterError", 0.5),
            prefer: field("prefer", []) { v throws(Diagnostic) in
                try v.sequence("prefer").map { item throws(Diagnostic) in Population.ButtonTarget(try item.string("a role or button id")) }
            },
            visits: visits, visitWeights: visitWeights,
            daysBetweenVisits: field("daysBetweenVisits", .init(min: 1, max: 1)) { v throws(Diagnostic) in
                try seconds(v, "daysBetweenVisits", atMost: 366)
            },
            arrivals: field("arrivals", []) { v throws(Diagnostic) in try arrivals(v) })
        return failed || name == nil ? nil : persona
    }

    /// Sessions per user: a whole number, `[min, max]` (uniform), or `{COUNT: WEIGHT, …}` (each
    /// count by its weight).
    private static func visitCounts(_ value: YAMLValue) throws(Diagnostic) -> (ClosedRange<Int>, [Double]?) {
        let wrong = "visits is a whole number of sessions per user (1 or more), [min, max], or {COUNT: WEIGHT, …}"
        if let entries = try? value.mapping("visits").entries {
            var weights: [Int: Double] = [:]
            for entry in entries {
                guard let count = Int(entry.key), (1...Population.maximumVisits).contains(count) else {
                    throw Diagnostic(entry.keyLocation, .error, "\(wrong); '\(entry.key)' is not a count from 1 to \(Population.maximumVisits)")
                }
                weights[count] = try nonNegative(entry.value, "the weight of \(count) visits")
            }
            guard let low = weights.keys.min(), let high = weights.keys.max(), weights.values.contains(where: { $0 > 0 }) else {
                throw Diagnostic(value.location, .error, "visits needs a count with a weight above 0")
            }
            return (low...high, (low...high).map { weights[$0] ?? 0 })
        }
        let range = try range(value, "visits", atMost: Double(Population.maximumVisits))
        guard range.lowerBound >= 1, range.lowerBound.rounded() == range.lowerBound, range.upperBound.rounded() == range.upperBound else {
            throw Diagnostic(value.location, .error, wrong)
        }
        return (Int(range.lowerBound)...Int(range.upperBound), nil)
    }

    /// `[{route: ROUTE, share: CHANCE}, …]`: shares of sessions that arrive through a route; they
    /// add up to 1 at most.
    private static func arrivals(_ value: YAMLValue) throws(Diagnostic) -> [Population.Arrival] {
        var arrivals: [Population.Arrival] = []
        for item in try value.sequence("arrivals") {
            let fields = try item.mapping("an arrival")
            if let problem = unknownKeys(fields, allowed: ["route", "share"], in: "an arrival").first { throw problem }
            let text = try fields.required("route", in: "an arrival")
            let written = try text.string("route")
            let route: Route
            do {
                route = try Route(parsing: written)
            } catch {
                throw Diagnostic(text.location, .error, error.description)
            }
            let share = try probability(try fields.required("share", in: "an arrival"), "share")
            arrivals.append(Population.Arrival(route: route, share: share, location: text.location))
        }
        if arrivals.reduce(0, { $0 + $1.share }) > 1 + 1e-9 {
            throw Diagnostic(value.location, .error, "the arrivals' shares add up to more than 1")
        }
        return arrivals
    }

    /// `{INTENT: CHANCE, …}` in the order written. An intent whose definition has problems
    /// (reported there) is left out without a second message.
    private static func personaIntents(_ value: YAMLValue, intents: [Population.Intent], declared: [String])
        throws(Diagnostic) -> [(intent: Int, chance: Double)] {
        let names = intents.map(\.name)
        var plan: [(intent: Int, chance: Double)] = []
        for entry in try value.mapping("intents").entries {
            let chance = try probability(entry.value, "the chance of intent '\(entry.key)'")
            guard let index = names.firstIndex(of: entry.key) else {
                if declared.contains(entry.key) { continue }
                let hint = NameSuggestion.hint(for: entry.key, among: declared, noun: "intent")
                throw Diagnostic(entry.keyLocation, .error, "no intent '\(entry.key)' is defined under intents\(hint)")
            }
            plan.append((index, chance))
        }
        return plan
    }
}
