import RemixEventLog
import RemixExperiments
import RemixKit

/// Records one simulated session's events as JSON lines, stamped with virtual time: domain events
/// from the features, screen transitions from the window, and the session's own events.
final class SessionLog: EventSink, ExposureSink {
    private(set) var encoder: JSONLinesEncoder
    private let session: String
    private let user: String
    /// The session and user members, encoded once for every line of the session.
    private let header: JSONLinesEncoder.SessionHeader
    private let start: Int64
    /// The session's clock, whose time stamps the events.
    private let clock: VirtualClock
    /// How many events were recorded.
    private(set) var count = 0
    /// The variations the session was exposed to, as (experiment, variation key).
    private(set) var exposures: [(experiment: String, variation: String)] = []
    /// The features those exposures filled slots with (for the population's effects).
    private(set) var exposedFeatures: [String] = []
    /// The event the simulated user waits for (its intent's success), and whether it was seen.
    private var watched: String?
    private(set) var sawWatchedEvent = false

    /// The session's events as values, when a sink stores rows rather than lines (else nil).
    private(set) var events: [LoggedEvent]?

    /// Makes the log of one session; its exposures go into the lists taken from `lists` (empty),
    /// which ``takeLists(into:)`` hands back for the next session.
    init(encoder: JSONLinesEncoder, session: String, user: String, start: Int64, capturing: Bool = false,
         clock: VirtualClock, lists: inout SessionLists) {
        swap(&exposures, &lists.exposures)
        swap(&exposedFeatures, &lists.exposedFeatures)
        events = capturing ? [] : nil
        self.encoder = encoder
        self.session = session
        self.user = user
        header = JSONLinesEncoder.SessionHeader(session: session, user: user)
        self.start = start
        self.clock = clock
        lastTime = (.zero, start)
    }

    /// The last instant read and its timestamp: a step's events mostly share one instant, and
    /// converting a duration to milliseconds is wide arithmetic.
    private var lastTime: (at: Duration, milliseconds: Int64)

    /// Milliseconds since the epoch, now on the virtual clock.
    var timestamp: Int64 {
        let now = clock.now
        if now != lastTime.at { lastTime = (now, start + now.wholeMilliseconds) }
        return lastTime.milliseconds
    }

    func record(_ event: DomainEvent) {
        if let exposure = ExposureEvent.entered(event) {
            if exposures.isEmpty {
                // A session's exposures come together (one per experiment on the slot): one
                // allocation for them instead of regrowing.
                exposures.reserveCapacity(4)
                exposedFeatures.reserveCapacity(4)
            }
            exposures.append((exposure.experiment, exposure.variation))
            if let feature = exposure.feature { exposedFeatures.append(feature) }
        }
        if let watched, event.name == watched { sawWatchedEvent = true }
        write(event.name, event.fields)
    }

    /// Records an exposure as ``record(_:)`` records the event ``ExposureEvent`` makes of it, with
    /// the fields written straight into the line (a session is exposed once per experiment on
    /// its slot, and the event and its fields would be built only to be written).
    func recordExposure(_ decisions: [ExperimentDecision], _ index: Int, filledBy feature: String) {
        guard events == nil else { return record(ExposureEvent.make(decisions[index], filledBy: feature)) }
        if decisions[index].inExperiment, let variation = decisions[index].variation {
            if exposures.isEmpty {
                exposures.reserveCapacity(4)
                exposedFeatures.reserveCapacity(4)
            }
            exposures.append((decisions[index].experiment, variation))
            exposedFeatures.append(decisions[index].feature ?? feature)
        }
        if let watched, watched == ExposureEvent.name { sawWatchedEvent = true }
        count += 1
        encoder.encode(timestamp: timestamp, type: ExposureEvent.name, header: header) { member in
            ExposureEvent.forEachField(decisions, index, filledBy: feature) { member($0, $1) }
        }
    }

