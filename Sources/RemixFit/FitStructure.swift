import RemixSimulation

/// What the first pass over a log learns about the app as users use it: the intents (how each
/// begins, the event that means it worked, their order), the screens users step on, and how many
/// sessions say each — everything the second pass needs to turn each user into numbers.
struct FitStructure {
    /// An intent: the start action that begins it and the domain event that means it worked.
    struct Intent {
        var start: Population.StartAction?
        /// The screens its first action showed (one per feature that can fill the slot it opens).
        var keys: Set<String>
        var success: String?
        /// Attempts in the log.
        var attempts = 0
    }

    var intents: [Intent] = []
    /// Screens users step on, in first-seen order; when more than ``mostScreens`` were, the most
    /// stepped-on ones, and last the empty name for all the others together (``rareScreens``).
    var screens: [String] = [] {
        didSet { screenIndex = Dictionary(screens.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first }) }
    }
    private var screenIndex: [String: Int] = [:]
    /// Screens stepped on too rarely to be named, which share the last of ``screens``.
    var rareScreens: Set<String> = []
    /// Every screen the log shows (stepped on or not, e.g. the first screen and toasts), sorted;
    /// when more than ``mostScreens`` were, those shown in the most sessions.
    var shownScreens: [String] = []
    /// Screens shown but left out of ``shownScreens``.
    var unlistedShownScreens = 0
    /// The most screens a fitted file names: a log of ever new screen names (a screen named after
    /// what it shows) would otherwise make a file too large to read.
    static let mostScreens = 100
    /// Text screens that refuse a slip: the user typed, pressed on, and stayed to type again, with
    /// no service failure to explain it, in at least 1 % of the stays there. A slip on another text
    /// screen passes unseen (it shows only in what was entered).
    var slipScreens: Set<String> = []
    /// Sessions read, and those with no intent at all.
    var sessions = 0
    var emptySessions = 0
    /// First actions the survey of the app does not explain (screen → attempts), left out.
    var unexplained: [String: Int] = [:]

    /// The intent an attempt that began with `key` belongs to.
    func intent(forKey key: String?) -> Int? {
        guard let key else { return intents.firstIndex { $0.start == nil } }
        return intents.firstIndex { $0.keys.contains(key) }
    }

    func screen(_ name: String) -> Int? {
        screenIndex[name] ?? (rareScreens.contains(name) ? screenIndex[""] : nil)
    }
}

/// Builds a ``FitStructure`` session by session (the first pass).
struct FitStructureBuilder {
    let survey: AppSurvey
    /// Events that mean a service failed (each a `share` estimate's event), which explain an error.
    let serviceFailures: Set<String>
    /// Per text screen: stays with a typing step, and those the user had to type again.
    private var textStays: [String: (stays: Int, retyped: Int)] = [:]
    private var structure = FitStructure()
    /// Per intent and event type: attempts where the event was the last thing before the user
    /// stopped stepping, minus attempts where the user went on stepping after it.
    private var successScores: [[String: Int]] = []
    /// How often intent i was begun before intent j in one session.
    private var before: [[Int]] = []
    /// Sessions that showed each screen.
    private var shown: [String: Int] = [:]
    /// Steps on each screen, in first-seen order.
    private var steppedOn: [String: Int] = [:]
    private var screenOrder: [String] = []

    init(survey: AppSurvey, serviceFailures: Set<String>) {
        self.survey = survey
        self.serviceFailures = serviceFailures
    }

    /// Whether a stay on a text screen made the user type again (an error the screen itself showed):
    /// more than one step there, in an attempt where no service failed (``serviceFailed(in:of:serviceFailures:)``).
    static func retyped(_ visit: SessionSegments.Visit, serviceFailed: Bool) -> Bool {
        visit.steps > 1 && !serviceFailed
    }

    /// Whether a service failed during the attempt (one of `serviceFailures` was logged), which
    /// explains a stay where the user typed again.
    static func serviceFailed(in attempt: SessionSegments.Attempt, of trace: SessionTrace, serviceFailures: Set<String>) -> Bool {
        attempt.events.contains { index in
            if case .domain(let type, _) = trace.events[index].kind { return serviceFailures.contains(type) }
            return false
        }
    }

