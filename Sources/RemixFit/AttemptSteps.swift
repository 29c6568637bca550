/// What became of each step of an attempt, as the simulated user's rules read it: a step on a
/// screen is a chance to give up; after an error the user tries again or gives up.
struct AttemptSteps {
    enum Kind {
        /// The user went on.
        case survived
        /// The user gave up here (the intent has a success event that did not come).
        case abandoned
        /// After an error, the user tried again.
        case retried
        /// After an error, the user gave up.
        case gaveUpAfterError
        /// The user left here without the intent's success, which for an intent without a success
        /// event is either its end (nothing more to do) or giving up; the rest of the session decides.
        case left
    }

    /// Screen index (in ``FitStructure/screens``) and what happened, in order.
    var steps: [(screen: Int, kind: Kind)] = []
    /// Whether the attempt ended with the user giving up (the session ends there).
    var gaveUp: Bool { steps.last.map { $0.kind == .abandoned || $0.kind == .gaveUpAfterError } ?? false }
    /// Whether it ended with an ambiguous leave.
    var left: Bool { steps.last?.kind == .left }
    /// Whether the success event came.
    var succeeded = false

    /// The steps of `attempt`, an attempt at an intent whose success event is `success`.
    init(_ attempt: SessionSegments.Attempt, of trace: SessionTrace, success: String?, structure: FitStructure) {
        let successTime = success.flatMap { success in
            attempt.events.first { index in
                if case .domain(let type, _) = trace.events[index].kind { return type == success }
                return false
            }.map { trace.events[$0].time }
        }
        let stepping = attempt.visits.indices.filter { attempt.visits[$0].steps > 0 }
        if let successTime {
            succeeded = true
            for index in stepping where attempt.visits[index].enter < successTime {
                record(attempt.visits[index], leaving: false, outcome: .survived, structure)
            }
            return
        }
        guard let lastStepping = stepping.last else { return }
        var leaveAt = lastStepping
        if case .home(let transition) = attempt.ending {
            guard SessionSegments.backward.contains(transition) else {
                for index in stepping { record(attempt.visits[index], leaving: false, outcome: .survived, structure) }
                return
            }
            // The user's way out: the visits they went back through, from the first one they left backward.
            var first = attempt.visits.count - 1
            while first > 0, SessionSegments.backward.contains(attempt.visits[first - 1].exitKind) { first -= 1 }
            leaveAt = stepping.last { $0 <= first } ?? lastStepping
        }
        let outcome: Kind = success == nil && attempt.ending != .session ? .left : .abandoned
        for index in stepping where index <= leaveAt {
            record(attempt.visits[index], leaving: index == leaveAt, outcome: outcome, structure)
        }
    }

    private mutating func record(_ visit: SessionSegments.Visit, leaving: Bool, outcome: Kind, _ structure: FitStructure) {
        guard let screen = structure.screen(visit.screen) else { return }
        for step in 0..<visit.steps {
            let last = leaving && step == visit.steps - 1
            let afterError = visit.afterError && step == 0 || step > 0
            switch (last, afterError) {
            case (false, false): steps.append((screen, .survived))
            case (false, true): steps.append((screen, .retried))
            case (true, true): steps.append((screen, outcome == .left ? .left : .gaveUpAfterError))
            case (true, false): steps.append((screen, outcome))
            }
        }
    }
}