    /// Records a screen transition with the whole navigation stack, which is written straight
    /// from the window into the line (there is one screen event per step, and the stack is its
    /// longest member).
    func record(_ kind: NavigationTransition.Kind, screen: ScreenID?, in window: Window) {
        guard events == nil else {
            var stack = ""
            window.describeState { stack += $0 }
            return write("screen", [
                EventField("transition", .string(kind.rawValue)),
                EventField("screen", screen.map { EventValue.string($0.description) } ?? .null),
                EventField("stack", .string(stack)),
            ])
        }
        count += 1
        // The transition, the screen and the stack written straight into the line, the screen
        // and the stack in parts (a transition without a screen says `null` in its place).
        guard let screen else {
            return encoder.encodeScreen(timestamp: timestamp, header: header, transition: kind.rawValue, screenIsNull: true,
                                        pieces: { _, piece in window.describeState(piece) })
        }
        encoder.encodeScreen(timestamp: timestamp, header: header, transition: kind.rawValue, screenIsNull: false,
                             pieces: { index, piece in index == 0 ? screen.describe(piece) : window.describeState(piece) })
    }

    /// Starts waiting for `event` (nil: for nothing), forgetting whether an earlier one was seen.
    func watch(_ event: String?) {
        watched = event
        sawWatchedEvent = false
    }

    /// Writes an event of `type` whose fields `fields` writes, in order: straight into the line
    /// (may run twice, writing the same each time), or as fields when the log captures events.
    func write(_ type: String, fields: (inout EventFieldWriter) -> Void) {
        guard events == nil else {
            var writer = EventFieldWriter()
            fields(&writer)
            return write(type, writer.fields)
        }
        count += 1
        encoder.encode(timestamp: timestamp, type: type, header: header) { members in
            var writer = EventFieldWriter(members: members)
            fields(&writer)
            members = writer.members
        }
    }

    func write(_ type: String, _ fields: [EventField]) {
        count += 1
        let timestamp = timestamp
        if events != nil {
            events?.append(LoggedEvent(timestamp: timestamp, type: type, session: session, user: user, fields: fields))
        }
        encoder.encode(timestamp: timestamp, type: type, header: header, fields: fields)
    }

    /// Hands this log's lists to `lists` for the next session (``SessionLists/empty()`` empties them).
    func takeLists(into lists: inout SessionLists) {
        swap(&exposures, &lists.exposures)
        swap(&exposedFeatures, &lists.exposedFeatures)
    }

    /// Hands back the encoder with this session's lines, leaving this log empty.
    func finish() -> JSONLinesEncoder {
        var taken = JSONLinesEncoder(capacity: 0)
        swap(&taken, &encoder)
        return taken
    }
}

/// Writes an event's fields in order for ``SessionLog/write(_:fields:)``: into the line, or as
/// ``EventField``s when the log captures events. Field names are literals JSON needs no escape for.
/// It is `~Escapable` as the line's members it writes into are: it cannot outlive the line.
struct EventFieldWriter: ~Escapable {
    fileprivate var members: JSONLinesEncoder.LineMembers
    /// Whether it collects ``fields`` instead (its `members` then write nowhere).
    private let collects: Bool
    fileprivate var fields: [EventField] = []

    /// A writer into the line that `members` writes.
    @_lifetime(copy members)
    fileprivate init(members: JSONLinesEncoder.LineMembers) {
        self.members = members
        collects = false
    }

    /// A writer that collects the fields.
    @_lifetime(immortal)
    fileprivate init() {
        members = JSONLinesEncoder.LineMembers()
        collects = true
    }

    /// The field `name` with `value`.
    mutating func callAsFunction(_ name: StaticString, _ value: EventValue) {
        guard !collects else { return fields.append(EventField(name.description, value)) }
        members(name, value)
    }

    /// The field `name` whose value is an object of string members: `count` of them, the one at
    /// each index given by `member`.
    mutating func object(_ name: StaticString, count: Int, _ member: (Int) -> (name: String, value: String)) {
        guard !collects else {
            return fields.append(EventField(name.description, .object((0..<count).map {
                let (name, value) = member($0)
                return EventField(name, .string(value))
            })))
        }
        members.object(name) { object in
            for index in 0..<count {
                let (name, value) = member(index)
                object.member(named: name, string: value)
            }
        }
    }
}
