/// What users entered and chose for each intent, counted from the attempts that succeeded: the
/// texts the success event carries under the names of the fields' purposes (`title`), and the path
/// of rows they chose (the contexts they drilled through, then the row the event names).
///
/// A success is seen only if the user did not give up on the way, and a longer path has more steps
/// to give up on, so counting successes would favour short paths. Each success is kept with the
/// steps it took (``StepCount``) and weighed, once the chances to give up are fitted, by one over
/// the chance of surviving those steps — an estimate of how often users *meant* each value.
struct IntentValueTally {
    /// Texts by purpose.
    typealias Texts = [String: [String]]
    /// Steps an attempt took on each screen (by index into ``FitStructure/screens``).
    typealias StepCount = [Int]

    /// Per intent: each set of texts with the step counts of the successes that carried it.
    private(set) var texts: [[Texts: [StepCount: Int]]]
    /// Per intent and set of texts: the paths users walked (from attempts where they chose rows).
    private(set) var paths: [[Texts: [[String]: [StepCount: Int]]]]
    /// Purposes of text fields users typed into that no success event records, by intent.
    private(set) var unrecorded: [Set<String>]

    init(intents: Int) {
        texts = Array(repeating: [:], count: intents)
        paths = Array(repeating: [:], count: intents)
        unrecorded = Array(repeating: [], count: intents)
    }

    /// Counts a successful attempt at `intent` that took `steps`; `success` is the index of its success event.
    mutating func add(_ attempt: SessionSegments.Attempt, success: Int, of trace: SessionTrace, intent: Int, survey: AppSurvey,
                      steps: StepCount) {
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
        texts[intent][entered, default: [:]][steps, default: 0] += 1
        let walked = attempt.visits.contains { $0.steps > 0 && survey.choiceScreens.contains($0.screen) }
        guard walked else { return }
        var path = Self.stackBefore(success, in: trace).map(SessionSegments.contexts(ofStack:)) ?? []
        let chosen = fields.lazy.compactMap { field in
            survey.rowValues[field.value] ?? (survey.rowValues.values.contains(field.value) ? field.value : nil)
        }.first
        if let chosen, path.last != chosen { path.append(chosen) }
        guard !path.isEmpty else { return }
        paths[intent][entered, default: [:]][path, default: [:]][steps, default: 0] += 1
    }

    /// The stack of the last screen change at or before event `index`.
    private static func stackBefore(_ index: Int, in trace: SessionTrace) -> String? {
        for earlier in stride(from: index, through: 0, by: -1) {
            if case .screen(_, _, let stack) = trace.events[earlier].kind { return stack }
        }
        return nil
    }

    /// The intent's values, most frequent first: each set of texts with the path users most often
    /// walked for it (or, for an intent without texts, each path), weighed by how often users meant
    /// it — each success counted `1 / survival(its steps)` — with the successes it comes from.
    /// Values seen once are left out when more frequent ones exist.
    func values(_ intent: Int, survival: (StepCount) -> Double) -> [(texts: Texts, path: [String], weight: Double, successes: Int)] {
        func weigh(_ counts: [StepCount: Int]) -> (weight: Double, successes: Int) {
            counts.reduce((0.0, 0)) { total, entry in
                (total.0 + Double(entry.value) / max(survival(entry.key), 1e-6), total.1 + entry.value)
            }
        }
        var result: [(texts: Texts, path: [String], weight: Double, successes: Int)] = []
        let textCounts = texts[intent]
        if textCounts.count == 1, let only = textCounts.first, only.key.isEmpty {
            for (path, counts) in paths[intent][[:]] ?? [:] {
                let (weight, successes) = weigh(counts)
                result.append(([:], path, weight, successes))
            }
        } else {
            for (entered, counts) in textCounts {
                let walked = (paths[intent][entered] ?? [:]).map { ($0.key, weigh($0.value).successes) }
                    .max { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0.lexicographicallyPrecedes($1.0) }
                let (weight, successes) = weigh(counts)
                result.append((entered, walked?.0 ?? [], weight, successes))
            }
        }
        if result.contains(where: { $0.successes > 1 }) { result.removeAll { $0.successes < 2 } }
        result.sort { $0.weight != $1.weight ? $0.weight > $1.weight : Self.order($0.texts, $0.path) < Self.order($1.texts, $1.path) }
        return result
    }

    private static func order(_ texts: Texts, _ path: [String]) -> String {
        texts.keys.sorted().map { "\($0)=\(texts[$0] ?? [])" }.joined(separator: ";") + "|" + path.joined(separator: ">")
    }
}
