import RemixKit

/// The second pass over a log: turns each session into its user's numbers (``UserFeatureTable``)
/// and counts what users entered, chose and are (attributes), now that the intents are known.
struct FitCollector {
    let structure: FitStructure
    let survey: AppSurvey
    private let segmenter: SessionSegmenter
    private(set) var table: UserFeatureTable
    private(set) var values: IntentValueTally
    /// Attribute name → value → users (first sessions), names in first-seen order.
    private(set) var attributes: [(name: String, counts: [String: Int])] = []
    /// Per intent: attempts and successes.
    private(set) var attempts: [Int]
    private(set) var successes: [Int]
    /// Steps seen per screen (all users), for the notes beside fitted values.
    private(set) var screenSteps: [Int]
    private(set) var services: ServiceTally

    /// Events that mean a service failed, which explain an error.
    private let serviceFailures: Set<String>

    init(structure: FitStructure, survey: AppSurvey, services: [ServiceParameterSpec]) {
        self.services = ServiceTally(specs: services)
        serviceFailures = ServiceTally.failureEvents(services)
        self.structure = structure
        self.survey = survey
        segmenter = SessionSegmenter(survey: survey)
        table = UserFeatureTable(layout: FeatureLayout(intents: structure.intents.count, screens: structure.screens.count))
        values = IntentValueTally(intents: structure.intents.count)
        attempts = Array(repeating: 0, count: structure.intents.count)
        successes = attempts
        screenSteps = Array(repeating: 0, count: structure.screens.count)
    }

    mutating func add(_ trace: SessionTrace) {
        guard let segments = segmenter.segments(of: trace) else { return }
        let row = table.row(of: trace.user)
        table.addSession(row: row, start: trace.start)
        if trace.visit <= 1 { count(trace.attributes) }
        services.add(trace)
        addTimes(segments, of: trace, row: row)
        addIntents(segments, of: trace, row: row)
    }

    /// Packs the users' numbers once the log is read: the form the persona mixture reads.
    mutating func packTable() {
        table.packAll()
    }

    private mutating func count(_ attributes: [(name: String, value: String)]) {
        for (name, value) in attributes {
            if let index = self.attributes.firstIndex(where: { $0.name == name }) {
                self.attributes[index].counts[value, default: 0] += 1
            } else {
                self.attributes.append((name, [value: 1]))
            }
        }
    }

    /// Thinking time: each stay on the first screen before an action, and each one-step stay on a
    /// screen without text fields; typing: one-step stays on text screens.
    private mutating func addTimes(_ segments: SessionSegments, of trace: SessionTrace, row: Int) {
        let layout = table.layout
        for dwell in segments.homeDwells where dwell > 0 { table.addTimeSample(Double(dwell) / 1000, row: row, at: layout.think) }
        for attempt in segments.attempts {
            let serviceFailed = FitStructureBuilder.serviceFailed(in: attempt, of: trace, serviceFailures: serviceFailures)
            for visit in attempt.visits where visit.steps > 0 && !visit.afterError && structure.slipScreens.contains(visit.screen) {
                table[row, layout.slips] += 1
                if FitStructureBuilder.retyped(visit, serviceFailed: serviceFailed) {
                    table[row, layout.slips + 1] += 1
                }
            }
            for visit in attempt.visits where visit.steps == 1 && !visit.afterError && visit.exit > visit.enter {
                if survey.textScreens[visit.screen] == nil {
                    table.addTimeSample(Double(visit.exit - visit.enter) / 1000, row: row, at: layout.think)
                }
            }
        }
    }

    private mutating func addIntents(_ segments: SessionSegments, of trace: SessionTrace, row: Int) {
        let layout = table.layout
        let intents = structure.intents
        var position = 0
        var stopped = false
        var steps: [(intent: Int, steps: AttemptSteps)] = []
        for attempt in segments.attempts {
            guard let intent = structure.intent(forKey: attempt.key) else { continue }
            steps.append((intent, AttemptSteps(attempt, of: trace, success: intents[intent].success, structure: structure)))
            attempts[intent] += 1
            if steps[steps.count - 1].steps.succeeded {
                successes[intent] += 1
                addTyping(attempt, of: trace, intent: intent, row: row, steps: steps[steps.count - 1].steps)
            }
        }
        for (offset, entry) in steps.enumerated() {
            for step in entry.steps.steps {
                screenSteps[step.screen] += 1
                let column = switch step.kind {
                case .survived: layout.survived(step.screen)
                case .abandoned: layout.abandoned(step.screen)
                case .retried: layout.retried(step.screen)
                case .gaveUpAfterError: layout.gaveUpAfterError(step.screen)
                case .left: offset == steps.count - 1 ? layout.leftThenEnded(intent: entry.intent, screen: step.screen)
                    : layout.survived(step.screen)
                }
                table[row, column] += 1
            }
            guard !stopped else { continue }
            if entry.intent >= position {
                for skipped in position..<entry.intent { table[row, layout.skipped(skipped)] += 1 }
                table[row, layout.tried(entry.intent)] += 1
                position = entry.intent + 1
            }
            if entry.steps.gaveUp || (entry.steps.left && offset == steps.count - 1) { stopped = true }
        }
        if !stopped {
            for skipped in position..<intents.count { table[row, layout.skipped(skipped)] += 1 }
        }
    }

    /// Counts a successful attempt's values and, where its text is known, the typing on its text screens.
    private mutating func addTyping(_ attempt: SessionSegments.Attempt, of trace: SessionTrace, intent: Int, row: Int,
                                    steps: AttemptSteps) {
        guard let success = structure.intents[intent].success,
              let index = attempt.events.first(where: { Self.type(of: trace.events[$0]) == success }),
              case .domain = trace.events[index].kind else { return }
        var stepCount = [Int](repeating: 0, count: structure.screens.count)
        for step in steps.steps { stepCount[step.screen] += 1 }
        values.add(attempt, success: index, of: trace, intent: intent, survey: survey, steps: stepCount)
        let typing = table.layout.typing
        var entered: IntentValueTally.Texts?
        for visit in attempt.visits where visit.steps == 1 && !visit.afterError && visit.exit > visit.enter {
            guard let purposes = survey.textScreens[visit.screen] else { continue }
            if entered == nil { entered = IntentValueTally.entered(attempt, success: index, of: trace, survey: survey) }
            let typed = entered ?? [:]
            let characters = Set(purposes).reduce(0) { total, purpose in total + (typed[purpose] ?? []).reduce(0) { $0 + $1.count } }
            guard characters > 0 else { continue }
            let dwell = Double(visit.exit - visit.enter) / 1000, count = Double(characters)
            table[row, typing] += 1
            table[row, typing + 1] += Float(dwell)
            table[row, typing + 2] += Float(dwell * dwell)
            table[row, typing + 3] += Float(count)
            table[row, typing + 4] += Float(count * count)
            table[row, typing + 5] += Float(dwell * count)
        }
    }

    private static func type(of event: SessionTrace.Event) -> String? {
        if case .domain(let type, _) = event.kind { return type }
        return nil
    }
}