    mutating func add(_ segments: SessionSegments, of trace: SessionTrace) {
        structure.sessions += 1
        var shownHere = Set<String>()
        for event in trace.events {
            if case .screen(_, let screen?, _) = event.kind { shownHere.insert(SessionSegments.baseName(screen)) }
        }
        for screen in shownHere { shown[screen, default: 0] += 1 }
        if segments.isEmpty { structure.emptySessions += 1 }
        // Attempts begun so far in the session, by intent: each pair of attempts counts once
        // (`before`), in time linear in the attempts.
        var begun: [Int: Int] = [:]
        for attempt in segments.attempts {
            guard let intent = intentIndex(attempt.key) else {
                structure.unexplained[attempt.key ?? "", default: 0] += 1
                continue
            }
            structure.intents[intent].attempts += 1
            for visit in attempt.visits where visit.steps > 0 {
                if steppedOn[visit.screen] == nil { screenOrder.append(visit.screen) }
                steppedOn[visit.screen, default: 0] += visit.steps
            }
            score(attempt, of: trace, intent: intent)
            let serviceFailed = Self.serviceFailed(in: attempt, of: trace, serviceFailures: serviceFailures)
            for visit in attempt.visits where visit.steps > 0 && !visit.afterError && survey.textScreens[visit.screen] != nil {
                let retyped = Self.retyped(visit, serviceFailed: serviceFailed)
                textStays[visit.screen, default: (0, 0)].stays += 1
                if retyped { textStays[visit.screen, default: (0, 0)].retyped += 1 }
            }
            for (earlier, count) in begun where earlier != intent { before[earlier][intent] += count }
            begun[intent, default: 0] += 1
        }
    }

    /// The intent for an attempt's key, made on first sight.
    private mutating func intentIndex(_ key: String?) -> Int? {
        if let existing = structure.intent(forKey: key) {
            if let key { structure.intents[existing].keys.insert(key) }
            return existing
        }
        let start: Population.StartAction?
        if let key {
            guard let action = survey.startActions[key] else { return nil }
            if let same = structure.intents.firstIndex(where: { $0.start == action }) {
                structure.intents[same].keys.insert(key)
                return same
            }
            start = action
        } else {
            start = nil
        }
        structure.intents.append(FitStructure.Intent(start: start, keys: key.map { [$0] } ?? []))
        successScores.append([:])
        for index in before.indices { before[index].append(0) }
        before.append(Array(repeating: 0, count: structure.intents.count))
        return structure.intents.count - 1
    }

    /// Scores each domain event of the attempt as its success: the event after which the user
    /// took no further step (the app moved on, or the session ended without another action).
    private mutating func score(_ attempt: SessionSegments.Attempt, of trace: SessionTrace, intent: Int) {
        var lastTime: [String: Int64] = [:]
        for index in attempt.events {
            guard case .domain(let type, _) = trace.events[index].kind, !survey.leavingEvents.contains(type),
                  trace.events[index].time > attempt.start || attempt.key == nil else { continue }
            lastTime[type] = trace.events[index].time
        }
        for (type, time) in lastTime {
            let steppedAfter = attempt.visits.contains { $0.enter >= time && $0.steps > 0 && $0.exitKind != "end" }
            successScores[intent][type, default: 0] += steppedAfter ? -1 : 1
        }
    }

    /// `screens` (in order) when there are at most ``FitStructure/mostScreens``, else the most
    /// counted of them (ties by name) in order and the empty name for the others, which are rare.
    private static func named(_ screens: [String], counts: [String: Int]) -> (named: [String], rare: Set<String>) {
        guard screens.count > FitStructure.mostScreens else { return (screens, []) }
        let ranked = screens.sorted { a, b in counts[a, default: 0] != counts[b, default: 0] ? counts[a, default: 0] > counts[b, default: 0] : a < b }
        let kept = Set(ranked.prefix(FitStructure.mostScreens - 1))
        return (screens.filter(kept.contains) + [""], Set(screens.filter { !kept.contains($0) }))
    }

    /// The structure: each intent's success event chosen, intents in the order users begin them.
    func build() -> FitStructure {
        var result = structure
        (result.screens, result.rareScreens) = Self.named(screenOrder, counts: steppedOn)
        let listed = Self.named(shown.keys.sorted(), counts: shown).named.filter { !$0.isEmpty }
        result.shownScreens = listed.sorted()
        result.unlistedShownScreens = shown.count - listed.count
        result.slipScreens = Set(textStays.filter { $0.value.retyped * 100 >= $0.value.stays && $0.value.retyped > 0 }.keys)
        for index in result.intents.indices {
            let threshold = max(1, result.intents[index].attempts / 20)
            let best = successScores[index].filter { $0.value >= threshold }
                .max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }
            result.intents[index].success = best?.key
        }
        // Intents in the order users begin them: by how often each came before the others.
        let count = result.intents.count
        let net: [Int] = (0..<count).map { i in
            var net = 0
            for other in 0..<count { net += before[i][other] - before[other][i] }
            return net
        }
        let order = (0..<count).sorted { net[$0] != net[$1] ? net[$0] > net[$1] : result.intents[$0].attempts > result.intents[$1].attempts }
        result.intents = order.map { result.intents[$0] }
        return result
    }
}
