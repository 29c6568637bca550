/// What users entered and chose for each intent, counted from the attempts that succeeded: the
/// texts the attempt's events carry under the names of the fields' purposes (`title`, `query`), and
/// the path of rows chosen (the contexts drilled through, then the row the event names).
///
/// A success is seen only if the user did not give up on the way, and a longer path has more steps
/// to give up on, so counting successes would favour short paths. Each success is kept with the
/// steps it took (``StepCount``) and weighed, once the chances to give up are fitted, by one over
/// the chance of surviving those steps — an estimate of how often users *meant* each value.
///
/// Each flow shows part of a value: Marketplace's manual insertion the title and the whole path,
/// the automatic one only the title; GroupBrowser's tree the path, its search the query and the
/// group found; Calculator's two entries the numbers or the expression. ``values(_:survival:)``
/// joins the parts on what they share (a text, the chosen row), so that one value serves every flow.
struct IntentValueTally {
    /// Texts by purpose.
    typealias Texts = [String: [String]]
    /// Steps an attempt took on each screen (by index into ``FitStructure/screens``).
    typealias StepCount = [Int]

    /// What one success showed of its value.
    struct Observation: Hashable {
        var texts: Texts
        /// The rows chosen, from the top; empty when the user chose none (the flow chose for them).
        var path: [String]
        /// Whether the path was drilled through from the top (not a row picked from a flat list).
        var drilled: Bool
    }

    /// Per intent: each observation with the step counts of the successes that showed it.
    private(set) var observations: [[Observation: [StepCount: Int]]]
    /// Purposes of text fields users typed into that no event records, by intent.
    private(set) var unrecorded: [Set<String>]

    init(intents: Int) {
        observations = Array(repeating: [:], count: intents)
        unrecorded = Array(repeating: [], count: intents)
    }

    /// Counts a successful attempt at `intent` that took `steps`; `success` is the index of its success event.
    mutating func add(_ attempt: SessionSegments.Attempt, success: Int, of trace: SessionTrace, intent: Int, survey: AppSurvey,
                      steps: StepCount) {
        guard case .domain(_, let fields) = trace.events[success].kind else { return }
        let entered = Self.entered(attempt, success: success, of: trace, survey: survey) { unrecorded[intent].insert($0) }
        var observation = Observation(texts: entered, path: [], drilled: false)
        if attempt.visits.contains(where: { $0.steps > 0 && survey.choiceScreens.contains($0.screen) }) {
            let contexts = Self.stackBefore(success, in: trace).map(SessionSegments.contexts(ofStack:)) ?? []
            let events = [success] + attempt.events.filter { $0 != success }
            let chosen = events.lazy.compactMap { index -> String? in
                guard case .domain(_, let eventFields) = trace.events[index].kind else { return nil }
                return (index == success ? fields : eventFields).lazy.compactMap { field in
                    survey.rowValues[field.value] ?? (survey.rowValues.values.contains(field.value) ? field.value : nil)
                }.first
            }.first
            observation.path = contexts
            if let chosen, contexts.last != chosen { observation.path.append(chosen) }
            observation.drilled = !contexts.isEmpty
        }
        observations[intent][observation, default: [:]][steps, default: 0] += 1
    }

    /// What the user typed on the attempt's text screens, by purpose: the texts of a field named as
    /// the purpose, in the success event or else in another domain event of the attempt. Purposes no
    /// event records go to `unrecorded`.
    static func entered(_ attempt: SessionSegments.Attempt, success: Int, of trace: SessionTrace, survey: AppSurvey,
                        unrecorded: (String) -> Void = { _ in }) -> Texts {
        var entered: Texts = [:]
        // Each purpose is looked for once, however many stays there were on its screens.
        var looked = Set<String>()
        let events = [success] + attempt.events.filter { $0 != success }
        for visit in attempt.visits where visit.steps > 0 {
            for purpose in survey.textScreens[visit.screen] ?? [] where looked.insert(purpose).inserted {
                let texts = events.lazy.compactMap { index -> [String]? in
                    guard case .domain(_, let fields) = trace.events[index].kind,
                          let texts = fields.first(where: { $0.name == purpose })?.texts, !texts.isEmpty else { return nil }
                    return texts
                }.first
                if let texts { entered[purpose] = texts } else { unrecorded(purpose) }
            }
        }
        return entered
    }

    /// The stack of the last screen change at or before event `index`.
    private static func stackBefore(_ index: Int, in trace: SessionTrace) -> String? {
        for earlier in stride(from: index, through: 0, by: -1) {
            if case .screen(_, _, let stack) = trace.events[earlier].kind { return stack }
        }
        return nil
    }
}
