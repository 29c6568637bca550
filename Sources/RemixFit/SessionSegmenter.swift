/// Cuts a session's trace into intent attempts (``SessionSegments``) the way the simulated user
/// acts: an intent begins with an action on the first screen (or there, when the first screen
/// itself takes the input), each stay on a screen is a step or more, screens that block input are
/// waited out, and an attempt ends back on the first screen or with the session.
struct SessionSegmenter {
    let survey: AppSurvey

    func segments(of trace: SessionTrace) -> SessionSegments? {
        var cutter = Cutter(survey: survey, trace: trace)
        for index in trace.events.indices { cutter.take(index) }
        return cutter.finish()
    }

    /// The state of one cut, event by event. The segments and the open attempt are changed in
    /// place (never copied out and back), and a visit's steps are counted from the events logged
    /// since it opened, so that a session's cut takes time in proportion to its events.
    private struct Cutter {
        let survey: AppSurvey
        let trace: SessionTrace
        var segments: SessionSegments?
        var current: SessionSegments.Attempt?
        /// How many of the open attempt's events were logged before its last visit opened.
        var eventsBeforeVisit = 0
        /// When the user came back to (or first saw) the first screen.
        var homeSince: Int64 = 0
        /// Domain events since the last screen change, outside an attempt.
        var pending: [Int] = []
        /// The front screen (with context) before the current one, when the current one blocks input.
        var beforeBlocking: String?

        init(survey: AppSurvey, trace: SessionTrace) {
            self.survey = survey
            self.trace = trace
        }

        mutating func take(_ index: Int) {
            let event = trace.events[index]
            switch event.kind {
            case .domain:
                if current != nil { current!.events.append(index) } else { pending.append(index) }
            case .screen(let transition, let screen, let stack):
                let front = SessionSegments.front(ofStack: stack)
                guard segments != nil else { return start(at: event.time, front: front) }
                if current == nil {
                    begin(transition: transition, screen: screen, front: front, time: event.time)
                } else {
                    move(transition: transition, front: front, time: event.time)
                }
            }
        }

        /// The first screen shows: the session's home. Where it takes the intent's input, the
        /// first intent begins on it at once.
        private mutating func start(at time: Int64, front: String) {
            let home = SessionSegments.baseName(front)
            segments = SessionSegments(home: home)
            homeSince = time
            if survey.homeServesIntents {
                current = SessionSegments.Attempt(key: nil, start: time, end: time)
                open(front: front, kind: "show", time: time)
            }
        }

        /// A screen change while the user is on the first screen: an action there began an intent.
        private mutating func begin(transition: String, screen: String?, front: String, time: Int64) {
            guard SessionSegments.forward.contains(transition), let screen else { return }
            let shown = SessionSegments.baseName(screen)
            guard shown != segments!.home else { return }
            segments!.homeDwells.append(time - homeSince)
            var attempt = SessionSegments.Attempt(key: shown, start: time, end: time)
            attempt.events = pending.filter { trace.events[$0].time == time }
            pending.removeAll(keepingCapacity: true)
            if SessionSegments.baseName(front) == segments!.home {
                // Shown beside the first screen (a split's detail): begun and done at once.
                attempt.ending = .beside
                segments!.attempts.append(attempt)
                homeSince = time
                return
            }
            current = attempt
            open(front: front, kind: transition, time: time)
        }

        /// A screen change during an attempt.
        private mutating func move(transition: String, front: String, time: Int64) {
            if let last = current!.visits.last, last.fullName == front, beforeBlocking == nil { return }
            closeVisit(at: time, kind: transition)
            let base = SessionSegments.baseName(front)
            if base == segments!.home && current!.key != nil {
                current!.end = time
                current!.ending = .home(transition: transition)
                segments!.attempts.append(current.take()!)
                homeSince = time
                beforeBlocking = nil
                return
            }
            if survey.blockingScreens.contains(base) {
                if beforeBlocking == nil { beforeBlocking = current!.visits.last?.fullName ?? "" }
                return
            }
            let returned = beforeBlocking == front
            beforeBlocking = nil
            open(front: front, kind: transition, time: time, returnedAfterBlocking: returned)
        }

        private mutating func open(front: String, kind: String, time: Int64, returnedAfterBlocking: Bool = false) {
            eventsBeforeVisit = current?.events.count ?? 0
            current?.visits.append(.init(screen: SessionSegments.baseName(front), fullName: front, enter: time, exit: time,
                                         exitKind: "", enterKind: kind, steps: 0, afterError: returnedAfterBlocking))
        }

        /// Ends the open attempt's open visit (if any): its steps are one per distinct time a domain
        /// event was logged strictly inside it, plus the one that ended it — none when it ended at
        /// once. The events inside are among those logged since it opened (a session's events are
        /// in time order).
        private mutating func closeVisit(at time: Int64, kind: String) {
            guard let last = current!.visits.indices.last, current!.visits[last].exitKind.isEmpty else { return }
            let enter = current!.visits[last].enter
            var inside = 0
            var previous: Int64?
            for index in current!.events[eventsBeforeVisit...] {
                let logged = trace.events[index].time
                guard logged > enter && logged < time, logged != previous else { continue }
                inside += 1
                previous = logged
            }
            current!.visits[last].exit = time
            current!.visits[last].exitKind = kind
            current!.visits[last].steps = time > enter ? inside + 1 : 0
        }

        mutating func finish() -> SessionSegments? {
            guard segments != nil else { return nil }
            let end = trace.end ?? trace.events.last?.time ?? trace.start
            if current != nil {
                closeVisit(at: end, kind: "end")
                var attempt = current.take()!
                attempt.end = end
                attempt.ending = .session
                let acted = attempt.visits.contains { $0.steps > 0 } || !attempt.events.isEmpty
                if attempt.key != nil || acted { segments!.attempts.append(attempt) }
            } else {
                segments!.homeDwells.append(end - homeSince)
            }
            return segments
        }
    }
}
