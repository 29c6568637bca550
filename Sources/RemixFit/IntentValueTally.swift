/// What users entered and chose for each intent, counted from the attempts that succeeded: the
/// texts the success event carries under the names of the fields' purposes (`title`), and the path
/// of rows they chose (the contexts they drilled through, then the row the event names).
struct IntentValueTally {
    /// Texts by purpose, as a sorted list so that it can be counted.
    typealias Texts = [String: [String]]

    /// Per intent: each set of texts with how many successes carried it.
    private(set) var texts: [[Texts: Int]]
    /// Per intent and set of texts: the paths users walked (from attempts where they chose rows).
    private(set) var paths: [[Texts: [[String]: Int]]]
    /// Purposes of text fields users typed into that no success event records, by intent.
    private(set) var unrecorded: [Set<String>]

    init(intents: Int) {
        texts = Array(repeating: [:], count: intents)
        paths = Array(repeating: [:], count: intents)
        unrecorded = Array(repeating: [], count: intents)
    }

    /// Counts a successful attempt at `intent`; `success` is the index of its success event.
    mutating func add(_ attempt: SessionSegments.Attempt, success: Int, of trace: SessionTrace, intent: Int, survey: AppSurvey) {
        guard case .domain(_, let fields) = trace.events[success].kind else { return }
        var entered: Texts = [:]
        for visit in attempt.visits where visit.steps > 0 {
            for purpose in survey.textScreens[visit.screen] ?? [] where entered[purpose] == nil {
                if let value = fields.first(where: { $0.name == purpose })?.value {
                    entered[purpose] = [value]
                } else {
                    unrecorded[intent].insert(purpose)
                }
            }
        }
        texts[intent][entered, default: 0] += 1
        let walked = attempt.visits.contains { $0.steps > 0 && survey.choiceScreens.contains($0.screen) }
        guard walked else { return }
        var path = Self.stackBefore(success, in: trace).map(SessionSegments.contexts(ofStack:)) ?? []
        let chosen = fields.lazy.compactMap { field in
            survey.rowValues[field.value] ?? (survey.rowValues.values.contains(field.value) ? field.value : nil)
        }.first
        if let chosen, path.last != chosen { path.append(chosen) }
        guard !path.isEmpty else { return }
        paths[intent][entered, default: [:]][path, default: 0] += 1
    }

    /// The stack of the last screen change at or before event `index`.
    private static func stackBefore(_ index: Int, in trace: SessionTrace) -> String? {
        for earlier in stride(from: index, through: 0, by: -1) {
            if case .screen(_, _, let stack) = trace.events[earlier].kind { return stack }
        }
        return nil
    }

    /// The intent's values, most frequent first: each set of texts with the path users most
    /// often walked for it (or, for an intent without texts, each path), and how many successes
    /// each stands for. Values seen once are left out when more frequent ones exist.
    func values(_ intent: Int) -> [(texts: Texts, path: [String], count: Int)] {
        var result: [(texts: Texts, path: [String], count: Int)] = []
        let textCounts = texts[intent]
        if textCounts.count == 1, let only = textCounts.first, only.key.isEmpty {
            for (path, count) in paths[intent][[:]] ?? [:] { result.append(([:], path, count)) }
        } else {
            for (entered, count) in textCounts {
                let walked = paths[intent][entered]?.max { $0.value != $1.value ? $0.value < $1.value : $0.key.lexicographicallyPrecedes($1.key) }
                result.append((entered, walked?.key ?? [], count))
            }
        }
        result.sort { $0.count != $1.count ? $0.count > $1.count : Self.order($0.texts, $0.path) < Self.order($1.texts, $1.path) }
        if result.contains(where: { $0.count > 1 }) { result.removeAll { $0.count < 2 } }
        return result
    }

    private static func order(_ texts: Texts, _ path: [String]) -> String {
        texts.keys.sorted().map { "\($0)=\(texts[$0] ?? [])" }.joined(separator: ";") + "|" + path.joined(separator: ">")
    }
}
